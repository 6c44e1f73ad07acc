import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * The hub's one helper for HTTP calls it makes to other servers (a mirrored upstream hub and its
 * storage). Every wait is bounded: the answer's headers within `timeoutMs`, then no body read may stall
 * longer than `idleTimeoutMs`; failures that may pass (no connection, 429, 502, 503, 504) are retried a
 * bounded number of times with growing pauses (never a hot loop); redirects are followed by hand, at most
 * `maxRedirects` hops, never twice to the same URL, and a credential is sent only to its own origin.
 */

export interface OutboundSettings {
	/** Longest wait for an answer's status and headers, per attempt. */
	timeoutMs: number;
	/** Longest pause between two pieces of an answer's body. */
	idleTimeoutMs: number;
	/** Further attempts after a failure that may pass (0: one attempt). */
	retries: number;
	/** The first pause before a retry; each later one doubles, up to RETRY_PAUSE_CAP_MS. */
	retryBaseMs: number;
	/** Redirect hops followed at most. */
	maxRedirects: number;
}

export const DEFAULT_OUTBOUND_SETTINGS: OutboundSettings = {
	timeoutMs: 15_000,
	idleTimeoutMs: 30_000,
	retries: 2,
	retryBaseMs: 250,
	maxRedirects: 5,
};

/** The longest pause before a retry, whatever Retry-After asks (a server cannot park the hub). */
const RETRY_PAUSE_CAP_MS = 5_000;
/** Statuses that may pass (RFC 9110: 502, 503 and 504 are a gateway's or a busy server's). */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** Why an outbound call failed, in terms the caller maps to its own answer. */
export type OutboundFailure = "unreachable" | "timeout" | "redirect" | "invalid";

export class OutboundError extends Error {
	override name = "OutboundError";
	constructor(
		readonly failure: OutboundFailure,
		message: string,
	) {
		super(message);
	}
}

/** A credential and the one origin it may be sent to. */
export interface ScopedCredential {
	origin: string;
	authorization: string;
}

export interface OutboundRequest {
	method: "GET" | "HEAD" | "POST";
	url: URL;
	headers?: Readonly<Record<string, string>>;
	body?: string;
	/** Sent as Authorization only while the request's URL is on the credential's origin. */
	credential?: ScopedCredential | undefined;
	/**
	 * Which redirects are followed: none (the redirect is the answer); same-origin ones only (a redirect
	 * elsewhere is the answer); or those whose target `allowHost` accepts (same-origin targets always
	 * are), a target refused being an OutboundError("redirect").
	 */
	redirects: "none" | "same-origin" | { allowHost: (host: string) => boolean };
}

export interface OutboundResponse {
	status: number;
	headers: Headers;
	/** The URL that answered (after redirects). */
	url: URL;
	/** The body, each read bounded by idleTimeoutMs; read it or call `discard`. */
	body: AsyncIterable<Uint8Array>;
	discard(): void;
}

