import type { TextGenerationOutput } from "../types.js";
import { b64ImageResponse, completionsText, flatPromptBody, openaiChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

export const together: ProviderDefinition = { id: "together", baseUrl: "https://api.together.xyz" };

/** outputType "url" returns a data URL here (3.12.1 ignores it and always returns a Blob). */
export const togetherTextToImage: TaskHelper<Blob | string> = {
	provider: together,
	task: "text-to-image",
	makeRoute: () => "v1/images/generations",
	makeBody: (params) => ({ ...flatPromptBody(params), response_format: "base64", model: params.model }),
	getResponse: (raw, context) =>
		b64ImageResponse(raw, context, "Expected Together text-to-image response format"),
};

export const togetherConversational = /* @__PURE__ */ openaiChatHelper(together, "v1/chat/completions");

/** Completions: `inputs` and `parameters` are kept in the body (not flattened) next to `prompt`. */
export const togetherTextGeneration: TaskHelper<TextGenerationOutput> = {
	provider: together,
	task: "text-generation",
	makeRoute: () => "v1/completions",
	makeBody: ({ args, model }) => ({ model, ...args, prompt: args.inputs }),
	getResponse: (raw) => completionsText(raw, "Expected Together text generation response format"),
};
