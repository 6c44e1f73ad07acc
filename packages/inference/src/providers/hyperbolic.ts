import { InferenceOutputError } from "../core/errors.js";
import { base64ToJpegBlob } from "../internal/base64.js";
import type { TextGenerationOutput } from "../types.js";
import { isRecord, isString } from "./checks.js";
import { openaiChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

export const hyperbolic: ProviderDefinition = { id: "hyperbolic", baseUrl: "https://api.hyperbolic.xyz" };

export const hyperbolicTextToImage: TaskHelper<Blob | string> = {
	provider: hyperbolic,
	task: "text-to-image",
	makeRoute: () => "/v1/images/generations",
	makeBody: ({ args, model }) => {
		const { inputs, parameters, ...rest } = args;
		return { ...rest, ...(isRecord(parameters) ? parameters : {}), prompt: inputs, model_name: model };
	},
	getResponse: (raw, { outputType }) => {
		const first = isRecord(raw) && Array.isArray(raw.images) ? (raw.images[0] as unknown) : undefined;
		if (isRecord(first) && isString(first.image)) {
			return outputType === "url" ? `data:image/jpeg;base64,${first.image}` : base64ToJpegBlob(first.image);
		}
		throw new InferenceOutputError("Expected Hyperbolic text-to-image response format");
	},
};

export const hyperbolicConversational = /* @__PURE__ */ openaiChatHelper(hyperbolic, "v1/chat/completions");

/** Text generation through the chat route: the prompt becomes one user message. */
export const hyperbolicTextGeneration: TaskHelper<TextGenerationOutput> = {
	provider: hyperbolic,
	task: "text-generation",
	makeRoute: () => "v1/chat/completions",
	makeBody: ({ args, model }) => {
		const { inputs, parameters, ...rest } = args;
		let flat: Record<string, unknown> = {};
		if (isRecord(parameters)) {
			const { max_new_tokens, ...others } = parameters;
			flat = { max_tokens: max_new_tokens, ...others };
		}
		return { messages: [{ content: inputs, role: "user" }], ...flat, ...rest, model };
	},
	getResponse: (raw) => {
		if (isRecord(raw) && "choices" in raw && Array.isArray(raw.choices) && isString(raw.model)) {
			const first = raw.choices[0] as { message?: { content?: string } } | undefined;
			return { generated_text: first?.message?.content as string };
		}
		throw new InferenceOutputError("Expected Hyperbolic text generation response format");
	},
};
