import { chatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

const cohere: ProviderDefinition = { id: "cohere", baseUrl: "https://api.cohere.com" };

export const cohereConversational = /* @__PURE__ */ chatHelper(cohere, "/compatibility/v1/chat/completions");