function isRedirect(status: number): boolean {
	return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The pause before retry `attempt` (0-based): Retry-After when sent, else doubling from the base. */
function retryPause(settings: OutboundSettings, attempt: number, retryAfter: string | null): number {
	const seconds = retryAfter !== null && /^\d{1,6}$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
	const wanted = seconds !== undefined ? seconds * 1000 : settings.retryBaseMs * 2 ** attempt;
	return Math.min(RETRY_PAUSE_CAP_MS, Math.max(settings.retryBaseMs, wanted));
}

/** Bytes of body received and not yet taken by the reader, past which the socket is paused. */
const BODY_BUFFER_BYTES = 1024 * 1024;

/**
 * One exchange, no redirect followed: status and headers within timeoutMs, body reads idle-bounded.
 * Over node:http(s), not fetch: the body's pieces are the socket's own buffers handed on as they are
 * (fetch copies each into its parser's memory and out again and wraps it in a web stream), which is
 * most of a mirror miss's CPU besides the digest.
 */
async function exchange(
	settings: OutboundSettings,
	request: OutboundRequest,
	url: URL,
): Promise<OutboundResponse> {
	// Without Accept-Encoding any coding is acceptable (RFC 9110, 12.5.3), and node:http decodes none: ask
	// for the bytes as stored, which is what a file's SHA-256 or blob id names.
	const headers: Record<string, string> = { "accept-encoding": "identity", ...request.headers };
	if (request.credential && url.origin === request.credential.origin) {
		headers.authorization = request.credential.authorization;
	}
	if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
	const send = url.protocol === "https:" ? httpsRequest : httpRequest;
	const sent = send(url, { method: request.method, headers });
	const answer = await new Promise<IncomingMessage>((resolve, reject) => {
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			sent.destroy();
		}, settings.timeoutMs);
		sent.once("response", (message) => {
			clearTimeout(timer);
			resolve(message);
		});
		sent.once("error", (error) => {
			clearTimeout(timer);
			reject(
				timedOut
					? new OutboundError("timeout", `${url.origin} did not answer within ${settings.timeoutMs} ms`)
					: new OutboundError("unreachable", `${url.origin} is unreachable (${causeOf(error)})`),
			);
		});
		sent.end(request.body);
	});
	// Errors after the answer began are the body reader's to report; none may go unhandled.
	sent.on("error", () => {});
	const responseHeaders = new Headers();
	const raw = answer.rawHeaders;
	for (let i = 0; i + 1 < raw.length; i += 2) responseHeaders.append(raw[i]!, raw[i + 1]!);
	const discard = (): void => {
		answer.destroy();
		sent.destroy();
	};
	const coding = responseHeaders.get("content-encoding")?.trim().toLowerCase();
	if (coding && coding !== "identity" && request.method !== "HEAD") {
		discard();
		throw new OutboundError(
			"invalid",
			`${url.origin} answered with Content-Encoding: ${coding.slice(0, 40)} to a request for the bytes as stored`,
		);
	}
	return {
		status: answer.statusCode ?? 0,
		headers: responseHeaders,
		url,
		body: bodyOf(settings, url, answer, discard),
		discard,
	};
}

/**
 * An answer's body as its pieces (no copy), the socket paused while BODY_BUFFER_BYTES wait unread. Its
 * end and failures are listened for at once (the body may be read later, or never: then discarded). One
 * timer for the whole body, not one per piece: when it fires it checks how long the read under way has
 * waited and ends the exchange once that reaches idleTimeoutMs. Time the caller spends between reads
 * does not count.
 */
function bodyOf(
	settings: OutboundSettings,
	url: URL,
	answer: IncomingMessage,
	discard: () => void,
): AsyncIterable<Uint8Array> {
	const queue: Buffer[] = [];
	let head = 0;
	let queued = 0;
	let ended = false;
	let failure: OutboundError | undefined;
	let wake: (() => void) | undefined;
	const signal = (): void => {
		const then = wake;
		wake = undefined;
		then?.();
	};
	const brokeOff = (cause: string): void => {
		failure ??= new OutboundError("unreachable", `${url.origin} broke off an answer (${cause})`);
		signal();
	};
	answer.once("end", () => {
		ended = true;
		signal();
	});
	answer.once("error", (error) => brokeOff(causeOf(error)));
	// A connection closed before the body's end is a failure, error event or not.
	answer.once("close", () => {
		if (!answer.complete) brokeOff("closed");
		else signal();
	});
	async function* pieces(): AsyncGenerator<Uint8Array> {
		answer.on("data", (piece: Buffer) => {
			queue.push(piece);
			queued += piece.length;
			if (queued >= BODY_BUFFER_BYTES) answer.pause();
			signal();
		});
		let readSince: number | undefined;
		let idle: ReturnType<typeof setTimeout> | undefined;
		const check = (): void => {
			idle = undefined;
			if (readSince === undefined) return;
			const waited = performance.now() - readSince;
			if (waited >= settings.idleTimeoutMs) {
				failure ??= new OutboundError(
					"timeout",
					`${url.origin} sent nothing for ${settings.idleTimeoutMs} ms in the middle of an answer`,
				);
				signal();
				return;
			}
			idle = setTimeout(check, settings.idleTimeoutMs - waited);
		};
		try {
			for (;;) {
				if (head < queue.length) {
					const piece = queue[head]!;
					queue[head++] = EMPTY;
					queued -= piece.length;
					if (head === queue.length) {
						queue.length = 0;
						head = 0;
					}
					if (queued < BODY_BUFFER_BYTES && answer.isPaused()) answer.resume();
					yield piece;
					continue;
				}
				if (failure) throw failure;
				if (ended) return;
				readSince = performance.now();
				idle ??= setTimeout(check, settings.idleTimeoutMs);
				await new Promise<void>((resolve) => (wake = resolve));
				readSince = undefined;
			}
		} finally {
			clearTimeout(idle);
			// Read to its end, the connection goes back to the agent's pool; else it is closed.
			if (!ended || failure) discard();
		}
	}
	return pieces();
}

