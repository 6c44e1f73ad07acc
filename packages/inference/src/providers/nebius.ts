import type { ChatCompletionOutput, TextGenerationOutput } from "../types.js";
import {
	b64ImageResponse,
	chatBody,
	chatResponse,
	flatPromptBody,
	generatedTextBody,
	generatedTextResponse,
} from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

export const nebius: ProviderDefinition = { id: "nebius", baseUrl: "https://api.studio.nebius.ai" };

export const nebiusTextToImage: TaskHelper<Blob | string> = {
	provider: nebius,
	task: "text-to-image",
	makeRoute: () => "v1/images/generations",
	makeBody: (params) => {
		const { prompt, ...flat } = flatPromptBody(params);
		return { ...flat, response_format: "b64_json", prompt, model: params.model };
	},
	getResponse: (raw, context) =>
		b64ImageResponse(raw, context, "Expected Nebius text-to-image response format"),
};

export const nebiusConversational: TaskHelper<ChatCompletionOutput> = {
	provider: nebius,
	task: "conversational",
	makeRoute: () => "v1/chat/completions",
	makeBody: chatBody,
	getResponse: chatResponse,
};

/** Completions route with the generic body; `generated_text` expected back (as in the reference). */
export const nebiusTextGeneration: TaskHelper<TextGenerationOutput> = {
	provider: nebius,
	task: "text-generation",
	makeRoute: () => "v1/completions",
	makeBody: generatedTextBody,
	getResponse: generatedTextResponse,
};
