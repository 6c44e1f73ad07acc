import type { ChatCompletionInputMessage, ModelDataMinimal, ModelInputExample } from "@modelhub/tasks";
import type { InferenceProvider, InferenceProviderMappingEntry, InferenceTask } from "../types.js";
import type { RequestPreview, TokenSource } from "./request-preview.js";

export type InferenceSnippetLanguage = "python" | "js" | "sh";

/** One usage snippet; `content` has no leading or trailing whitespace. */
export interface InferenceSnippet {
	language: InferenceSnippetLanguage;
	/** `huggingface_hub`, `fal_client`, `requests`, `openai`, `fetch`, `huggingface.js` or `curl`. */
	client: string;
	content: string;
}

export interface InferenceSnippetOptions {
	/** Chat models: show the streaming variant of every client. */
	streaming?: boolean;
	/** Account billed for the call (header `X-HF-Bill-To`, or each client's own option for it). */
	billTo?: string;
	/** Chat models: the conversation to send instead of the example one. */
	messages?: ChatCompletionInputMessage[];
	temperature?: number;
	max_tokens?: number;
	top_p?: number;
	/**
	 * Only read when no access token is given. `true`: show a direct call to the provider with the
	 * provider's own key, read from `{PROVIDER}_API_KEY` (e.g. `TOGETHER_API_KEY`). Default: a call
	 * routed through the hub with the hub token from `HF_TOKEN`. hf-inference is always routed.
	 */
	directRequest?: boolean;
	/** Other keys are accepted and ignored, as 3.12.1's options type allows them. */
	[key: string]: unknown;
}

/** The snippet shapes: each pipeline uses one, and each client writes some of them. */
export type TemplateKind =
	| "basic"
	| "basicAudio"
	| "basicImage"
	| "conversational"
	| "conversationalStream"
	| "documentQuestionAnswering"
	| "imageToImage"
	| "imageToVideo"
	| "tabular"
	| "textToAudio"
	| "textToImage"
	| "textToSpeech"
	| "textToVideo"
	| "zeroShotClassification"
	| "zeroShotImageClassification";

/** A local file the snippet reads, and how the client sends it. */
export interface SnippetFile {
	name: string;
	/** MIME type of the file, e.g. `audio/flac`. */
	contentType: string;
	/**
	 * `binary`: the raw request body; `base64` / `data-url`: a string inside the JSON body;
	 * `multipart`: the `file` part of a multipart form.
	 */
	encoding: "binary" | "base64" | "data-url" | "multipart";
}

/**
 * How the raw HTTP answer is read: JSON, the image or audio file itself, or hf-inference's JSON
 * `[samples, sampling_rate]` audio (snippets/kinds.ts `rawAnswerOf`).
 */
export type RawAnswer = "json" | "image-file" | "audio-file" | "audio-array";

/** Everything a template needs; built once per call and never mutated. */
export interface SnippetContext {
	model: ModelDataMinimal;
	pipeline: string;
	kind: TemplateKind;
	task: InferenceTask;
	provider: InferenceProvider;
	/** The model id on the provider's side (mapping.providerId, else the hub id). */
	providerModelId: string;
	mapping?: InferenceProviderMappingEntry;
	/** The task's example, as data. */
	example: ModelInputExample;
	/** Arguments of a high-level client call (huggingface.js style), besides `provider` and `model`. */
	args: Record<string, unknown>;
	file?: SnippetFile;
	/** The request our client sends for these arguments. */
	request: RequestPreview;
	/** Where the snippet's credentials come from. */
	token: TokenSource;
	billTo?: string;
	streaming: boolean;
	/** The provider answers with a job to poll (queue, task, prediction), not the result. */
	polls: boolean;
	/** How the raw HTTP answer is read (the raw HTTP clients' templates). */
	answer: RawAnswer;
}

/** One client's template for one kind; returns "" when it has nothing to show for this context. */
export type Template = (ctx: SnippetContext) => string;

export type ClientTemplates = Partial<Record<TemplateKind, Template>>;

/** One client of one language: its templates, and the opening (imports, client set-up) they share. */
export interface SnippetClient {
	language: InferenceSnippetLanguage;
	client: string;
	templates: ClientTemplates;
	/** Written before the template's text, after a blank line; may look at that text (e.g. for imports). */
	setup?: (ctx: SnippetContext, body: string) => string;
	/** Whether the client can make this call at all (default: whenever it has a template for the kind). */
	offers?: (ctx: SnippetContext) => boolean;
}
