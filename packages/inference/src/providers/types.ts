import type { CallContext } from "../internal/context.js";
import type { PreparedRequest } from "../internal/http.js";
import type {
	BaseArgs,
	BodyParams,
	InferenceProvider,
	InferenceTask,
	OutputType,
	UrlParams,
} from "../types.js";

/** The call arguments as the pipeline passes them around. */
export type CallArgs = BaseArgs & Record<string, unknown>;

/** One provider: where it lives and how it wants its credentials. */
export interface ProviderDefinition {
	/** "auto" is the router's own server-side provider choice (chat only). */
	id: InferenceProvider | "auto";
	/** Base URL for provider-key (direct) calls. */
	baseUrl: string;
	/** Scheme of the Authorization value with a provider key (fal.ai "Key", Black Forest Labs "X-Key"); hub tokens always use "Bearer". */
	keyScheme?: string;
	/** Providers the router does not serve (openai): always direct, never with an hf_ token. */
	clientSideRoutingOnly?: boolean;
	/** Headers added to every inference request of the provider (replicate: Prefer: wait). */
	extraHeaders?: Readonly<Record<string, string>>;
	/** hf-inference is always served by the router, even for provider keys. */
	alwaysRouted?: boolean;
}

/** What a response parser may need besides the body. */
export interface ResponseContext {
	ctx: CallContext;
	/** The request that was sent (polling starts from its URL and reuses its headers). */
	request: PreparedRequest;
	outputType?: OutputType;
}

/** One provider × task pair: input shaping, URL building, body building, response parsing. */
export interface TaskHelper<TOutput = unknown> {
	provider: ProviderDefinition;
	/** Undefined only for the generic hf-inference helper used by `request()` without a task. */
	task: InferenceTask | undefined;
	/** Base URL for direct calls when the task lives elsewhere (fal.ai queue). */
	baseUrl?: string;
	/** Content-Type is application/json even for a binary body (fal.ai speech recognition). */
	forceJsonContentType?: boolean;
	/** `makeBody` returns a FormData, sent as multipart/form-data (OpenAI-style transcriptions). */
	multipart?: boolean;
	/** The answer is a job to poll (queue, task or prediction API), not the result itself. */
	polls?: boolean;
	/**
	 * The answer is the file itself (image or audio bytes), not JSON: `always`, or only for models of
	 * the transformers library (hf-inference speech; other models answer JSON `[samples, sampling_rate]`,
	 * as 3.12.1's snippets read it). The raw HTTP snippets show how to read it.
	 */
	answersFile?: "always" | "transformers";
	/**
	 * The provider's own input shaping (file → data URL, bytes into a form...), used by the task
	 * functions instead of the task's default shaping. May read Blobs, hence possibly async.
	 */
	prepare?(args: CallArgs, ctx: CallContext): CallArgs | Promise<CallArgs>;
	makeRoute(params: UrlParams): string;
	/** Full URL override (hf-inference endpoints, fal.ai queue); default: base joined with the route. */
	makeUrl?(params: UrlParams): string;
	makeBody(params: BodyParams): unknown;
	getResponse(raw: unknown, context: ResponseContext): TOutput | Promise<TOutput>;
	/** Streaming: a fresh per-stream mapper from each SSE payload to the task's chunk shape. */
	streamChunks?(): (payload: unknown) => unknown;
}

export type HelperTable = Partial<Record<InferenceProvider, TaskHelper>>;
