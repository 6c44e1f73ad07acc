import type { PipelineType } from "@modelhub/tasks";
import type { PROVIDER_TASKS } from "./providers/catalog.js";

/** A hub model id such as "meta-llama/Llama-3.1-8B-Instruct". */
export type ModelId = string;

/**
 * Every pipeline type except "other", plus "conversational" (chat) and the two image+text generation
 * tasks of today's clients (huggingface.js 4.13.28), which the task catalogue has no pipeline for.
 */
export type InferenceTask =
	Exclude<PipelineType, "other"> | "conversational" | "image-text-to-image" | "image-text-to-video";

/** One of the provider ids of `PROVIDER_TASKS` (src/providers/catalog.ts). */
export type InferenceProvider = keyof typeof PROVIDER_TASKS;
export type InferenceProviderOrPolicy = InferenceProvider | "auto";

export type AuthMethod = "none" | "hf-token" | "credentials-include" | "provider-key";

export interface Options {
	/** Re-send on HTTP 503 (with backoff, see README). Default true. */
	retry_on_error?: boolean;
	/** Most 503 retries of one request (default 10; `Infinity`: no limit, as 3.12.1; 0: none). */
	maxRetries?: number;
	/** Custom fetch, used for every network call this client makes. */
	fetch?: typeof fetch;
	/** Aborts the call, including retries, polling and downloads. */
	signal?: AbortSignal;
	/** `true` → credentials "include"; a string is passed to RequestInit.credentials as given. */
	includeCredentials?: string | boolean;
	/** Account billed for the request (header X-HF-Bill-To). */
	billTo?: string;
	/**
	 * Overall deadline in milliseconds for the whole call (retries, polling, streaming included).
	 * 0 or Infinity: none; above 2^31 − 1 it is clamped there (~24.8 days).
	 */
	timeout?: number;
	/** Deadline in milliseconds of each polling loop (queued jobs). Default 15 minutes; 0 or Infinity: none. */
	pollTimeout?: number;
	/** Streaming: largest server-sent event (or line) accepted, in characters. Default 4 Mi (4,194,304). */
	maxEventSize?: number;
	/** Hub base URL (default https://huggingface.co, or env MODELHUB_HUB_URL). */
	hubUrl?: string;
	/** Router base URL (default https://router.huggingface.co, or env MODELHUB_ROUTER_URL). */
	routerUrl?: string;
}

export interface BaseArgs {
	/** A hub token (hf_...) routed through the hub router, or a provider key used directly. */
	accessToken?: string;
	model?: ModelId;
	endpointUrl?: string;
	/** Default: the "auto" policy. */
	provider?: InferenceProviderOrPolicy;
}

export type RequestArgs = BaseArgs &
	(
		| { data: Blob | ArrayBuffer }
		| { inputs: unknown }
		| { prompt: string }
		| { text: string }
		| { audio_url: string }
		| ChatCompletionInput
	) & {
		parameters?: Record<string, unknown>;
	};

/**
 * One entry of a model's `inferenceProviderMapping` on the hub, plus the hub model id. The hub sends
 * the mapping either as an object keyed by provider id or as a list of entries that name their
 * `provider`; both are normalised to this shape.
 */
export interface InferenceProviderMappingEntry {
	/** The provider id; absent in entries written before the hub sent lists (3.12.1's shape). */
	provider?: string;
	hfModelId: ModelId;
	providerId: string;
	status: "live" | "staging" | "error";
	task: InferenceTask;
	adapter?: string;
	adapterWeightsPath?: string;
	type?: "single-model" | "tag-filter";
}

/** The hub's `inferenceProviderMapping` field as it arrives: an object keyed by provider, or a list. */
export type HubInferenceProviderMapping =
	| Record<string, Omit<InferenceProviderMappingEntry, "hfModelId" | "provider"> & { hfModelId?: ModelId }>
	| Array<Omit<InferenceProviderMappingEntry, "hfModelId"> & { provider: string; hfModelId?: ModelId }>;

/** `textToImage`'s result form: a Blob (default) or the image's URL (or a data: URL when the provider sends bytes). */
export type OutputType = "url" | "blob";

export interface HeaderParams {
	accessToken?: string;
	authMethod: AuthMethod;
}

export interface UrlParams {
	authMethod: AuthMethod;
	/** The provider-side model id (or the endpoint URL for endpoint calls). */
	model: string;
	task?: InferenceTask;
	/** Base URL already chosen for the auth method. */
	baseUrl: string;
	/** The request URL of the router (used by providers that rewrite routed URLs). */
	routerUrl: string;
	/** The call arguments the body is built from (fal.ai picks its text-only endpoint from them). */
	args?: Record<string, unknown>;
}

export interface BodyParams<T extends Record<string, unknown> = Record<string, unknown>> {
	/** The call arguments minus accessToken, endpointUrl, provider and model. */
	args: T;
	model: string;
	mapping?: InferenceProviderMappingEntry;
	task?: InferenceTask;
	outputType?: OutputType;
}

export type LegacyAudioInput = { data: Blob | ArrayBuffer };
export type LegacyImageInput = { data: Blob | ArrayBuffer };

