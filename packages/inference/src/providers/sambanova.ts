import { InferenceOutputError } from "../core/errors.js";
import { isRecord } from "./checks.js";
import { openaiChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

export const sambanova: ProviderDefinition = { id: "sambanova", baseUrl: "https://api.sambanova.ai" };

export const sambanovaConversational = /* @__PURE__ */ openaiChatHelper(sambanova, "v1/chat/completions");

/** OpenAI-style embeddings; `inputs` is also kept next to `input`, as in 3.12.1. */
export const sambanovaFeatureExtraction: TaskHelper<number[][]> = {
	provider: sambanova,
	task: "feature-extraction",
	makeRoute: () => "/v1/embeddings",
	makeBody: ({ args, model }) => ({ model, input: args.inputs, ...args }),
	getResponse: (raw) => {
		if (isRecord(raw) && Array.isArray(raw.data)) {
			return raw.data.map((item) => (item as { embedding: number[] }).embedding);
		}
		throw new InferenceOutputError(
			"Expected Sambanova feature-extraction (embeddings) response format to be {'data' : list of {'embedding' : number[]}}",
		);
	},
};
