import type { TextGenerationOutput } from "../types.js";
import { isRecord } from "./checks.js";
import { completionsText, openaiChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

export const ovhcloud: ProviderDefinition = {
	id: "ovhcloud",
	baseUrl: "https://oai.endpoints.kepler.ai.cloud.ovh.net",
};

export const ovhcloudConversational = /* @__PURE__ */ openaiChatHelper(ovhcloud, "v1/chat/completions");

/** Completions: `max_new_tokens` is also sent as `max_tokens`, the prompt as `prompt`. */
export const ovhcloudTextGeneration: TaskHelper<TextGenerationOutput> = {
	provider: ovhcloud,
	task: "text-generation",
	makeRoute: () => "v1/completions",
	makeBody: ({ args, model }) => {
		const { inputs, parameters, ...rest } = args;
		const flat = isRecord(parameters) ? { max_tokens: parameters.max_new_tokens, ...parameters } : {};
		return { model, ...rest, ...flat, prompt: inputs };
	},
	getResponse: (raw) => completionsText(raw, "Expected OVHcloud text generation response format"),
};
