import { chatBody, chatResponse } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";
import type { ChatCompletionOutput } from "../types.js";

export const cohere: ProviderDefinition = { id: "cohere", baseUrl: "https://api.cohere.com" };

export const cohereConversational: TaskHelper<ChatCompletionOutput> = {
	provider: cohere,
	task: "conversational",
	makeRoute: () => "/compatibility/v1/chat/completions",
	makeBody: chatBody,
	getResponse: chatResponse,
};
