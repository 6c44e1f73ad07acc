/** Fireworks AI: OpenAI-compatible chat under `/inference/v1`; ids are `accounts/{account}/models/{name}`. */
import { BEARER, modelName, openaiError } from "./common.js";
import { chatCompletions } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const fireworksAi: ProviderProtocol = {
	provider: "fireworks-ai",
	hosts: [
		{
			host: "api.fireworks.ai",
			endpoints: [chatCompletions("fireworks-ai", "/inference/v1/chat/completions")],
		},
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `accounts/fireworks/models/${modelName(hubModelId).toLowerCase()}`,
	errorBody: openaiError,
};
