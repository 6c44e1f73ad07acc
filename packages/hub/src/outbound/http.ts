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

/** One exchange, no redirect followed: status and headers within timeoutMs, body reads idle-bounded. */
async function exchange(
	settings: OutboundSettings,
	request: OutboundRequest,
	url: URL,
): Promise<OutboundResponse> {
	const controller = new AbortController();
	const headers: Record<string, string> = { ...request.headers };
	if (request.credential && url.origin === request.credential.origin) {
		headers.authorization = request.credential.authorization;
	}
	const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
	let response: Response;
	try {
		response = await fetch(url, {
			method: request.method,
			headers,
			...(request.body !== undefined ? { body: request.body } : {}),
			redirect: "manual",
			signal: controller.signal,
		});
	} catch (error) {
		throw controller.signal.aborted
			? new OutboundError("timeout", `${url.origin} did not answer within ${settings.timeoutMs} ms`)
			: new OutboundError("unreachable", `${url.origin} is unreachable (${causeOf(error)})`);
	} finally {
		clearTimeout(timer);
	}
	const stream = response.body;
	async function* body(): AsyncIterable<Uint8Array> {
		if (!stream) return;
		const reader = stream.getReader();
		// One timer for the whole body, not one (and a promise race) per piece: it checks, when it fires,
		// how long the read under way has waited, and aborts the exchange once that reaches idleTimeoutMs.
		// Time spent by the caller between reads does not count.
		let readSince: number | undefined;
		let stalled = false;
		let idle: ReturnType<typeof setTimeout> | undefined;
		const check = (): void => {
			idle = undefined;
			if (readSince === undefined) return;
			const waited = performance.now() - readSince;
			if (waited >= settings.idleTimeoutMs) {
				stalled = true;
				controller.abort();
				return;
			}
			idle = setTimeout(check, settings.idleTimeoutMs - waited);
		};
		try {
			for (;;) {
				readSince = performance.now();
				idle ??= setTimeout(check, settings.idleTimeoutMs);
				let next: ReadableStreamReadResult<Uint8Array>;
				try {
					next = await reader.read();
				} catch (error) {
					if (stalled) {
						throw new OutboundError(
							"timeout",
							`${url.origin} sent nothing for ${settings.idleTimeoutMs} ms in the middle of an answer`,
						);
					}
					throw new OutboundError("unreachable", `${url.origin} broke off an answer (${causeOf(error)})`);
				}
				readSince = undefined;
				if (next.done) return;
				yield next.value;
			}
		} finally {
			clearTimeout(idle);
			controller.abort();
			reader.releaseLock();
		}
	}
	return {
		status: response.status,
		headers: response.headers,
		url,
		body: body(),
		discard: () => controller.abort(),
	};
}

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
			if (last || !(error instanceof OutboundError)) throw error;
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
