import { InferenceInputError } from "../core/errors.js";
import type { ChatCompletionOutput } from "../types.js";
import { chatBody, chatResponse } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

/** The router's own server-side provider choice: `{router}/v1/chat/completions`, no provider segment. */
const autoRouter: ProviderDefinition = { id: "auto", baseUrl: "" };

/**
 * Chat with no provider (or "auto"): the router picks the provider from the plain hub model id in the
 * body, so no mapping lookup happens. Only a hub token can reach it (huggingface.js 4.13.28
 * `AutoRouterConversationalTask`; huggingface_hub 2.0.0 `AutoRouterConversationalTask`).
 */
export const autoRouterConversational: TaskHelper<ChatCompletionOutput> = {
	provider: autoRouter,
	task: "conversational",
	makeRoute: () => "v1/chat/completions",
	makeUrl: ({ authMethod, routerUrl }) => {
		if (authMethod !== "hf-token") {
			throw new InferenceInputError("Cannot select auto-router when using non-Hugging Face API key.");
		}
		return `${routerUrl}/v1/chat/completions`;
	},
	makeBody: chatBody,
	getResponse: chatResponse,
};
