/** Cohere: OpenAI-compatible chat under `/compatibility/v1`. Ids are Cohere's own (e.g. `command-a-03-2025`). */
import { BEARER, modelName, openaiError } from "./common.js";
import { chatCompletions } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const cohere: ProviderProtocol = {
	provider: "cohere",
	hosts: [
		{ host: "api.cohere.com", endpoints: [chatCompletions("cohere", "/compatibility/v1/chat/completions")] },
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `command-${modelName(hubModelId).toLowerCase()}-08-2025`,
	errorBody: openaiError,
};
