import { chatHelper, embeddingsHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

/** Not served by the public router since 2026-07-01: use a SambaNova key. */
const sambanova: ProviderDefinition = { id: "sambanova", baseUrl: "https://api.sambanova.ai" };

export const sambanovaConversational = /* @__PURE__ */ chatHelper(sambanova, "v1/chat/completions");

/** OpenAI-style embeddings (`input`; 3.12.1 also sent `inputs`). */
export const sambanovaFeatureExtraction = /* @__PURE__ */ embeddingsHelper(
	sambanova,
	"/v1/embeddings",
	"Expected Sambanova feature-extraction (embeddings) response format to be {'data' : list of {'embedding' : number[]}}",
);
