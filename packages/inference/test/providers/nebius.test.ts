/**
 * Nebius AI Studio — images, chat, completions.
 *   text-to-image: POST {router}/nebius/v1/images/generations  (same body/answer as Nscale)
 *   text-generation: POST {router}/nebius/v1/completions  {model, prompt, mapped parameters} (3.12.1 sent
 *     {inputs, parameters}, which the route refuses) → {choices: [{text}]} → {generated_text}
 *   Not served by the public router since 2026-07-01: the routed rows show what an hf_ token would send.
 *   chat: Nebius omits system_fingerprint, which the chat check accepts.
 *   Its chat (and text-generation) route is a row of openai-compatible.test.ts; its other tasks are here.
 */
import { describe, expect, it } from "vitest";
import { chatCompletion, textToImage } from "../../src/index.js";
import { B64_IMAGE, CHAT_OUTPUT, HF_TOKEN, hubModel, MESSAGES } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const { system_fingerprint: _omitted, ...CHAT_WITHOUT_FINGERPRINT } = CHAT_OUTPUT;

const table = [
	hubModel("org/no-fp", { nebius: { providerId: "no-fp", status: "live", task: "conversational" } }),
	hubModel("black-forest-labs/FLUX.1-dev", {
		nebius: { providerId: "black-forest-labs/flux-dev", status: "live", task: "text-to-image" },
	}),
	hubModel("org/img-bad", { nebius: { providerId: "img-bad", status: "live", task: "text-to-image" } }),
	{
		path: "/router.huggingface.co/nebius/v1/chat/completions",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "no-fp",
		respond: { json: CHAT_WITHOUT_FINGERPRINT },
	},
	{
		path: "/router.huggingface.co/nebius/v1/images/generations",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "img-bad",
		respond: { json: { data: [{ url: "x" }] } },
	},
	{
		path: "/router.huggingface.co/nebius/v1/images/generations",
		expect: { json: { response_format: "b64_json", prompt: "a fox", model: "black-forest-labs/flux-dev" } },
		respond: { json: { data: [{ b64_json: B64_IMAGE }] } },
	},
];

describe("nebius", () => {
	const server = useServer(table);

	it("conversational: an answer without system_fingerprint passes", async () => {
		const output = await chatCompletion(
			{ accessToken: HF_TOKEN, provider: "nebius", model: "org/no-fp", messages: MESSAGES },
			{ fetch: server().fetch },
		);
		expect(output).toEqual(CHAT_WITHOUT_FINGERPRINT);
	});

	it("text-to-image: outputType url → data URL", async () => {
		const url = await textToImage(
			{ accessToken: HF_TOKEN, provider: "nebius", model: "black-forest-labs/FLUX.1-dev", inputs: "a fox" },
			{ fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(`data:image/jpeg;base64,${B64_IMAGE}`);
	});

	it("text-to-image: a malformed answer", async () => {
		await expect(
			textToImage(
				{ accessToken: HF_TOKEN, provider: "nebius", model: "org/img-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected Nebius text-to-image response format.");
	});
});
