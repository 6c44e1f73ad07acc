import { InferenceInputError, InferenceOutputError } from "../core/errors.js";
import { base64ToJpegBlob } from "../internal/base64.js";
import type { AutomaticSpeechRecognitionOutput } from "../task-io.js";
import type { BodyParams, ChatCompletionOutput, TextGenerationOutput, UrlParams } from "../types.js";
import { isRecord, isString } from "./checks.js";
import { asBlob, isFileInput, multipartForm } from "./media.js";
import type { ProviderDefinition, ResponseContext, TaskHelper } from "./types.js";

/**
 * Chat body: `model` first, then the call arguments. Today's clients serialise `model` first so that
 * the router can pick the provider from a small prefix of a body whose messages may hold megabytes of
 * images (huggingface.js 4.13.28 `BaseConversationalTask`); the caller's own `model` never wins.
 */
export function chatBody(params: BodyParams): Record<string, unknown> {
	return { model: params.model, ...params.args };
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
 * A provider's OpenAI-style chat helper: `route`, the chat body (optionally adjusted) and the shared
 * shape check. Helper factories are called with a `@__PURE__` annotation, so that a bundle drops the
 * helpers it does not use (as it drops unused object literals).
 */
export function chatHelper(
	provider: ProviderDefinition,
	route: string,
	adjustBody?: (body: Record<string, unknown>) => Record<string, unknown>,
): TaskHelper<ChatCompletionOutput> {
	return {
		provider,
		task: "conversational",
		makeRoute: () => route,
		makeBody: adjustBody ? (params) => adjustBody(chatBody(params)) : chatBody,
		getResponse: chatResponse,
	};
}

// ---- Text generation on OpenAI-style routes ----

/** TGI parameter names that OpenAI-style routes spell differently. */
const RENAMED_PARAMETERS: Readonly<Record<string, string>> = { max_new_tokens: "max_tokens" };

/**
 * TGI-only parameters with no counterpart on an OpenAI-style completions or chat route: not sent,
 * since strict servers refuse unknown fields.
 */
const TGI_ONLY_PARAMETERS: ReadonlySet<string> = /* @__PURE__ */ new Set([
	"adapter_id",
	"best_of",
	"decoder_input_details",
	"details",
	"do_sample",
	"grammar",
	"return_full_text",
	"top_n_tokens",
	"truncate",
	"typical_p",
	"watermark",
]);

/**
 * TGI `parameters` as an OpenAI-style route takes them, flat: `max_new_tokens` → `max_tokens` (an
 * explicit `max_tokens` wins: never both names), TGI-only names dropped, the rest as given.
 */
function openaiParameters(parameters: unknown): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	if (!isRecord(parameters)) return out;
	for (const [key, value] of Object.entries(parameters)) {
		if (value === undefined || TGI_ONLY_PARAMETERS.has(key)) continue;
		const renamed = Object.prototype.hasOwnProperty.call(RENAMED_PARAMETERS, key)
			? (RENAMED_PARAMETERS[key] as string)
			: undefined;
		if (renamed === undefined) out[key] = value;
		else if (parameters[renamed] === undefined) out[renamed] = value;
	}
	return out;
}

/** A completions route's body: `model`, `prompt` = inputs, the mapped parameters, the other arguments. */
function completionsBody({ args, model }: BodyParams): Record<string, unknown> {
	const { inputs, parameters, ...rest } = args;
	return { model, prompt: inputs, ...openaiParameters(parameters), ...rest };
}

/** A chat route used for text generation: the prompt becomes one user message. */
function promptChatBody({ args, model }: BodyParams): Record<string, unknown> {
	const { inputs, parameters, ...rest } = args;
	return { model, messages: [{ role: "user", content: inputs }], ...openaiParameters(parameters), ...rest };
}

type Choice = { text?: unknown; message?: { content?: unknown }; finish_reason?: unknown; seed?: unknown };

