import type { CallContext } from "../internal/context.js";
import type { PreparedRequest } from "../internal/http.js";
import type { AuthMethod, BodyParams, InferenceProvider, InferenceTask, UrlParams } from "../types.js";

/** One provider: where it lives and how it wants its credentials. */
export interface ProviderDefinition {
	id: InferenceProvider;
	/** Base URL for provider-key (direct) calls. */
	baseUrl: string;
	/** Value of the Authorization header. Default: `Bearer {token}`. */
	authHeader?(token: string, authMethod: AuthMethod): string;
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
	request: PreparedRequest;
	outputType?: "url" | "blob";
}

/** One provider × task pair: URL building, body building, response parsing. */
export interface TaskHelper<TOutput = unknown> {
	provider: ProviderDefinition;
	/** Undefined only for the generic hf-inference helper used by `request()` without a task. */
	task: InferenceTask | undefined;
	/** Base URL for direct calls when the task lives elsewhere (fal.ai queue). */
	baseUrl?: string;
	/** Content-Type is application/json even for a binary body (fal.ai speech recognition). */
	forceJsonContentType?: boolean;
	makeRoute(params: UrlParams): string;
	/** Full URL override (hf-inference endpoints, fal.ai queue); default: base joined with the route. */
	makeUrl?(params: UrlParams): string;
	makeBody(params: BodyParams): unknown;
	getResponse(raw: unknown, context: ResponseContext): TOutput | Promise<TOutput>;
}

export type HelperTable = Partial<Record<InferenceProvider, TaskHelper>>;
