/** PublicAI: OpenAI-compatible chat at api.publicai.co/v1 (providers-current.md §4). */
import { BEARER, openaiError } from "./common.js";
import { chatCompletions } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const publicai: ProviderProtocol = {
	provider: "publicai",
	hosts: [{ host: "api.publicai.co", endpoints: [chatCompletions("publicai", "/v1/chat/completions")] }],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `${hubModelId}-public`,
	errorBody: openaiError,
};