/**
 * The generated text of an OpenAI-style answer: `choices[0].text` (completions) or
 * `choices[0].message.content` (chat); a TGI-style `generated_text` answer (what 3.12.1 expected
 * from these routes) is accepted too.
 */
function generatedText(raw: unknown, errorMessage: string, withDetails = false): TextGenerationOutput {
	const first = Array.isArray(raw) ? (raw[0] as unknown) : raw;
	if (isRecord(first) && isString(first.generated_text)) return first as TextGenerationOutput;
	const choice =
		isRecord(raw) && Array.isArray(raw.choices) ? (raw.choices[0] as Choice | undefined) : undefined;
	const text = isString(choice?.text) ? choice.text : choice?.message?.content;
	if (isString(text)) {
		if (!withDetails) return { generated_text: text };
		// Together reports the finish reason and seed of the completion (huggingface.js 4.13.28 passes them on).
		const details = { finish_reason: choice?.finish_reason, seed: choice?.seed };
		return { generated_text: text, details: details as TextGenerationOutput["details"] };
	}
	throw new InferenceOutputError(errorMessage);
}

/**
 * Streamed chunks of an OpenAI-style route in textGenerationStream's shape: each delta becomes a
 * `token`, and the chunk that carries a finish reason also carries the whole `generated_text`.
 * Payloads of another shape pass through unchanged.
 */
function tgiStreamChunks(): (payload: unknown) => unknown {
	let text = "";
	return (payload) => {
		const choice =
			isRecord(payload) && Array.isArray(payload.choices) ? (payload.choices[0] as unknown) : undefined;
		if (!isRecord(choice)) return payload;
		const delta = isRecord(choice.delta) ? choice.delta.content : undefined;
		const piece = isString(choice.text) ? choice.text : isString(delta) ? delta : "";
		text += piece;
		const finished = choice.finish_reason !== undefined && choice.finish_reason !== null;
		return {
			index: typeof choice.index === "number" ? choice.index : 0,
			token: { id: 0, text: piece, logprob: 0, special: false },
			generated_text: finished ? text : null,
			details: null,
		};
	};
}

/** Text generation on a completions route (`prompt`). */
export function completionsHelper(
	provider: ProviderDefinition,
	route: string,
	errorMessage: string,
	withDetails = false,
): TaskHelper<TextGenerationOutput> {
	return {
		provider,
		task: "text-generation",
		makeRoute: () => route,
		makeBody: completionsBody,
		getResponse: (raw) => generatedText(raw, errorMessage, withDetails),
		streamChunks: tgiStreamChunks,
	};
}

/** Text generation on a chat route (the prompt as one user message). */
export function promptChatHelper(
	provider: ProviderDefinition,
	route: string,
	errorMessage: string,
): TaskHelper<TextGenerationOutput> {
	return {
		provider,
		task: "text-generation",
		makeRoute: () => route,
		makeBody: promptChatBody,
		getResponse: (raw) => generatedText(raw, errorMessage),
		streamChunks: tgiStreamChunks,
	};
}

/** OpenAI-style transcription answers: `text`, and `segments` as timestamped chunks. */
function transcription(raw: unknown, errorMessage: string): AutomaticSpeechRecognitionOutput {
	if (!isRecord(raw) || !isString(raw.text)) throw new InferenceOutputError(errorMessage);
	const output: AutomaticSpeechRecognitionOutput = { text: raw.text };
	if (Array.isArray(raw.segments)) {
		output.chunks = raw.segments.filter(isRecord).map((segment) => ({
			text: String(segment.text),
			timestamp: [Number(segment.start), Number(segment.end)],
		}));
	}
	return output;
}

/**
 * OpenAI-style transcription (`/audio/transcriptions`): a multipart upload of the audio file (named
 * `audio.{ext}` from its type), the other arguments and parameters as fields, `model` last; with
 * `acceptsUrl`, an http(s) URL string is sent as the `file` field instead (Together accepts it).
 */
