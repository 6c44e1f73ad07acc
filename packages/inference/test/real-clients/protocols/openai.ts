/**
 * OpenAI: chat completions at api.openai.com/v1 with an OpenAI key only — the hub's router does not
 * serve it and an `hf_` token is an invalid key. Model ids are OpenAI's bare names (`gpt-4o-mini`):
 * `openai/gpt-4o-mini` is an unknown model. Arguments OpenAI does not define are refused.
 */
import { BEARER, openaiError } from "./common.js";
import { chatCompletions } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const openai: ProviderProtocol = {
	provider: "openai",
	hosts: [
		{
			host: "api.openai.com",
			endpoints: [chatCompletions("openai", "/v1/chat/completions", { strictArguments: true })],
		},
	],
	routed: false,
	direct: true,
	keyScheme: BEARER,
	providerModelId: () => "gpt-4o-mini",
	// Not mapped on the hub. @modelhub/inference (like huggingface.js) takes `openai/{id}` and strips the
	// prefix itself; huggingface_hub 2.0.0 and the OpenAI SDKs take the bare id. Either way the request
	// names the bare id, which is what this server knows.
	unmappedHubModelId: (providerModelId) => `openai/${providerModelId}`,
	errorBody: openaiError,
};
