/**
 * The one wait helper: exponential backoff with full jitter, between a floor and a ceiling,
 * honouring Retry-After within bounds, and an abort-aware sleep. Used for 503 retries and every
 * polling interval.
 */
export interface BackoffOptions {
	/** Delay scale of the first retry. */
	baseMs: number;
	/** Upper bound of a computed delay. */
	capMs: number;
	/** Lower bound of every delay, Retry-After included: a server cannot turn retries into a hot loop. */
	floorMs?: number;
	/** Upper bound of a Retry-After wait (a server may ask for more than `capMs`, not for days). */
	retryAfterCapMs?: number;
	random?: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = {
	baseMs: 250,
	capMs: 8000,
	floorMs: 100,
	retryAfterCapMs: 60_000,
};

/** Retries of a 503 when the caller sets no `maxRetries` (3.12.1: unlimited; see README, deviations). */
export const DEFAULT_MAX_RETRIES = 10;

/**
 * Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). Returns milliseconds (0
 * for a date in the past), or undefined when the value is neither.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
	if (!value) return undefined;
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/**
 * Delay before retry number `attempt` (0-based): Retry-After when readable, else full jitter in
 * [0, min(cap, base·2^attempt)); either way at least the floor, and Retry-After at most its cap.
 */
export function backoffDelay(
	attempt: number,
	retryAfter: string | null | undefined,
	options: BackoffOptions,
): number {
	const floor = options.floorMs ?? 0;
	const fromHeader = parseRetryAfter(retryAfter);
	const delay =
		fromHeader !== undefined
			? Math.min(fromHeader, options.retryAfterCapMs ?? DEFAULT_BACKOFF.retryAfterCapMs ?? 0)
			: (options.random ?? Math.random)() *
				Math.min(options.capMs, options.baseMs * 2 ** Math.min(attempt, 30));
	return Math.floor(Math.max(floor, delay));
}

function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Waits `ms` (at most the timer limit, 2^31 − 1), or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) return Promise.reject(abortReason(signal));
	return new Promise((resolve, reject) => {
		const onAbort = () => {
			clearTimeout(timer);
			reject(abortReason(signal as AbortSignal));
		};
		const timer = setTimeout(
			() => {
				signal?.removeEventListener("abort", onAbort);
				resolve();
			},
			Math.min(ms, 2 ** 31 - 1),
		);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}
