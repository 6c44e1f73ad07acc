/** SambaNova Cloud: OpenAI-compatible chat and embeddings at api.sambanova.ai/v1. */
import { BEARER, modelName, openaiError } from "./common.js";
import { chatCompletions, embeddingsEndpoint } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const sambanova: ProviderProtocol = {
	provider: "sambanova",
	hosts: [
		{
			host: "api.sambanova.ai",
			endpoints: [
				chatCompletions("sambanova", "/v1/chat/completions"),
				embeddingsEndpoint("sambanova", "/v1/embeddings"),
			],
		},
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `Samba-${modelName(hubModelId)}`,
	errorBody: openaiError,
};
