import { chatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

/** Not served by the router: always called directly with an OpenAI key; models are "openai/{id}". */
const openai: ProviderDefinition = {
	id: "openai",
	baseUrl: "https://api.openai.com",
	clientSideRoutingOnly: true,
};

export const openaiConversational = /* @__PURE__ */ chatHelper(openai, "v1/chat/completions");