export function transcriptionHelper(
	provider: ProviderDefinition,
	route: string,
	name: string,
	acceptsUrl = false,
): TaskHelper<AutomaticSpeechRecognitionOutput> {
	return {
		provider,
		task: "automatic-speech-recognition",
		multipart: true,
		prepare: (args) => {
			const { data, inputs, ...rest } = args;
			const audio = "data" in args ? data : inputs;
			if (acceptsUrl && typeof audio === "string" && /^https?:\/\//.test(audio))
				return { ...rest, file: audio };
			if (!isFileInput(audio)) {
				const accepted = acceptsUrl ? "a Blob, ArrayBuffer, or http(s) URL string" : "a Blob or ArrayBuffer";
				throw new InferenceInputError(
					`${name} automatic-speech-recognition expects ${accepted} audio input.`,
				);
			}
			return { ...rest, file: asBlob(audio) };
		},
		makeRoute: () => route,
		makeBody: ({ args, model }) => {
			// `file` is set by `prepare`; request() callers may pass the 3.12.1-style `data` instead.
			const { file, data, parameters, ...rest } = args;
			return multipartForm(file ?? data, { ...rest, ...(isRecord(parameters) ? parameters : {}), model });
		},
		getResponse: (raw) => transcription(raw, `Expected ${name} automatic-speech-recognition response format`),
	};
}

// ---- Embeddings, speech, images ----

/** OpenAI-style embeddings: `input` = inputs, the other (flat) arguments, `model` last so it cannot be overridden. */
export function embeddingsHelper(
	provider: ProviderDefinition,
	route: string,
	errorMessage: string,
): TaskHelper<number[][]> {
	return {
		provider,
		task: "feature-extraction",
		makeRoute: () => route,
		makeBody: ({ args, model }) => {
			const { inputs, parameters, ...rest } = args;
			return { ...rest, ...(isRecord(parameters) ? parameters : {}), input: inputs, model };
		},
		getResponse: (raw) => {
			if (
				isRecord(raw) &&
				Array.isArray(raw.data) &&
				raw.data.every((item) => isRecord(item) && Array.isArray(item.embedding))
			) {
				return raw.data.map((item) => (item as { embedding: number[] }).embedding);
			}
			throw new InferenceOutputError(errorMessage);
		},
	};
}

/** OpenAI-style speech (`/audio/speech`): `input` = the text; the audio file comes back as the body. */
export function speechHelper(
	provider: ProviderDefinition,
	route: string,
	adjustBody?: (body: Record<string, unknown>, params: BodyParams) => Record<string, unknown>,
): TaskHelper<Blob> {
	return {
		provider,
		task: "text-to-speech",
		answersFile: "always",
		makeRoute: () => route,
		makeBody: (params) => {
			const { inputs, parameters, ...rest } = params.args;
			const body = {
				...rest,
				...(isRecord(parameters) ? parameters : {}),
				input: inputs,
				model: params.model,
			};
			return adjustBody ? adjustBody(body, params) : body;
		},
		getResponse: (raw) => {
			if (raw instanceof Blob) return raw;
			throw new InferenceOutputError(`Expected an audio file, got: ${JSON.stringify(raw)}`);
		},
	};
}

/** The prompt/parameters flattening used by image and media providers. */
export function flatPromptBody(params: BodyParams, promptKey = "prompt"): Record<string, unknown> {
	const { inputs, parameters, ...rest } = params.args;
	return { ...rest, ...(isRecord(parameters) ? parameters : {}), [promptKey]: inputs };
}

/** OpenAI-style image answers `{data: [{b64_json}]}`: a JPEG Blob, or its data URL for outputType "url". */
export function b64ImageResponse(
	raw: unknown,
	context: Pick<ResponseContext, "outputType">,
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

/** `/{providerId}`-style routes (fal.ai, wavespeed's `/api/v3/{providerId}` builds on it). */
export const modelRoute = ({ model }: UrlParams): string => `/${model}`;
