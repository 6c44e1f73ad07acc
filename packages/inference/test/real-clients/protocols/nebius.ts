/** Nebius AI Studio: OpenAI-compatible chat, completions (which need `prompt`) and image generation. */
import { BEARER, openaiError } from "./common.js";
import { chatCompletions, completions, imageGenerations } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const nebius: ProviderProtocol = {
	provider: "nebius",
	hosts: [
		{
			host: "api.studio.nebius.ai",
			endpoints: [
				chatCompletions("nebius", "/v1/chat/completions"),
				completions("nebius", "/v1/completions"),
				imageGenerations("nebius", "/v1/images/generations"),
			],
		},
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `${hubModelId}-fast`,
	errorBody: openaiError,
};
