import { InferenceConnectionError, InferenceProviderApiError, type RedactedRequest } from "../core/errors.js";
import type { CallContext } from "./context.js";

/** How the credential travels (in the Authorization header): scheme, and which kind of credential it is. */
export interface RequestAuth {
	/** "Bearer", or the provider's scheme for its own keys ("Key" for fal.ai, "X-Key" for Black Forest Labs). */
	scheme: string;
	/** "hf-token": routed through the hub router; "provider-key": sent to the provider directly. */
	method: "hf-token" | "provider-key";
}

/** What the pipeline hands to `send`: a URL and a RequestInit whose headers are a plain record. */
export interface PreparedRequest {
	url: string;
	init: RequestInit & { headers: Record<string, string>; method: string };
	/** How the credential is (or, for a dry run without a token, would be) sent. */
	auth?: RequestAuth;
}

/**
 * Words an error answer's `error` field differently (3.12.1's chat wording for
 * `request(…, { chatCompletion: true })`, see lib/chat-errors.ts); `undefined` keeps the usual message.
 */
export type ErrorWording = (status: number, error: unknown) => string | undefined;

const DEFAULT_ERROR_MESSAGE = "An error occurred while fetching the blob";

/** Sends a prepared request through the call's guarded fetch (call's signal, safe redirects). */
export async function send(ctx: CallContext, request: PreparedRequest): Promise<Response> {
	return await ctx.fetch(request.url, request.init);
}

/** Header names that carry credentials: never sent to an origin the caller did not choose. */
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|cookie|x-key|x-api-key|api-key)$/i;

export function carriesCredentials(headers: HeadersInit | undefined): boolean {
	return Object.keys(headers ?? {}).some((name) => CREDENTIAL_HEADERS.test(name));
}

/** Where a request went, for messages: origin and path, without the query. */
function whereOf(url: string): string {
	const { origin, pathname } = new URL(url);
	return origin + pathname;
}

/**
 * The platform's network error in a few words: its (or its cause's) code, such as ECONNREFUSED or
 * UND_ERR_SOCKET (undici), with the message when the code does not say it all.
 */
function networkDetail(error: unknown): string {
	const cause = (error as { cause?: unknown } | null)?.cause;
	const source = (typeof cause === "object" && cause !== null ? cause : error) as {
		code?: unknown;
		message?: unknown;
	} | null;
	const message = typeof source?.message === "string" ? source.message : String(error);
	const code = typeof source?.code === "string" ? source.code : undefined;
	return code ? (message.includes(code) ? code : `${code} (${message})`) : message;
}

/**
 * A rejection of fetch (or of reading a body) as the caller sees it: a network failure becomes an
 * InferenceConnectionError ("Could not reach {url}: ECONNREFUSED"); an abort, and any error the
 * caller's own fetch chose to throw, pass through as they are. Network failures are TypeErrors (the
 * Fetch standard's "network error"; undici, browsers) or errors with a system `code` (node-fetch).
 */
export function connectionError(
	url: string,
	error: unknown,
	signal: AbortSignal | null | undefined,
	reading = false,
): unknown {
	if (
		signal?.aborted ||
		!(error instanceof TypeError || typeof (error as { code?: unknown })?.code === "string")
	)
		return error;
	const where = whereOf(url);
	return new InferenceConnectionError(
		`${reading ? "Lost the connection to" : "Could not reach"} ${where}${reading ? " while reading its answer" : ""}: ${networkDetail(error)}`,
		where,
		error,
	);
}

const REDIRECTS = [301, 302, 303, 307, 308];

/**
 * The caller's fetch with the call's guards. A request that carries credentials is sent with
 * `redirect: "manual"` and follows redirects only on its own origin (at most 5); a redirect to
 * another origin is refused, so neither the credentials nor the body go there (the Fetch standard
 * drops Authorization across origins, but not every fetch implementation does, and it would still
 * send the body). A rejection that is not an abort becomes an InferenceConnectionError.
 */
export async function guardedFetch(
	rawFetch: typeof fetch,
	url: string,
	init: RequestInit,
): Promise<Response> {
	const origin = new URL(url).origin;
	const manual = carriesCredentials(init.headers);
	for (let hop = 0; ; hop++) {
		let response: Response;
		try {
			response = await rawFetch(url, manual ? { ...init, redirect: "manual" } : init);
		} catch (error) {
			throw connectionError(url, error, init.signal);
		}
		const location = manual && REDIRECTS.includes(response.status) ? response.headers.get("location") : null;
		if (!location && !(manual && response.type === "opaqueredirect")) return response;
		await discardBody(response);
		// A browser hides a manual redirect's target (opaqueredirect): it cannot be checked, so it is not followed.
		const next = location ? new URL(location, url) : undefined;
		if (next?.origin !== origin || hop === 5) {
			throw apiError(
				`Refusing to follow a redirect from ${whereOf(url)}${next ? ` to ${whereOf(next.href)}` : ""}: a request with credentials follows at most 5 redirects, all on ${origin}`,
				response,
				{ url, init: { method: init.method ?? "GET", headers: init.headers as Record<string, string> } },
			);
		}
		url = next.href;
		// 303, and 301/302 after a POST, continue as a GET without a body (Fetch standard, HTTP-redirect fetch).
		const status = response.status;
		if (status === 303 || (status < 303 && init.method === "POST"))
			init = { ...init, method: "GET", body: undefined };
	}
}

