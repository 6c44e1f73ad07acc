/**
 * Error ladder. Every error this package throws carries the same `Symbol.for` marker, so
 * `InferenceError.isInstance(e)` also recognises errors from a duplicate copy of the package.
 * Messages are the exact texts of @huggingface/inference 3.12.1.
 */
const MARKER = Symbol.for("modelhub.inference.error");

function hasMarker(value: unknown): boolean {
	return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

/** What `JSON.stringify(error)` shows: name, message and the error's own fields (never its cause). */
function errorJson(error: Error): Record<string, unknown> {
	return { ...error, name: error.name, message: error.message };
}

export class InferenceError extends Error {
	readonly [MARKER] = true;

	constructor(message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = "InferenceError";
	}

	static isInstance(value: unknown): value is InferenceError | InferenceOutputError {
		return hasMarker(value);
	}

	toJSON(): Record<string, unknown> {
		return errorJson(this);
	}
}

/** The arguments or options of a call are invalid; nothing was sent to a provider. */
export class InferenceInputError extends InferenceError {
	constructor(message: string) {
		super(message);
		this.name = "InferenceInputError";
	}
}

/** The hub (model mapping, task defaults) could not answer what we needed. */
export class InferenceHubError extends InferenceError {
	readonly status?: number;

	constructor(message: string, status?: number) {
		super(message);
		this.name = "InferenceHubError";
		this.status = status;
	}
}

/**
 * The hub answered 429 Too Many Requests to a lookup (a model's inference provider mapping): it is
 * rate-limiting this client, and the model's providers are unknown, not missing. `retryAfterMs` is what
 * the hub asked to wait (its `Retry-After`, else the `t=` of the public hub's `RateLimit` header),
 * undefined when it did not say; `url` is the hub URL asked, without its query. Not part of 3.12.1,
 * which reported this as "We have not been able to find inference provider information for model …".
 */
export class InferenceHubRateLimitError extends InferenceHubError {
	declare readonly status: 429;
	readonly retryAfterMs: number | undefined;
	readonly url: string;

	constructor(message: string, details: { retryAfterMs: number | undefined; url: string }) {
		super(message, 429);
		this.name = "InferenceHubRateLimitError";
		this.retryAfterMs = details.retryAfterMs;
		this.url = details.url;
	}
}

/** The request as it was sent, with the credentials hidden. */
export interface RedactedRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
}

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** A provider (or the router) answered with an error, or broke its own protocol. */
export class InferenceProviderApiError extends InferenceError {
	readonly status: number;
	readonly requestId?: string;
	readonly request: RedactedRequest;

	constructor(message: string, details: { status: number; requestId?: string; request: RedactedRequest }) {
		super(message);
		this.name = "InferenceProviderApiError";
		this.status = details.status;
		this.requestId = details.requestId;
		this.request = details.request;
	}

	get isRetryable(): boolean {
		return RETRYABLE_STATUSES.has(this.status);
	}
}

/** A deadline passed: the `timeout` option's (whole call) or the `pollTimeout` option's (one polling loop). */
export class InferenceTimeoutError extends InferenceError {
	readonly timeout: number;

	constructor(
		timeout: number,
		message = `The inference call did not finish within the ${timeout} ms timeout.`,
	) {
		super(message);
		this.name = "InferenceTimeoutError";
		this.timeout = timeout;
	}
}

/**
 * No answer could be had from a server: the connection was refused or reset, the name did not
 * resolve, the answer broke off. `url` is where the request went (without its query); `cause` is
 * the platform's error.
 */
export class InferenceConnectionError extends InferenceError {
	readonly url: string;

	constructor(message: string, url: string, cause: unknown) {
		super(message, { cause });
		this.name = "InferenceConnectionError";
		this.url = url;
	}
}

/** One provider tried by provider fallback, and why it failed. */
export interface FallbackAttempt {
	provider: string;
	error: unknown;
}

/**
 * Provider fallback (`withProviderFallback`, or `InferenceClient` with a provider list or
 * `fallback: true`) tried several providers and none answered. `attempts` lists each provider with its
 * error, in order; `cause` is the last one's.
 */
export class InferenceFallbackError extends InferenceError {
	readonly attempts: FallbackAttempt[];

	constructor(message: string, attempts: FallbackAttempt[]) {
		super(message, { cause: attempts[attempts.length - 1]?.error });
		this.name = "InferenceFallbackError";
		this.attempts = attempts;
	}
}

/**
 * The response did not have the shape the task promises. Extends TypeError (as 3.12.1 does),
 * so it carries the marker itself instead of extending InferenceError.
 */
export class InferenceOutputError extends TypeError {
	readonly [MARKER] = true;

	constructor(message: string) {
		super(
			`Invalid inference output: ${message}. Use the 'request' method with the same parameters to do a custom call with no type checking.`,
		);
		this.name = "InferenceOutputError";
	}

	toJSON(): Record<string, unknown> {
		return errorJson(this);
	}
}
