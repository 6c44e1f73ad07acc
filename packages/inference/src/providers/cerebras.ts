import { chatBody, chatResponse } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";
import type { ChatCompletionOutput } from "../types.js";

export const cerebras: ProviderDefinition = { id: "cerebras", baseUrl: "https://api.cerebras.ai" };

export const cerebrasConversational: TaskHelper<ChatCompletionOutput> = {
	provider: cerebras,
	task: "conversational",
	makeRoute: () => "v1/chat/completions",
	makeBody: chatBody,
	getResponse: chatResponse,
};
