import { InferenceOutputError } from "../core/errors.js";
import { base64ToJpegBlob } from "../internal/base64.js";
import type { BodyParams, ChatCompletionOutput, TextGenerationOutput } from "../types.js";
import { isRecord, isString } from "./checks.js";
import type { ProviderDefinition, ResponseContext, TaskHelper } from "./types.js";

/** Chat body: the call arguments with `model` set to the provider's id. */
export function chatBody(params: BodyParams): Record<string, unknown> {
	return { ...params.args, model: params.model };
}

/** Shape check shared by every non-hf-inference chat provider. */
export function chatResponse(raw: unknown): ChatCompletionOutput {
	if (
		isRecord(raw) &&
		Array.isArray(raw.choices) &&
		typeof raw.created === "number" &&
		typeof raw.id === "string" &&
		typeof raw.model === "string" &&
		// Together and Nebius omit system_fingerprint.
		(raw.system_fingerprint === undefined ||
			raw.system_fingerprint === null ||
			typeof raw.system_fingerprint === "string") &&
		typeof raw.usage === "object"
	) {
		return raw as ChatCompletionOutput;
	}
	throw new InferenceOutputError("Expected ChatCompletionOutput");
}

/**
 * A provider's OpenAI-style chat helper: `route`, the chat body and the shared shape check.
 * The helper factories here are called with a `@__PURE__` annotation, so that a bundle drops the helpers
 * it does not use (as it drops unused object literals).
 */
export function openaiChatHelper(
	provider: ProviderDefinition,
	route: string,
): TaskHelper<ChatCompletionOutput> {
	return {
		provider,
		task: "conversational",
		makeRoute: () => route,
		makeBody: chatBody,
		getResponse: chatResponse,
	};
}

/** Text generation as groq, nebius and novita do it: `generated_text` expected back. */
export function generatedTextResponse(raw: unknown): TextGenerationOutput {
	const list = Array.isArray(raw) ? raw : [raw];
	if (list.length > 0 && list.every((item) => isRecord(item) && isString(item.generated_text))) {
		return list[0] as TextGenerationOutput;
	}
	throw new InferenceOutputError("Expected Array<{generated_text: string}>");
}

/** Text generation with the generic body (the same as the chat body) and `generated_text` expected back. */
export function generatedTextHelper(
	provider: ProviderDefinition,
	route: string,
): TaskHelper<TextGenerationOutput> {
	return {
		provider,
		task: "text-generation",
		makeRoute: () => route,
		makeBody: chatBody,
		getResponse: generatedTextResponse,
	};
}

/** Completions answers (`choices[0].text`), checked the way 3.12.1 checks them. */
export function completionsText(raw: unknown, errorMessage: string): TextGenerationOutput {
	if (isRecord(raw) && "choices" in raw && Array.isArray(raw.choices) && isString(raw.model)) {
		const first = raw.choices[0] as { text?: string } | undefined;
		return { generated_text: first?.text as string };
	}
	throw new InferenceOutputError(errorMessage);
}

/** The prompt/parameters flattening used by image and completion providers. */
export function flatPromptBody(params: BodyParams, promptKey = "prompt"): Record<string, unknown> {
	const { inputs, parameters, ...rest } = params.args;
	return { ...rest, ...(isRecord(parameters) ? parameters : {}), [promptKey]: inputs };
}

/** OpenAI-style image answers `{data: [{b64_json}]}`: a JPEG Blob, or its data URL for outputType "url". */
export function b64ImageResponse(
	raw: unknown,
	context: ResponseContext,
	errorMessage: string,
): Blob | string {
	const first = isRecord(raw) && Array.isArray(raw.data) ? (raw.data[0] as unknown) : undefined;
	if (isRecord(first) && isString(first.b64_json)) {
		if (context.outputType === "url") return `data:image/jpeg;base64,${first.b64_json}`;
		return base64ToJpegBlob(first.b64_json);
	}
	throw new InferenceOutputError(errorMessage);
}

/**
 * OpenAI-style image generation (nebius, nscale): the flattened prompt body with `response_format: "b64_json"`,
 * a `b64_json` answer back.
 */
export function b64JsonImageHelper(
	provider: ProviderDefinition,
	errorMessage: string,
): TaskHelper<Blob | string> {
	return {
		provider,
		task: "text-to-image",
		makeRoute: () => "v1/images/generations",
		makeBody: (params) => {
			const { prompt, ...flat } = flatPromptBody(params);
			return { ...flat, response_format: "b64_json", prompt, model: params.model };
		},
		getResponse: (raw, context) => b64ImageResponse(raw, context, errorMessage),
	};
}
