/** Cerebras: an OpenAI-compatible chat API at api.cerebras.ai/v1. Ids are bare names (e.g. `llama-3.3-70b`). */
import { BEARER, modelName, openaiError } from "./common.js";
import { chatCompletions } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const cerebras: ProviderProtocol = {
	provider: "cerebras",
	hosts: [{ host: "api.cerebras.ai", endpoints: [chatCompletions("cerebras", "/v1/chat/completions")] }],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => modelName(hubModelId).toLowerCase(),
	errorBody: openaiError,
};
