import { chatHelper, completionsHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

const ovhcloud: ProviderDefinition = {
	id: "ovhcloud",
	baseUrl: "https://oai.endpoints.kepler.ai.cloud.ovh.net",
};

export const ovhcloudConversational = /* @__PURE__ */ chatHelper(ovhcloud, "v1/chat/completions");

/** Completions: `prompt`, `max_tokens` only (3.12.1 also sent `max_new_tokens`). */
export const ovhcloudTextGeneration = /* @__PURE__ */ completionsHelper(
	ovhcloud,
	"v1/completions",
	"Expected OVHcloud text generation response format",
);
