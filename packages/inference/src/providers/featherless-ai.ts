import { chatHelper, completionsHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

const featherlessAi: ProviderDefinition = {
	id: "featherless-ai",
	baseUrl: "https://api.featherless.ai",
};

export const featherlessAiConversational = /* @__PURE__ */ chatHelper(featherlessAi, "v1/chat/completions");

/** Completions: `prompt` and mapped parameters (3.12.1 also kept `inputs` and `parameters`). */
export const featherlessAiTextGeneration = /* @__PURE__ */ completionsHelper(
	featherlessAi,
	"v1/completions",
	"Expected Featherless AI text generation response format",
);
