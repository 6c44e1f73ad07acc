export { InferenceClient, HfInference, InferenceClientEndpoint } from "./InferenceClient.js";
export type { InferenceClientOptions } from "./InferenceClient.js";
export * from "./tasks/index.js";
export {
	InferenceError,
	InferenceInputError,
	InferenceHubError,
	InferenceHubRateLimitError,
	InferenceProviderApiError,
	InferenceTimeoutError,
	InferenceConnectionError,
	InferenceFallbackError,
	InferenceOutputError,
} from "./core/errors.js";
export type { FallbackAttempt, RedactedRequest } from "./core/errors.js";
export { withProviderFallback } from "./lib/fallback.js";
export type { FallbackArgs, FallbackOptions, ProviderChoice, WithFallback } from "./lib/fallback.js";
export { SseParser, iterateSseEvents } from "./core/sse.js";
export type { SseEvent, SseParserOptions } from "./core/sse.js";
// The providers and the task registry, as the `@modelhub/inference/catalog` sub-path lists them.
export * from "./catalog.js";
export { clearProviderMappingCache } from "./lib/provider-mapping.js";
export { COMPATIBLE_API_VERSION, PACKAGE_NAME, PACKAGE_VERSION } from "./version.js";
export type * from "./types.js";
export type * from "./task-io.js";
import { getInferenceSnippets } from "./snippets/index.js";
export type { InferenceSnippet, InferenceSnippetOptions } from "./snippets/index.js";

/**
 * Usage snippets per task, provider and client; also at the `@modelhub/inference/snippets` sub-path.
 * A plain object literal (not `export * as`), so bundlers drop it, and everything it reaches, when unused.
 */
export const snippets = { getInferenceSnippets } as const;
