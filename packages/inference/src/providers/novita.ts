import { chatBody, chatResponse, generatedTextBody, generatedTextResponse } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";
import type { ChatCompletionOutput, TextGenerationOutput } from "../types.js";

export const novita: ProviderDefinition = { id: "novita", baseUrl: "https://api.novita.ai" };

export const novitaConversational: TaskHelper<ChatCompletionOutput> = {
	provider: novita,
	task: "conversational",
	makeRoute: () => "/v3/openai/chat/completions",
	makeBody: chatBody,
	getResponse: chatResponse,
};

/** The reference sends the generic {inputs, parameters, model} body here and expects `generated_text` back. */
export const novitaTextGeneration: TaskHelper<TextGenerationOutput> = {
	provider: novita,
	task: "text-generation",
	makeRoute: () => "/v3/openai/chat/completions",
	makeBody: generatedTextBody,
	getResponse: generatedTextResponse,
};
