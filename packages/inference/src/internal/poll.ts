import { InferenceOutputError, InferenceTimeoutError } from "../core/errors.js";
import { deadline, timerMs, type CallContext } from "./context.js";
import { carriesCredentials } from "./http.js";
import { sleep } from "./retry.js";

/**
 * Default bound of one polling loop when the caller sets no `pollTimeout`: long enough for the
 * slowest documented jobs (Together and Z.ai give up after ~5 minutes; video queues take minutes), short
 * enough that a queue that never completes does not hold the caller forever.
 */
export const DEFAULT_POLL_TIMEOUT_MS = 900_000; // 15 minutes

/**
 * Credentials only go where the call was sent (the submit URL's origin) or to the router. Every
 * poll URL is built from one of those bases plus a path the provider returned, so this is a guard
 * against a wrong base, not a filter of provider input.
 */
export function assertCredentialTarget(
	url: string,
	headers: Record<string, string> | undefined,
	submitUrl: string,
	routerUrl: string,
): void {
	if (!carriesCredentials(headers)) return;
	const origin = new URL(url).origin;
	if (origin === new URL(submitUrl).origin || origin === new URL(routerUrl).origin) return;
	throw new InferenceOutputError(
		`Refusing to send credentials to ${origin}: polling stays on ${new URL(submitUrl).origin}`,
	);
}

/** `{base}{path}{query}` of a URL the provider returned, on a base we trust. */
export function onBase(base: string, providerUrl: string, query = ""): string {
	return `${base}${new URL(providerUrl).pathname}${query}`;
}

export interface PollSpec<T> {
	ctx: CallContext;
	/** The URL of every poll (or of poll number `attempt`, 0-based). */
	url: string | ((attempt: number) => string);
	/** Headers of every poll (the submit's, for providers that want them). */
	headers?: Record<string, string>;
	/** The submit request's URL: with the router, the only origin credentials may go to. */
	submitUrl: string;
	/** The provider's documented interval (tests shrink it through the timings option). */
	intervalMs: number;
	/** The provider's documented limit on polls; unbounded when absent. */
	maxAttempts?: number;
	/** Wait before the first poll (default true). */
	waitFirst?: boolean;
	/** Reads one answer (and consumes or cancels its body); `undefined` means "not done, poll again". */
	read(response: Response, attempt: number): Promise<T | undefined>;
	/** The error when `maxAttempts` polls brought no result. */
	exhausted?: () => Error;
}

/**
 * The one polling loop: GET `url` every `intervalMs` until `read` returns a result. Bounded by
 * `maxAttempts`, by the `pollTimeout` option (default `DEFAULT_POLL_TIMEOUT_MS`; waits, polls and
 * reads included) and by the call's signal (which carries the `timeout` option), and never sends
 * credentials off the submit/router origins.
 */
export async function poll<T>(spec: PollSpec<T>): Promise<T> {
	const { ctx } = spec;
	const urlOf = typeof spec.url === "string" ? () => spec.url as string : spec.url;
	const intervalMs = ctx.timings.pollIntervalMs ?? spec.intervalMs;
	const given = ctx.options.pollTimeout ?? DEFAULT_POLL_TIMEOUT_MS;
	const budget = timerMs(given, "pollTimeout");
	const first = urlOf(0);
	const limit = budget === undefined ? undefined : deadline(ctx.signal, budget, () => undefined);
	const signal = limit?.signal ?? ctx.signal;
	try {
		for (let attempt = 0; spec.maxAttempts === undefined || attempt < spec.maxAttempts; attempt++) {
			if (attempt > 0 || spec.waitFirst !== false) await sleep(intervalMs, signal);
			const url = urlOf(attempt);
			assertCredentialTarget(url, spec.headers, spec.submitUrl, ctx.routerUrl);
			const response = await ctx.fetch(url, { headers: spec.headers, signal });
			const result = await spec.read(response, attempt);
			if (result !== undefined) return result;
		}
	} catch (error) {
		if (limit?.expired() && !ctx.signal?.aborted) {
			const { origin, pathname } = new URL(first);
			throw new InferenceTimeoutError(
				given as number,
				`Polling ${origin}${pathname} gave no result within the ${given} ms pollTimeout.`,
			);
		}
		throw error;
	} finally {
		limit?.release();
	}
	throw spec.exhausted ? spec.exhausted() : new InferenceOutputError("Polling gave no result");
}
