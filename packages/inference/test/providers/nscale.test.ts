/**
 * Nscale — images and chat.
 *   text-to-image: POST {router}/nscale/v1/images/generations | https://inference.api.nscale.com/v1/images/generations
 *     body: other arguments, parameters flat, response_format "b64_json", prompt = inputs, model
 *     answer: {data: [{b64_json}]} → JPEG Blob (data URL for outputType "url")
 *   Its chat (and text-generation) route is a row of openai-compatible.test.ts; its other tasks are here.
 */
import { describe, expect, it } from "vitest";
import { textToImage } from "../../src/index.js";
import { B64_IMAGE, hubModel, PROVIDER_KEY, PNG_BYTES } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const table = [
	hubModel("black-forest-labs/FLUX.1-schnell", {
		nscale: { providerId: "flux-schnell", status: "live", task: "text-to-image" },
	}),
	hubModel("org/img-bad", { nscale: { providerId: "img-bad", status: "live", task: "text-to-image" } }),
	{
		path: "/inference.api.nscale.com/v1/images/generations",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "img-bad",
		respond: { json: { data: [] } },
	},
	{
		path: "/inference.api.nscale.com/v1/images/generations",
		expect: {
			headers: { authorization: `Bearer ${PROVIDER_KEY}` },
			json: { seed: 1, response_format: "b64_json", prompt: "a dog", model: "flux-schnell" },
		},
		respond: { json: { data: [{ b64_json: B64_IMAGE }] } },
	},
];

describe("nscale", () => {
	const server = useServer(table);

	it("text-to-image: direct with a key, b64_json → JPEG Blob", async () => {
		const blob = await textToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "nscale",
				model: "black-forest-labs/FLUX.1-schnell",
				inputs: "a dog",
				parameters: { seed: 1, response_format: "url" },
			},
			{ fetch: server().fetch },
		);
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
	});

	it("text-to-image: a malformed answer", async () => {
		await expect(
			textToImage(
				{ accessToken: PROVIDER_KEY, provider: "nscale", model: "org/img-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected Nscale text-to-image response format.");
	});
});
