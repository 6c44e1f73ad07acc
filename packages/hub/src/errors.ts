/**
 * The hub's errors: a kind (what went wrong, in HTTP's terms), the message the client reads, and what
 * the public hub sends with it (`X-Error-Code`, which huggingface_hub turns into its own exceptions).
 * Any layer throws them; the server's error handler turns them into answers with `errorAnswer`, the
 * one place that knows their shape. This module imports nothing of the hub, so every layer may use it.
 */

/** The HTTP status of each kind: the only place they are written. */
export const ERROR_STATUS = {
	Invalid: 400,
	Unauthorized: 401,
	Forbidden: 403,
	NotFound: 404,
	MethodNotAllowed: 405,
	Conflict: 409,
	PreconditionFailed: 412,
	TooLarge: 413,
	UnsupportedMediaType: 415,
	RangeNotSatisfiable: 416,
	Unprocessable: 422,
	TooManyRequests: 429,
	Internal: 500,
	NotImplemented: 501,
	/** Another server this hub relies on (a mirrored upstream hub) answered wrongly or not at all. */
	BadGateway: 502,
	Unavailable: 503,
	/** Another server this hub relies on did not answer in time. */
	GatewayTimeout: 504,
} as const;

export type ErrorKind = keyof typeof ERROR_STATUS;

/** The error codes huggingface_hub reads from `X-Error-Code` to raise its specific exceptions. */
export type HubErrorCode = "RepoNotFound" | "RevisionNotFound" | "EntryNotFound" | "GatedRepo";

export interface HubErrorOptions {
	/** `X-Error-Code`; the message is then sent as `X-Error-Message` too (the client shows it once). */
	code?: HubErrorCode;
	/** `X-Error-Message` without a code (huggingface_hub shows it in its 401 and 403 errors). */
	messageHeader?: string;
	/** `WWW-Authenticate` of a 401. */
	challenge?: string;
	/** More headers (Retry-After, X-Repo-Commit). */
	headers?: Readonly<Record<string, string>>;
	/** More fields of the JSON body, after `error`. */
	body?: Readonly<Record<string, unknown>>;
	cause?: unknown;
}

export class HubError extends Error {
	override name = "HubError";
	readonly kind: ErrorKind;
	readonly status: number;
	readonly code: HubErrorCode | undefined;
	readonly options: HubErrorOptions;

	constructor(kind: ErrorKind, message: string, options: HubErrorOptions = {}) {
		super(message, options.cause === undefined ? undefined : { cause: options.cause });
		this.kind = kind;
		this.status = ERROR_STATUS[kind];
		this.code = options.code;
		this.options = options;
	}
}

/** The JSON body of every error answer (published in the API contract, `api/errors.ts`). */
export interface ErrorBody {
	/** What went wrong, worded for a person. */
	error: string;
}

/** An error answer: status, the headers of the error itself, and the JSON body. */
export interface ErrorAnswer {
	status: number;
	headers: Record<string, string>;
	body: ErrorBody & Record<string, unknown>;
}

/** A header-safe copy of a message (printable ASCII only). */
export function headerText(text: string): string {
	return text.replace(/[^\x20-\x7e]/g, "?").slice(0, 200);
}

/** How the hub answers an error: `{ error, ...body }` with its status and headers. */
export function errorAnswer(error: HubError): ErrorAnswer {
	const { code, messageHeader, challenge, headers, body } = error.options;
	const out: Record<string, string> = {};
	if (challenge !== undefined) out["www-authenticate"] = challenge;
	if (code !== undefined) out["x-error-code"] = code;
	const shown = messageHeader ?? (code !== undefined ? error.message : undefined);
	if (shown !== undefined) out["x-error-message"] = headerText(shown);
	return { status: error.status, headers: { ...out, ...headers }, body: { error: error.message, ...body } };
}

/**
 * A `.catch` handler that tells an error of class `type` in the caller's words (`replace`), the caller
 * being the one who knows which limit or check it was; other errors pass unchanged.
 */
export function reword<E extends Error>(
	type: abstract new (...args: never[]) => E,
	replace: (error: E) => Error,
): (error: unknown) => never {
	return (error) => {
		throw error instanceof type ? replace(error) : error;
	};
}

const KIND_OF_STATUS = new Map<number, ErrorKind>(
	Object.entries(ERROR_STATUS).map(([kind, status]) => [status, kind as ErrorKind]),
);

/** The kind of a status another library chose (a 4xx without a kind of its own is Invalid). */
export function kindOfStatus(status: number): ErrorKind {
	return KIND_OF_STATUS.get(status) ?? (status >= 500 ? "Internal" : "Invalid");
}

// The public hub's wordings, each written once.

export const REPO_NOT_FOUND = "Repository not found";

export function repoNotFound(): HubError {
	return new HubError("NotFound", REPO_NOT_FOUND, { code: "RepoNotFound" });
}

export function revisionNotFound(revision: string): HubError {
	return new HubError("NotFound", `Invalid rev id: ${revision}`, { code: "RevisionNotFound" });
}

/** A file or folder missing at a commit (`X-Repo-Commit` names the commit when there is one). */
export function entryNotFound(message: string, commitId?: string): HubError {
	return new HubError("NotFound", message, {
		code: "EntryNotFound",
		...(commitId !== undefined ? { headers: { "x-repo-commit": commitId } } : {}),
	});
}

/** The `WWW-Authenticate` challenge of the hub's 401s (its access tokens are Bearer tokens). */
export const BEARER_CHALLENGE = 'Bearer realm="modelhub"';

/** Addresses the hub has nothing at. */
export function noSuchApiRoute(): HubError {
	return new HubError("NotFound", "no such API route");
}

export function noSuchPath(): HubError {
	return new HubError("NotFound", "not found");
}

export function malformedUrl(): HubError {
	return new HubError("Invalid", "malformed URL: invalid percent-encoding");
}

/** Seconds a client is asked to wait (`Retry-After`) when the database or storage is unavailable. */
export const RETRY_AFTER_SECONDS = 5;

/** 503 with Retry-After: the request may succeed later (huggingface_hub retries 503 with backoff). */
export function unavailable(what: string): HubError {
	return new HubError("Unavailable", `${what} is unavailable; retry in a few seconds`, {
		headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
	});
}

/** 429 with Retry-After. */
export function tooManyRequests(message: string, retryAfterSeconds: number): HubError {
	return new HubError("TooManyRequests", message, { headers: { "retry-after": String(retryAfterSeconds) } });
}

/** A write that conflicts with what is stored (a 409). */
export class ConflictError extends HubError {
	override name = "ConflictError";
	constructor(message: string, options: Omit<HubErrorOptions, "code"> = {}) {
		super("Conflict", message, options);
	}
}
