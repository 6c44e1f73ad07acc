/**
 * Groq: OpenAI-compatible chat under `/openai/v1`, and only chat: a body without `messages` (such as
 * `{inputs, parameters}`) is refused. Ids are bare names (e.g. `llama-3.3-70b-versatile`).
 */
import { BEARER, modelName, openaiError } from "./common.js";
import { chatCompletions } from "./openai-style.js";
import type { ProviderProtocol } from "./types.js";

export const groq: ProviderProtocol = {
	provider: "groq",
	hosts: [{ host: "api.groq.com", endpoints: [chatCompletions("groq", "/openai/v1/chat/completions")] }],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `${modelName(hubModelId).toLowerCase()}-versatile`,
	errorBody: openaiError,
};
