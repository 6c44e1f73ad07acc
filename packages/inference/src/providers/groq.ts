import { chatBody, chatResponse, generatedTextBody, generatedTextResponse } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";
import type { ChatCompletionOutput, TextGenerationOutput } from "../types.js";

export const groq: ProviderDefinition = { id: "groq", baseUrl: "https://api.groq.com" };

export const groqConversational: TaskHelper<ChatCompletionOutput> = {
	provider: groq,
	task: "conversational",
	makeRoute: () => "/openai/v1/chat/completions",
	makeBody: chatBody,
	getResponse: chatResponse,
};

/** The reference sends the generic {inputs, parameters, model} body here and expects `generated_text` back. */
export const groqTextGeneration: TaskHelper<TextGenerationOutput> = {
	provider: groq,
	task: "text-generation",
	makeRoute: () => "/openai/v1/chat/completions",
	makeBody: generatedTextBody,
	getResponse: generatedTextResponse,
};
