/**
 * SambaNova — chat and embeddings. Not served by the public router since 2026-07-01 (use a SambaNova key).
 *   chat:       POST {router}/sambanova/v1/chat/completions | https://api.sambanova.ai/v1/chat/completions
 *   embeddings: POST {router}/sambanova/v1/embeddings  body {input = inputs, other arguments, model} (3.12.1 also sent inputs)
 *               answer {data: [{embedding: number[]}]} → number[][]
 *   stream errors: a JSON body with a top-level "message" (SambaNova style) becomes the error text.
 *   Its chat (and text-generation) route is a row of openai-compatible.test.ts; its other tasks are here.
 */
import { describe, expect, it } from "vitest";
import { chatCompletionStream, featureExtraction } from "../../src/index.js";
import { HF_TOKEN, hubModel, MESSAGES } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const table = [
	hubModel("org/overloaded", {
		sambanova: { providerId: "overloaded", status: "live", task: "conversational" },
	}),
	hubModel("intfloat/e5-mistral-7b-instruct", {
		sambanova: { providerId: "E5-Mistral-7B-Instruct", status: "live", task: "feature-extraction" },
	}),
	hubModel("org/emb-bad", {
		sambanova: { providerId: "emb-bad", status: "live", task: "feature-extraction" },
	}),
	{
		path: "/router.huggingface.co/sambanova/v1/chat/completions",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "overloaded",
		respond: { status: 429, json: { message: "Rate limit exceeded" } },
	},
	{
		path: "/router.huggingface.co/sambanova/v1/embeddings",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "emb-bad",
		respond: { json: { embeddings: [] } },
	},
	{
		path: "/router.huggingface.co/sambanova/v1/embeddings",
		expect: { json: { input: ["a", "b"], model: "E5-Mistral-7B-Instruct" } },
		respond: { json: { data: [{ embedding: [0.1, 0.2] }, { embedding: [0.3, 0.4] }] } },
	},
];

describe("sambanova", () => {
	const server = useServer(table);

	it("feature-extraction: OpenAI-style embeddings mapped to number[][]", async () => {
		const output = await featureExtraction(
			{
				accessToken: HF_TOKEN,
				provider: "sambanova",
				model: "intfloat/e5-mistral-7b-instruct",
				inputs: ["a", "b"],
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual([
			[0.1, 0.2],
			[0.3, 0.4],
		]);
	});

	it("feature-extraction: a malformed answer", async () => {
		await expect(
			featureExtraction(
				{ accessToken: HF_TOKEN, provider: "sambanova", model: "org/emb-bad", inputs: "a" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow(
			"Invalid inference output: Expected Sambanova feature-extraction (embeddings) response format to be {'data' : list of {'embedding' : number[]}}.",
		);
	});

	it("stream: a top-level message of an error body is the error text", async () => {
		const stream = chatCompletionStream(
			{ accessToken: HF_TOKEN, provider: "sambanova", model: "org/overloaded", messages: MESSAGES },
			{ fetch: server().fetch },
		);
		await expect(stream.next()).rejects.toThrow("Rate limit exceeded");
	});
});