// ---- Chat completion (OpenAI-compatible) ----

export interface ChatCompletionInputMessageChunk {
	type: "text" | "image_url";
	text?: string;
	image_url?: { url: string };
}

export interface ChatCompletionInputToolCall {
	id: string;
	type: string;
	function: { name: string; arguments: unknown; description?: string };
}

export interface ChatCompletionInputMessage {
	role: string;
	content?: string | ChatCompletionInputMessageChunk[];
	name?: string;
	tool_calls?: ChatCompletionInputToolCall[];
	tool_call_id?: string;
}

export interface ChatCompletionInputTool {
	type: string;
	function: { name: string; description?: string; parameters?: unknown; arguments?: unknown };
}

export interface ChatCompletionInput {
	messages: ChatCompletionInputMessage[];
	frequency_penalty?: number;
	logit_bias?: number[] | Record<string, number>;
	logprobs?: boolean;
	max_tokens?: number;
	model?: string;
	n?: number;
	presence_penalty?: number;
	response_format?: { type: "json" | "regex" | "json_schema"; value?: unknown; [key: string]: unknown };
	seed?: number;
	stop?: string[];
	stream?: boolean;
	stream_options?: { include_usage?: boolean };
	temperature?: number;
	tool_choice?: "auto" | "none" | "required" | { function: { name: string } };
	tool_prompt?: string;
	tools?: ChatCompletionInputTool[];
	top_logprobs?: number;
	top_p?: number;
	[key: string]: unknown;
}

export interface ChatCompletionOutputToolCall {
	id: string;
	type: string;
	function: { name: string; arguments: unknown; description?: string };
}

export interface ChatCompletionOutputMessage {
	role: string;
	content?: string;
	tool_calls?: ChatCompletionOutputToolCall[];
	tool_call_id?: string;
}

export interface ChatCompletionOutputLogprobs {
	content: Array<{ logprob: number; token: string; top_logprobs: Array<{ logprob: number; token: string }> }>;
}

export interface ChatCompletionOutput {
	id: string;
	created: number;
	model: string;
	system_fingerprint: string;
	choices: Array<{
		index: number;
		message: ChatCompletionOutputMessage;
		finish_reason: string;
		logprobs?: ChatCompletionOutputLogprobs;
	}>;
	usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
	[key: string]: unknown;
}

export interface ChatCompletionStreamOutput {
	id: string;
	created: number;
	model: string;
	system_fingerprint: string;
	choices: Array<{
		index: number;
		delta: {
			role: string;
			content?: string;
			tool_calls?: Array<{
				index: number;
				id: string;
				type: string;
				function: { name?: string; arguments: string };
			}>;
		};
		finish_reason?: string;
		logprobs?: ChatCompletionOutputLogprobs;
	}>;
	usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
	[key: string]: unknown;
}

// ---- Text generation (TGI) ----

export interface TextGenerationInputParameters {
	adapter_id?: string;
	best_of?: number;
	decoder_input_details?: boolean;
	details?: boolean;
	do_sample?: boolean;
	frequency_penalty?: number;
	grammar?: { type: "json" | "regex" | "json_schema"; value: unknown };
	max_new_tokens?: number;
	repetition_penalty?: number;
	return_full_text?: boolean;
	seed?: number;
	stop?: string[];
	temperature?: number;
	top_k?: number;
	top_n_tokens?: number;
	top_p?: number;
	truncate?: number;
	typical_p?: number;
	watermark?: boolean;
	[key: string]: unknown;
}

export interface TextGenerationInput {
	inputs: string;
	parameters?: TextGenerationInputParameters;
	stream?: boolean;
	[key: string]: unknown;
}

export type TextGenerationStreamFinishReason = "length" | "eos_token" | "stop_sequence";

export interface TextGenerationStreamToken {
	id: number;
	text: string;
	logprob: number;
	special: boolean;
}

export interface TextGenerationStreamPrefillToken {
	id: number;
	text: string;
	logprob?: number;
}

export interface TextGenerationStreamBestOfSequence {
	generated_text: string;
	finish_reason: TextGenerationStreamFinishReason;
	generated_tokens: number;
	seed?: number;
	prefill: TextGenerationStreamPrefillToken[];
	tokens: TextGenerationStreamToken[];
}

export interface TextGenerationStreamDetails {
	finish_reason: TextGenerationStreamFinishReason;
	generated_tokens: number;
	seed?: number;
	prefill: TextGenerationStreamPrefillToken[];
	tokens: TextGenerationStreamToken[];
	best_of_sequences?: TextGenerationStreamBestOfSequence[];
}

export interface TextGenerationStreamOutput {
	index?: number;
	token: TextGenerationStreamToken;
	generated_text: string | null;
	details: TextGenerationStreamDetails | null;
}

export interface TextGenerationOutput {
	generated_text: string;
	details?: {
		finish_reason: string;
		generated_tokens: number;
		seed?: number;
		prefill: TextGenerationStreamPrefillToken[];
		tokens: TextGenerationStreamToken[];
		best_of_sequences?: TextGenerationStreamBestOfSequence[];
		[key: string]: unknown;
	};
	[key: string]: unknown;
}
