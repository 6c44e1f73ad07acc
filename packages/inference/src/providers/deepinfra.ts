/** DeepInfra: OpenAI-compatible routes under `/v1/openai` (huggingface.js 4.13.28, huggingface_hub 2.0.0). */
import {
	chatHelper,
	completionsHelper,
	embeddingsHelper,
	speechHelper,
	transcriptionHelper,
} from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

const deepinfra: ProviderDefinition = { id: "deepinfra", baseUrl: "https://api.deepinfra.com" };

export const deepinfraConversational = /* @__PURE__ */ chatHelper(deepinfra, "v1/openai/chat/completions");

export const deepinfraTextGeneration = /* @__PURE__ */ completionsHelper(
	deepinfra,
	"v1/openai/completions",
	"Expected DeepInfra text generation response format",
);

export const deepinfraFeatureExtraction = /* @__PURE__ */ embeddingsHelper(
	deepinfra,
	"v1/openai/embeddings",
	"Expected DeepInfra feature-extraction (embeddings) response format",
);

/** `voice` is model-specific and optional: passed through as given. */
export const deepinfraTextToSpeech = /* @__PURE__ */ speechHelper(deepinfra, "v1/openai/audio/speech");

/** Multipart upload of the audio file, the parameters as fields, `model` last. */
export const deepinfraAutomaticSpeechRecognition = /* @__PURE__ */ transcriptionHelper(
	deepinfra,
	"v1/openai/audio/transcriptions",
	"DeepInfra",
);
