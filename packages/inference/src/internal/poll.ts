import { InferenceOutputError, InferenceTimeoutError } from "../core/errors.js";
import type { CallContext } from "./context.js";
import { sleep } from "./retry.js";

/** Header names that carry credentials: never sent to an origin the caller did not choose. */
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|cookie|x-key|x-api-key|api-key)$/i;

function carriesCredentials(headers: Record<string, string> | undefined): boolean {
	return Object.keys(headers ?? {}).some((name) => CREDENTIAL_HEADERS.test(name));
}

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
 * `maxAttempts`, by the deadline of the timings (none by default) and by the call's signal (which
 * carries the `timeout` option), and never sends credentials off the submit/router origins.
 */
export async function poll<T>(spec: PollSpec<T>): Promise<T> {
	const { ctx } = spec;
	const urlOf = typeof spec.url === "string" ? () => spec.url as string : spec.url;
	const intervalMs = ctx.timings.pollIntervalMs ?? spec.intervalMs;
	const budget = ctx.timings.pollDeadlineMs;
	const deadline = budget === undefined ? Infinity : Date.now() + budget;
	for (let attempt = 0; spec.maxAttempts === undefined || attempt < spec.maxAttempts; attempt++) {
		if (attempt > 0 || spec.waitFirst !== false) {
			if (Date.now() + intervalMs > deadline) throw new InferenceTimeoutError(budget as number);
			await sleep(intervalMs, ctx.signal);
		}
		const url = urlOf(attempt);
		assertCredentialTarget(url, spec.headers, spec.submitUrl, ctx.routerUrl);
		const response = await ctx.fetch(url, { headers: spec.headers, signal: ctx.signal });
		const result = await spec.read(response, attempt);
		if (result !== undefined) return result;
	}
	throw spec.exhausted ? spec.exhausted() : new InferenceOutputError("Polling gave no result");
}
