import { chatBody, chatResponse } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";
import type { ChatCompletionOutput } from "../types.js";

export const fireworksAi: ProviderDefinition = { id: "fireworks-ai", baseUrl: "https://api.fireworks.ai" };

export const fireworksAiConversational: TaskHelper<ChatCompletionOutput> = {
	provider: fireworksAi,
	task: "conversational",
	makeRoute: () => "/inference/v1/chat/completions",
	makeBody: chatBody,
	getResponse: chatResponse,
};
