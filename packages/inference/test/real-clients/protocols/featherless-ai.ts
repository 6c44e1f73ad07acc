/** Featherless AI: OpenAI-compatible chat and completions at api.featherless.ai/v1; ids are hub-style `owner/name`. */
import { BEARER, openaiError } from "./common.js";
import { chatCompletions, completions } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const featherlessAi: ProviderProtocol = {
	provider: "featherless-ai",
	hosts: [
		{
			host: "api.featherless.ai",
			endpoints: [
				chatCompletions("featherless-ai", "/v1/chat/completions"),
				completions("featherless-ai", "/v1/completions"),
			],
		},
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `featherless/${hubModelId}`,
	errorBody: openaiError,
};
