/** DeepInfra: its OpenAI-compatible API lives under `/v1/openai` (providers-current.md §4). */
import { BEARER, openaiError } from "./common.js";
import {
	audioSpeech,
	audioTranscriptions,
	chatCompletions,
	completions,
	embeddingsEndpoint,
} from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const deepinfra: ProviderProtocol = {
	provider: "deepinfra",
	hosts: [
		{
			host: "api.deepinfra.com",
			endpoints: [
				chatCompletions("deepinfra", "/v1/openai/chat/completions"),
				completions("deepinfra", "/v1/openai/completions"),
				embeddingsEndpoint("deepinfra", "/v1/openai/embeddings"),
				audioSpeech("deepinfra", "/v1/openai/audio/speech"),
				audioTranscriptions("deepinfra", "/v1/openai/audio/transcriptions"),
			],
		},
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `deepinfra/${hubModelId}`,
	errorBody: openaiError,
};
