import { getHubUrl, getRouterUrl } from "../config.js";
import { InferenceTimeoutError } from "../core/errors.js";
import type { Options } from "../types.js";
import { DEFAULT_BACKOFF, type BackoffOptions } from "./retry.js";

/**
 * Wait intervals. Only tests change them, through an options key that is a registered symbol so it
 * never shows up in the public types: `{ [Symbol.for("modelhub.inference.timings")]: {...} }`.
 */
export const TIMINGS_KEY = Symbol.for("modelhub.inference.timings");

export interface Timings {
	backoff: BackoffOptions;
	/** Replaces every provider's polling interval (each provider file states its own default). */
	pollIntervalMs?: number;
	/** Wall-clock bound of one polling loop; none by default (the `timeout` option still applies). */
	pollDeadlineMs?: number;
}

const DEFAULT_TIMINGS: Timings = { backoff: DEFAULT_BACKOFF };

/** Everything one call needs from its options, resolved once. */
export interface CallContext {
	readonly options: Options;
	readonly fetch: typeof fetch;
	/** The caller's signal combined with the timeout deadline. */
	readonly signal: AbortSignal | undefined;
	readonly timings: Timings;
	readonly hubUrl: string;
	readonly routerUrl: string;
	/** Turns a rejection caused by the deadline into an InferenceTimeoutError. */
	normalizeError(error: unknown): unknown;
	dispose(): void;
}

function combineSignals(a: AbortSignal, b: AbortSignal): { signal: AbortSignal; release: () => void } {
	if (typeof AbortSignal.any === "function")
		return { signal: AbortSignal.any([a, b]), release: () => undefined };
	const controller = new AbortController();
	const onA = () => controller.abort(a.reason);
	const onB = () => controller.abort(b.reason);
	if (a.aborted) onA();
	else if (b.aborted) onB();
	a.addEventListener("abort", onA, { once: true });
	b.addEventListener("abort", onB, { once: true });
	return {
		signal: controller.signal,
		release: () => {
			a.removeEventListener("abort", onA);
			b.removeEventListener("abort", onB);
		},
	};
}

export function createCallContext(options: Options = {}): CallContext {
	const custom = options.fetch;
	const fetchImpl: typeof fetch = custom
		? (input, init) => custom(input, init)
		: (input, init) => globalThis.fetch(input, init);
	const overrides = (options as Record<symbol, Partial<Timings> | undefined>)[TIMINGS_KEY];
	const timings: Timings = overrides ? { ...DEFAULT_TIMINGS, ...overrides } : DEFAULT_TIMINGS;

	let signal = options.signal;
	let timer: ReturnType<typeof setTimeout> | undefined;
	let timeoutError: InferenceTimeoutError | undefined;
	let release = () => undefined as void;
	if (typeof options.timeout === "number" && options.timeout > 0) {
		const deadline = new AbortController();
		const error = new InferenceTimeoutError(options.timeout);
		timer = setTimeout(() => {
			timeoutError = error;
			deadline.abort(error);
		}, options.timeout);
		(timer as { unref?: () => void }).unref?.();
		if (signal) {
			const combined = combineSignals(signal, deadline.signal);
			signal = combined.signal;
			release = combined.release;
		} else {
			signal = deadline.signal;
		}
	}

	return {
		options,
		fetch: fetchImpl,
		signal,
		timings,
		hubUrl: getHubUrl(options),
		routerUrl: getRouterUrl(options),
		normalizeError: (error) => timeoutError ?? error,
		dispose: () => {
			if (timer !== undefined) clearTimeout(timer);
			release();
		},
	};
}