const EMPTY = Buffer.alloc(0);

function causeOf(error: unknown): string {
	const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
	const code = (cause as { code?: unknown } | undefined)?.code;
	if (typeof code === "string") return code;
	return error instanceof Error ? error.message.slice(0, 120) : "network error";
}

/** One request with its retries (failures that may pass), redirects not followed. */
async function withRetries(
	settings: OutboundSettings,
	request: OutboundRequest,
	url: URL,
): Promise<OutboundResponse> {
	for (let attempt = 0; ; attempt++) {
		const last = attempt >= settings.retries;
		try {
			const response = await exchange(settings, request, url);
			if (last || !RETRYABLE_STATUSES.has(response.status)) return response;
			response.discard();
			await sleep(retryPause(settings, attempt, response.headers.get("retry-after")));
		} catch (error) {
			// An answer the hub cannot use comes the same again: only a failed connection is tried again.
			if (last || !(error instanceof OutboundError) || error.failure === "invalid") throw error;
			await sleep(retryPause(settings, attempt, null));
		}
	}
}

/**
 * Sends `request` and follows the redirects it allows (see OutboundRequest.redirects). The credential
 * never goes to another origin: a redirect to a storage host is followed without it.
 */
export async function outboundRequest(
	settings: OutboundSettings,
	request: OutboundRequest,
): Promise<OutboundResponse> {
	const seen = new Set<string>();
	let url = request.url;
	for (let hop = 0; ; hop++) {
		seen.add(url.href);
		const response = await withRetries(settings, request, url);
		if (!isRedirect(response.status) || request.redirects === "none") return response;
		const location = response.headers.get("location");
		response.discard();
		if (location === null) return response;
		let target: URL;
		try {
			target = new URL(location, url);
		} catch {
			throw new OutboundError("redirect", `${url.origin} redirected to an invalid URL`);
		}
		if (target.protocol !== "http:" && target.protocol !== "https:") {
			throw new OutboundError("redirect", `${url.origin} redirected to a ${target.protocol} URL`);
		}
		const redirects = request.redirects;
		const elsewhere = target.origin !== request.url.origin;
		if (elsewhere && redirects === "same-origin") return response;
		if (hop + 1 > settings.maxRedirects || seen.has(target.href)) {
			throw new OutboundError("redirect", `${request.url.origin} redirected in a loop or too many times`);
		}
		if (elsewhere && redirects !== "same-origin" && !redirects.allowHost(target.host)) {
			throw new OutboundError(
				"redirect",
				`${url.origin} redirected to ${target.host}, which is not one of the upstream's storage hosts`,
			);
		}
		url = target;
	}
}

/** The whole body as bytes, refused past `maxBytes` (an OutboundError: the other server misbehaved). */
export async function readBounded(response: OutboundResponse, maxBytes: number): Promise<Buffer> {
	const pieces: Buffer[] = [];
	let total = 0;
	for await (const piece of response.body) {
		total += piece.length;
		if (total > maxBytes) {
			response.discard();
			throw new OutboundError("invalid", `${response.url.origin} sent an answer over ${maxBytes} bytes`);
		}
		pieces.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
	}
	return Buffer.concat(pieces);
}
