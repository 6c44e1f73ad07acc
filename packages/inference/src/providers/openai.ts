import { chatBody, chatResponse } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";
import type { ChatCompletionOutput } from "../types.js";

/** Not served by the router: always called directly with an OpenAI key; models are "openai/{id}". */
export const openai: ProviderDefinition = {
	id: "openai",
	baseUrl: "https://api.openai.com",
	clientSideRoutingOnly: true,
};

export const openaiConversational: TaskHelper<ChatCompletionOutput> = {
	provider: openai,
	task: "conversational",
	makeRoute: () => "v1/chat/completions",
	makeBody: chatBody,
	getResponse: chatResponse,
};
