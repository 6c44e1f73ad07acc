/**
 * Scaleway Generative APIs — chat, completions, embeddings (new in today's clients).
 *   chat:            POST {router}/scaleway/v1/chat/completions | https://api.scaleway.ai/v1/chat/completions
 *   text-generation: POST …/v1/completions  {model, prompt, mapped parameters} → choices[0].text
 *                    (huggingface.js 4.13.28 also sends inputs/parameters; we do not)
 *   feature-extraction: POST …/v1/embeddings  {input, other flat arguments, model} → data[].embedding
 */
import { describe, expect, it } from "vitest";
import { featureExtraction, InferenceOutputError } from "../../src/index.js";
import { chatChecks, chatRows } from "../support/chat.js";
import { HF_TOKEN, hubModel, PROVIDER_KEY } from "../support/fixtures.js";
import type { RecordedRequest } from "../support/servers.js";
import { useServer } from "../support/setup.js";
import {
	textGenerationChecks,
	textGenerationRows,
	type TextGenerationSpec,
} from "../support/text-generation.js";

const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const TEXT_GENERATION: TextGenerationSpec = {
	provider: "scaleway",
	routed: "/router.huggingface.co/scaleway/v1/completions",
	direct: "/api.scaleway.ai/v1/completions",
	style: "completions",
	malformed: "Expected Scaleway text generation response format",
};
const modelIs = (model: string) => (request: RecordedRequest) =>
	(request.json as { model?: string } | undefined)?.model === model;

const table = [
	hubModel(MODEL, {
		scaleway: { providerId: "llama-3.3-70b-instruct", status: "live", task: "conversational" },
	}),
	hubModel("org/malformed", {
		scaleway: { providerId: "malformed", status: "live", task: "conversational" },
	}),
	hubModel("BAAI/bge-multilingual-gemma2", {
		scaleway: { providerId: "bge-multilingual-gemma2", status: "live", task: "feature-extraction" },
	}),
	hubModel("org/fe-bad", { scaleway: { providerId: "fe-bad", status: "live", task: "feature-extraction" } }),
	...textGenerationRows(TEXT_GENERATION),
	...chatRows({
		routed: "/router.huggingface.co/scaleway/v1/chat/completions",
		direct: "/api.scaleway.ai/v1/chat/completions",
		providerId: "llama-3.3-70b-instruct",
	}),
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
	chatChecks(server, { provider: "scaleway", model: MODEL, routed: true, malformedModel: "org/malformed" });
	textGenerationChecks(server, TEXT_GENERATION);

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
