import { InferenceProviderApiError, type RedactedRequest } from "../core/errors.js";
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
	/** The token used, only so that it can be scrubbed from error messages. */
	token?: string;
	/** How the credential is (or, for a dry run without a token, would be) sent. */
	auth?: RequestAuth;
}

/** Statuses on which 3.12.1 words a chat call's error as "does not seem to support chat completion". */
const CHAT_UNSUPPORTED_STATUSES = [400, 404, 422, 500];

function chatUnsupported(chatServer: string | undefined, response: Response): boolean {
	return chatServer !== undefined && CHAT_UNSUPPORTED_STATUSES.includes(response.status);
}

function chatMessage(chatServer: string, error: unknown): string {
	return `Server ${chatServer} does not seem to support chat completion. Error: ${error}`;
}

export const DEFAULT_ERROR_MESSAGE = "An error occurred while fetching the blob";

/** Sends a prepared request through the caller's fetch, with the call's signal (caller + timeout). */
export async function send(ctx: CallContext, request: PreparedRequest): Promise<Response> {
	try {
		return await ctx.fetch(request.url, ctx.signal ? { ...request.init, signal: ctx.signal } : request.init);
	} catch (error) {
		throw ctx.normalizeError(error);
	}
}

export function redactRequest(request: PreparedRequest): RedactedRequest {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(request.init.headers)) {
		headers[name] =
			name.toLowerCase() === "authorization" ? value.replace(/^(\S+)\s.*$/, "$1 [redacted]") : value;
	}
	return { method: request.init.method, url: request.url, headers };
}

function scrub(message: string, token: string | undefined): string {
	return token && token.length > 0 ? message.split(token).join("[redacted]") : message;
}

function apiError(message: string, response: Response, request: PreparedRequest): InferenceProviderApiError {
	return new InferenceProviderApiError(scrub(message, request.token), {
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
 * The error of a failed non-streaming call, as 3.12.1 words it: a JSON body's `error` or
 * `detail` (JSON-stringified), a `text/plain;…` body's text, else a fixed text.
 */
export async function errorFromResponse(
	response: Response,
	request: PreparedRequest,
	chatServer?: string,
): Promise<InferenceProviderApiError> {
	const contentType = response.headers.get("content-type");
	let message = DEFAULT_ERROR_MESSAGE;
	try {
		if (isJsonContentType(contentType)) {
			const body = (await response.json()) as unknown;
			const record =
				typeof body === "object" && body !== null ? (body as Record<string, unknown>) : undefined;
			if (chatUnsupported(chatServer, response)) {
				// `request(…, { chatCompletion: true })`: the JSON text of the body's `error`, as 3.12.1 words it.
				message = chatMessage(chatServer as string, JSON.stringify(record?.error));
			} else if (record && (record.error || record.detail)) {
				message = JSON.stringify(record.error ?? record.detail);
			} else {
				message = String(body);
			}
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

/** The error of a failed streaming call: `error`, `error.message` or `message` of a JSON body. */
export async function streamErrorFromResponse(
	response: Response,
	request: PreparedRequest,
	chatServer?: string,
): Promise<InferenceProviderApiError> {
	let message = `Server response contains error: ${response.status}`;
	try {
		if (response.headers.get("content-type")?.startsWith("application/json")) {
			const body = (await response.json()) as Record<string, unknown> | null;
			const error = body?.error;
			if (chatUnsupported(chatServer, response)) {
				// 3.12.1 interpolates `error` as is; an object is shown as its message or JSON, not "[object Object]".
				const text =
					typeof error === "object" && error !== null
						? typeof (error as { message?: unknown }).message === "string"
							? (error as { message: string }).message
							: JSON.stringify(error)
						: error;
				message = chatMessage(chatServer as string, text);
			} else if (typeof error === "string") message = error;
			else if (
				typeof error === "object" &&
				error !== null &&
				typeof (error as { message?: unknown }).message === "string"
			) {
				message = (error as { message: string }).message;
			} else if (typeof body?.message === "string") message = body.message;
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
	return await ctx.fetch(url, { signal: ctx.signal });
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
	token?: string,
): Promise<InferenceProviderApiError> {
	await discardBody(response);
	return apiError(message, response, { url, init: { method: "GET", headers: headers ?? {} }, token });
}
