/** Nscale: OpenAI-compatible chat and image generation (images answered as `b64_json`). */
import { BEARER, openaiError } from "./common.js";
import { chatCompletions, imageGenerations } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const nscale: ProviderProtocol = {
	provider: "nscale",
	hosts: [
		{
			host: "inference.api.nscale.com",
			endpoints: [
				chatCompletions("nscale", "/v1/chat/completions"),
				imageGenerations("nscale", "/v1/images/generations"),
			],
		},
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `nscale/${hubModelId}`,
	errorBody: openaiError,
};
