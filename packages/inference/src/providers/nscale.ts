import type { ChatCompletionOutput } from "../types.js";
import { b64ImageResponse, chatBody, chatResponse, flatPromptBody } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

export const nscale: ProviderDefinition = { id: "nscale", baseUrl: "https://inference.api.nscale.com" };

export const nscaleTextToImage: TaskHelper<Blob | string> = {
	provider: nscale,
	task: "text-to-image",
	makeRoute: () => "v1/images/generations",
	makeBody: (params) => {
		const { prompt, ...flat } = flatPromptBody(params);
		return { ...flat, response_format: "b64_json", prompt, model: params.model };
	},
	getResponse: (raw, context) =>
		b64ImageResponse(raw, context, "Expected Nscale text-to-image response format"),
};

export const nscaleConversational: TaskHelper<ChatCompletionOutput> = {
	provider: nscale,
	task: "conversational",
	makeRoute: () => "v1/chat/completions",
	makeBody: chatBody,
	getResponse: chatResponse,
};
