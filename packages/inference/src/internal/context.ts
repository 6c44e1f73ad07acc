import { getHubUrl, getRouterUrl } from "../config.js";
import { InferenceInputError, InferenceTimeoutError } from "../core/errors.js";
import type { Options } from "../types.js";
import { guardedFetch } from "./http.js";
import { scrubError, secretsOf } from "./redact.js";
import { DEFAULT_BACKOFF, type BackoffOptions } from "./retry.js";

/**
 * Wait intervals. Only tests change them, through an options key that is a registered symbol so it
 * never shows up in the public types: `{ [Symbol.for("modelhub.inference.timings")]: {...} }`.
 */
export const TIMINGS_KEY = Symbol.for("modelhub.inference.timings");

interface Timings {
	backoff: BackoffOptions;
	/** Replaces every provider's polling interval (each provider file states its own default). */
	pollIntervalMs?: number;
}

const DEFAULT_TIMINGS: Timings = { backoff: DEFAULT_BACKOFF };

/** Timers fire at once for delays above 2^31 − 1 ms (a signed 32-bit count in every JS runtime). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A duration option in milliseconds as a timer delay: `undefined` (no limit) when absent, 0 or
 * Infinity; clamped to what timers accept; NaN, negative or non-numbers are an input error.
 */
export function timerMs(value: unknown, name: string): number | undefined {
	if (value === undefined || value === 0 || value === Infinity) return undefined;
	return Math.min(
		checkedNumber(value, name, "a number of milliseconds (0 or Infinity for none)"),
		MAX_TIMER_MS,
	);
}

/** A numeric option: positive (or 0 when `zero` allows it); anything else is an input error naming the rule. */
export function checkedNumber(value: unknown, name: string, rule: string, zero = false): number {
	if (typeof value === "number" && (value > 0 || (zero && value === 0))) return value;
	throw new InferenceInputError(`The ${name} option must be ${rule}, got ${String(value)}.`);
}

export interface Deadline {
	/** Aborts when the parent signal aborts (with its reason) or when the time is up (with `reason()`). */
	signal: AbortSignal;
	/** True once the time is up. */
	expired(): boolean;
	release(): void;
}

/** A signal for "the parent's, or `ms` from now": the one way this package bounds a wait in time. */
export function deadline(parent: AbortSignal | undefined, ms: number, reason: () => unknown): Deadline {
	const controller = new AbortController();
	let expired = false;
	const onAbort = () => controller.abort((parent as AbortSignal).reason);
	const timer = setTimeout(() => {
		expired = true;
		controller.abort(reason());
	}, ms);
	// A pending deadline must not keep a Node process alive.
	(timer as { unref?: () => void }).unref?.();
	if (parent?.aborted) onAbort();
	else parent?.addEventListener("abort", onAbort, { once: true });
	return {
		signal: controller.signal,
		expired: () => expired,
		release: () => {
			clearTimeout(timer);
			parent?.removeEventListener("abort", onAbort);
		},
	};
}

/** Everything one call needs from its options, resolved once. */
export interface CallContext {
	readonly options: Options;
	/**
	 * The caller's fetch behind the call's guards (see `guardedFetch`): the call's signal unless
	 * `init.signal` is given, credentials never carried across origins by a redirect, network failures
	 * as `InferenceConnectionError`.
	 */
	readonly fetch: (url: string, init?: RequestInit) => Promise<Response>;
	/** The caller's signal combined with the timeout deadline. */
	readonly signal: AbortSignal | undefined;
	readonly timings: Timings;
	readonly hubUrl: string;
	readonly routerUrl: string;
	/** What the call must hide in errors: the caller's token (see redact.ts). */
	readonly secrets: readonly string[];
	/** The error the caller sees: the timeout's when the deadline passed, scrubbed of tokens. */
	normalizeError(error: unknown): unknown;
	dispose(): void;
}

/**
 * The context of one call. `token` is the caller's token, to be scrubbed from errors. Throws an
 * `InferenceInputError` for an invalid `timeout`.
 */
export function createCallContext(options: Options = {}, token?: string): CallContext {
	const custom = options.fetch;
	const rawFetch: typeof fetch = custom
		? (input, init) => custom(input, init)
		: (input, init) => globalThis.fetch(input, init);
	const overrides = (options as Record<symbol, Partial<Timings> | undefined>)[TIMINGS_KEY];
	const timings: Timings = overrides ? { ...DEFAULT_TIMINGS, ...overrides } : DEFAULT_TIMINGS;
	const secrets = secretsOf(token);

	let signal = options.signal;
	let timeout: Deadline | undefined;
	let timeoutError: InferenceTimeoutError | undefined;
	const ms = timerMs(options.timeout, "timeout");
	if (ms !== undefined) {
		const error = new InferenceTimeoutError(options.timeout as number);
		timeout = deadline(signal, ms, () => error);
		timeoutError = error;
		signal = timeout.signal;
	}

	const ctx: CallContext = {
		options,
		fetch: (url, init) => guardedFetch(rawFetch, url, init?.signal ? init : { ...init, signal }),
		signal,
		timings,
		hubUrl: getHubUrl(options),
		routerUrl: getRouterUrl(options),
		secrets,
		normalizeError: (error) => scrubError(timeout?.expired() ? timeoutError : error, secrets),
		dispose: () => timeout?.release(),
	};
	return ctx;
}
