import { chatHelper, completionsHelper, embeddingsHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

/** Scaleway Generative APIs, OpenAI-compatible (huggingface.js 4.13.28, huggingface_hub 2.0.0). */
const scaleway: ProviderDefinition = { id: "scaleway", baseUrl: "https://api.scaleway.ai" };

export const scalewayConversational = /* @__PURE__ */ chatHelper(scaleway, "v1/chat/completions");

/** Completions: `prompt` and mapped parameters (huggingface.js 4.13.28 also sent `inputs`/`parameters`). */
export const scalewayTextGeneration = /* @__PURE__ */ completionsHelper(
	scaleway,
	"v1/completions",
	"Expected Scaleway text generation response format",
);

export const scalewayFeatureExtraction = /* @__PURE__ */ embeddingsHelper(
	scaleway,
	"v1/embeddings",
	"Expected Scaleway feature-extraction (embeddings) response format",
);
