/**
 * Scaleway Generative APIs — chat, completions, embeddings (new in today's clients).
 *   chat:            POST {router}/scaleway/v1/chat/completions | https://api.scaleway.ai/v1/chat/completions
 *   text-generation: POST …/v1/completions  {model, prompt, mapped parameters} → choices[0].text
 *                    (huggingface.js 4.13.28 also sends inputs/parameters; we do not)
 *   feature-extraction: POST …/v1/embeddings  {input, other flat arguments, model} → data[].embedding
 *   Its chat (and text-generation) route is a row of openai-compatible.test.ts; its other tasks are here.
 */
import { describe, expect, it } from "vitest";
import { featureExtraction, InferenceOutputError } from "../../src/index.js";
import { HF_TOKEN, hubModel, PROVIDER_KEY } from "../support/fixtures.js";
import type { RecordedRequest } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const modelIs = (model: string) => (request: RecordedRequest) =>
	(request.json as { model?: string } | undefined)?.model === model;

const table = [
	hubModel("BAAI/bge-multilingual-gemma2", {
		scaleway: { providerId: "bge-multilingual-gemma2", status: "live", task: "feature-extraction" },
	}),
	hubModel("org/fe-bad", { scaleway: { providerId: "fe-bad", status: "live", task: "feature-extraction" } }),
	{ path: "/api.scaleway.ai/v1/embeddings", when: modelIs("fe-bad"), respond: { json: { embeddings: [] } } },
	{
		path: "/router.huggingface.co/scaleway/v1/embeddings",
		expect: {
			headers: { authorization: `Bearer ${HF_TOKEN}` },
			json: { dimensions: 2, input: "a sunny day", model: "bge-multilingual-gemma2" },
		},
		respond: { json: { data: [{ embedding: [0.5, 0.25] }] } },
	},
];

describe("scaleway", () => {
	const server = useServer(table);

	it("feature-extraction (routed): input, flat options and model; data[].embedding back", async () => {
		const output = await featureExtraction(
			{
				accessToken: HF_TOKEN,
				provider: "scaleway",
				model: "BAAI/bge-multilingual-gemma2",
				inputs: "a sunny day",
				dimensions: 2,
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual([[0.5, 0.25]]);
	});

	it("feature-extraction: a malformed answer", async () => {
		await expect(
			featureExtraction(
				{ accessToken: PROVIDER_KEY, provider: "scaleway", model: "org/fe-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow(
			new InferenceOutputError("Expected Scaleway feature-extraction (embeddings) response format"),
		);
	});
});