function redactRequest(request: PreparedRequest): RedactedRequest {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(request.init.headers)) {
		headers[name] =
			name.toLowerCase() === "authorization" ? value.replace(/^(\S+)\s.*$/, "$1 [redacted]") : value;
	}
	return { method: request.init.method, url: request.url, headers };
}

function apiError(message: string, response: Response, request: PreparedRequest): InferenceProviderApiError {
	return new InferenceProviderApiError(message, {
		status: response.status,
		requestId: response.headers.get("x-request-id") ?? undefined,
		request: redactRequest(request),
	});
}

function isJsonContentType(contentType: string | null): boolean {
	return (
		!!contentType &&
		(contentType.startsWith("application/json") || contentType.startsWith("application/problem+json"))
	);
}

/**
 * The message of a JSON error body: `error` or `detail` JSON-stringified, as 3.12.1 words it; else a
 * top-level `message` string (WaveSpeedAI and others answer `{code, message}`, which 3.12.1 printed
 * as "[object Object]"); else the body as JSON, at most MAX_BODY_IN_MESSAGE characters.
 */
function jsonErrorMessage(body: unknown, record: Record<string, unknown> | undefined): string {
	if (record && (record.error || record.detail)) return JSON.stringify(record.error ?? record.detail);
	if (typeof record?.message === "string" && record.message) return record.message;
	const text = typeof body === "string" ? body : JSON.stringify(body);
	return text.length > MAX_BODY_IN_MESSAGE ? `${text.slice(0, MAX_BODY_IN_MESSAGE)}…` : text;
}

/** A JSON error body without a known message field is quoted up to this many characters. */
const MAX_BODY_IN_MESSAGE = 2_000;

/**
 * The error of a failed non-streaming call, as 3.12.1 words it: a JSON body's `error` or
 * `detail` (JSON-stringified), a `text/plain;…` body's text, else a fixed text.
 */
export async function errorFromResponse(
	response: Response,
	request: PreparedRequest,
	wording?: ErrorWording,
): Promise<InferenceProviderApiError> {
	const contentType = response.headers.get("content-type");
	let message = DEFAULT_ERROR_MESSAGE;
	try {
		if (isJsonContentType(contentType)) {
			const body = (await response.json()) as unknown;
			const record =
				typeof body === "object" && body !== null ? (body as Record<string, unknown>) : undefined;
			message = wording?.(response.status, record?.error) ?? jsonErrorMessage(body, record);
		} else if (contentType?.startsWith("text/plain;")) {
			message = await response.text();
		} else {
			await response.body?.cancel();
		}
	} catch {
		// An unreadable or malformed error body keeps the fixed text.
	}
	return apiError(message, response, request);
}

/** The message of an object `error` (OpenAI style `{message}`), else undefined. */
export function errorObjectMessage(error: unknown): string | undefined {
	const message = (error as { message?: unknown } | null)?.message;
	return typeof error === "object" && typeof message === "string" ? message : undefined;
}

/** The error of a failed streaming call: `error`, `error.message` or `message` of a JSON body. */
export async function streamErrorFromResponse(
	response: Response,
	request: PreparedRequest,
	wording?: ErrorWording,
): Promise<InferenceProviderApiError> {
	let message = `Server response contains error: ${response.status}`;
	try {
		if (response.headers.get("content-type")?.startsWith("application/json")) {
			const body = (await response.json()) as Record<string, unknown> | null;
			const error = body?.error;
			const worded = wording?.(response.status, error);
			if (worded !== undefined) message = worded;
			else if (typeof error === "string") message = error;
			else if (errorObjectMessage(error) !== undefined) message = errorObjectMessage(error) as string;
			else if (typeof body?.message === "string") message = body.message;
		} else {
			await response.body?.cancel();
		}
	} catch {
		// Not JSON after all: keep the status text.
	}
	return apiError(message, response, request);
}

/** An error for a response that broke the protocol (wrong content type, forwarded SSE error). */
export function protocolError(
	message: string,
	response: Response,
	request: PreparedRequest,
): InferenceProviderApiError {
	return apiError(message, response, request);
}

/** Releases a response body we will not read, so the connection can be reused. */
export async function discardBody(response: Response): Promise<void> {
	try {
		await response.body?.cancel();
	} catch {
		// Already consumed or errored: nothing to release.
	}
}

/** GET of a file a provider points to (image, audio, video): caller's fetch, no headers, call's signal. */
export async function download(url: string, ctx: CallContext): Promise<Response> {
	return await ctx.fetch(url);
}

/** Downloads a file as a Blob (3.12.1 does not check the status of these downloads). */
export async function downloadBlob(url: string, ctx: CallContext): Promise<Blob> {
	return await (await download(url, ctx)).blob();
}

/**
 * Downloads a file the provider produced, as a Blob, failing on a non-2xx answer (the checked form
 * used by the providers and tasks that 3.12.1 did not have).
 */
export async function downloadChecked(url: string, ctx: CallContext, what: string): Promise<Blob> {
	const response = await download(url, ctx);
	if (!response.ok) {
		await discardBody(response);
		throw apiError(`Failed to fetch ${what} from ${url}: ${response.status}`, response, {
			url,
			init: { method: "GET", headers: {} },
		});
	}
	return await response.blob();
}

/** A failed poll or result fetch, as an API error carrying the status and the (redacted) request. */
export async function pollError(
	message: string,
	response: Response,
	url: string,
	headers: Record<string, string> | undefined,
): Promise<InferenceProviderApiError> {
	await discardBody(response);
	return apiError(message, response, { url, init: { method: "GET", headers: headers ?? {} } });
}
