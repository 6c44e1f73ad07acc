import { completionsText, openaiChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";
import type { TextGenerationOutput } from "../types.js";
import { isRecord } from "./checks.js";

export const featherlessAi: ProviderDefinition = {
	id: "featherless-ai",
	baseUrl: "https://api.featherless.ai",
};

export const featherlessAiConversational = /* @__PURE__ */ openaiChatHelper(
	featherlessAi,
	"v1/chat/completions",
);

/** Completions: `inputs` and `parameters` stay in the body next to the flattened parameters and `prompt`. */
export const featherlessAiTextGeneration: TaskHelper<TextGenerationOutput> = {
	provider: featherlessAi,
	task: "text-generation",
	makeRoute: () => "v1/completions",
	makeBody: ({ args, model }) => ({
		...args,
		...(isRecord(args.parameters) ? args.parameters : {}),
		model,
		prompt: args.inputs,
	}),
	getResponse: (raw) => completionsText(raw, "Expected Featherless AI text generation response format"),
};
