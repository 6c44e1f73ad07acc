/** OVHcloud AI Endpoints: OpenAI-compatible chat and completions; ids are model names without owner. */
import { BEARER, modelName, openaiError } from "./common.js";
import { chatCompletions, completions } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const ovhcloud: ProviderProtocol = {
	provider: "ovhcloud",
	hosts: [
		{
			host: "oai.endpoints.kepler.ai.cloud.ovh.net",
			endpoints: [
				chatCompletions("ovhcloud", "/v1/chat/completions"),
				completions("ovhcloud", "/v1/completions"),
			],
		},
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `${modelName(hubModelId)}-ovh`,
	errorBody: openaiError,
};
