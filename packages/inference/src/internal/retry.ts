/**
 * The one wait helper: exponential backoff with full jitter, capped, honouring Retry-After, and an
 * abort-aware sleep. Used for 503 retries and every polling interval.
 */
export interface BackoffOptions {
	/** Delay scale of the first retry. */
	baseMs: number;
	/** Upper bound of a computed delay (Retry-After may ask for more). */
	capMs: number;
	random?: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, capMs: 8000 };

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). Returns milliseconds. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
	if (!value) return undefined;
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** Delay before retry number `attempt` (0-based): Retry-After when given, else full jitter in [0, min(cap, base·2^attempt)). */
export function backoffDelay(
	attempt: number,
	retryAfter: string | null | undefined,
	options: BackoffOptions,
): number {
	const fromHeader = parseRetryAfter(retryAfter);
	if (fromHeader !== undefined) return fromHeader;
	const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.min(attempt, 30));
	return Math.floor((options.random ?? Math.random)() * ceiling);
}

function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) return Promise.reject(abortReason(signal));
	return new Promise((resolve, reject) => {
		const onAbort = () => {
			clearTimeout(timer);
			reject(abortReason(signal as AbortSignal));
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}
