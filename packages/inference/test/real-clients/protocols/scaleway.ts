/** Scaleway Generative APIs: OpenAI-compatible chat, completions and embeddings at api.scaleway.ai/v1. */
import { BEARER, modelName, openaiError } from "./common.js";
import { chatCompletions, completions, embeddingsEndpoint } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const scaleway: ProviderProtocol = {
	provider: "scaleway",
	hosts: [
		{
			host: "api.scaleway.ai",
			endpoints: [
				chatCompletions("scaleway", "/v1/chat/completions"),
				completions("scaleway", "/v1/completions"),
				embeddingsEndpoint("scaleway", "/v1/embeddings"),
			],
		},
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => modelName(hubModelId).toLowerCase(),
	errorBody: openaiError,
};
