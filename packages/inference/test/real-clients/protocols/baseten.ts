/** Baseten: OpenAI-compatible chat at inference.baseten.co/v1 (providers-current.md §4). */
import { BEARER, openaiError } from "./common.js";
import { chatCompletions } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const baseten: ProviderProtocol = {
	provider: "baseten",
	hosts: [{ host: "inference.baseten.co", endpoints: [chatCompletions("baseten", "/v1/chat/completions")] }],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `${hubModelId}-baseten`,
	errorBody: openaiError,
};
