/**
 * Hyperbolic — images, chat, and text generation through the chat route. Not served by the public
 * router since 2026-07-01 (use a Hyperbolic key); the routed rows show what an hf_ token would send.
 *   text-to-image: POST {router}/hyperbolic/v1/images/generations
 *     body: other arguments, parameters flat, prompt = inputs, model_name = providerId
 *     answer: {images: [{image: base64}]} → JPEG Blob, or data:image/jpeg;base64,… for outputType "url"
 *   text-generation: POST {router}/hyperbolic/v1/chat/completions
 *     body: model, messages = [{role: "user", content: inputs}], max_tokens = max_new_tokens, other parameters flat
 *     answer: {choices: [{message: {content}}], model} → {generated_text}
 *   Its chat (and text-generation) route is a row of openai-compatible.test.ts; its other tasks are here.
 */
import { describe, expect, it } from "vitest";
import { textToImage } from "../../src/index.js";
import { B64_IMAGE, HF_TOKEN, hubModel, PNG_BYTES } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const table = [
	hubModel("stabilityai/sdxl", {
		hyperbolic: { providerId: "SDXL1.0-base", status: "live", task: "text-to-image" },
	}),
	hubModel("org/img-bad", { hyperbolic: { providerId: "img-bad", status: "live", task: "text-to-image" } }),
	{
		path: "/router.huggingface.co/hyperbolic/v1/images/generations",
		when: (r: { json?: unknown }) => (r.json as { model_name?: string }).model_name === "img-bad",
		respond: { json: { images: [] } },
	},
	{
		path: "/router.huggingface.co/hyperbolic/v1/images/generations",
		expect: { json: { height: 512, prompt: "a cat", model_name: "SDXL1.0-base" } },
		respond: { json: { images: [{ image: B64_IMAGE }] } },
	},
];

describe("hyperbolic", () => {
	const server = useServer(table);

	it("text-to-image: base64 image → JPEG Blob", async () => {
		const blob = await textToImage(
			{
				accessToken: HF_TOKEN,
				provider: "hyperbolic",
				model: "stabilityai/sdxl",
				inputs: "a cat",
				parameters: { height: 512 },
			},
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("image/jpeg");
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
	});

	it("text-to-image: outputType url → data URL", async () => {
		const url = await textToImage(
			{
				accessToken: HF_TOKEN,
				provider: "hyperbolic",
				model: "stabilityai/sdxl",
				inputs: "a cat",
				parameters: { height: 512 },
			},
			{ fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(`data:image/jpeg;base64,${B64_IMAGE}`);
	});

	it("text-to-image: a malformed answer", async () => {
		await expect(
			textToImage(
				{ accessToken: HF_TOKEN, provider: "hyperbolic", model: "org/img-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected Hyperbolic text-to-image response format.");
	});
});
