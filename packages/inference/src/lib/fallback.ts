/**
 * Provider fallback (opt-in, beyond the incumbent): a call that names several providers, or "auto"
 * with `fallback: true`, tries them in turn; a 429, a 5xx or a connection failure moves on to the next.
 *
 * It plugs into the pipeline through an options key (`FALLBACK_KEY`) that `withProviderFallback` and
 * `InferenceClient` set, so a task function imported on its own carries none of this code.
 */
import {
	InferenceConnectionError,
	InferenceFallbackError,
	InferenceHubError,
	InferenceInputError,
	InferenceProviderApiError,
	type FallbackAttempt,
} from "../core/errors.js";
import { createCallContext, type CallContext } from "../internal/context.js";
import type { BaseArgs, InferenceProvider, InferenceProviderOrPolicy, Options } from "../types.js";
import { fetchProviderMapping, servesTask } from "./provider-mapping.js";
import { FALLBACK_KEY, runTask, streamTask, type FallbackRunner, type TaskSpec } from "./request.js";
import { AUTO_NOTICE } from "./resolve.js";

/** A provider, the "auto" policy, or a list of providers to try in order. */
export type ProviderChoice = InferenceProviderOrPolicy | readonly InferenceProvider[];

export interface FallbackOptions {
	/** With provider "auto" (or none): try the model's mapped providers in the hub's order. */
	fallback?: boolean;
}

type WithoutProvider<A> = { [K in keyof A as K extends "provider" ? never : K]: A[K] };

/** A task function's arguments with `provider` also taking a list. */
export type FallbackArgs<A> = A extends unknown ? WithoutProvider<A> & { provider?: ProviderChoice } : never;

/** A task function that also takes a provider list and the `fallback` option. */
export type WithFallback<F> = F extends (args: infer A, options?: infer O) => infer R
	? (args: FallbackArgs<A>, options?: O & FallbackOptions) => R
	: never;

type CallOptions = Options & FallbackOptions & Record<symbol, unknown>;

/** Whether a failed attempt moves on to the next provider. */
function movesOn(error: unknown): boolean {
	if (error instanceof InferenceConnectionError) return true;
	if (error instanceof InferenceProviderApiError) return error.status === 429 || error.status >= 500;
	// The hub does not map the model to this provider, or maps it for another task.
	return (
		error instanceof InferenceHubError &&
		error.status === undefined &&
		/inference provider information|is not supported for task/.test(error.message)
	);
}

/** Fallback applies to a provider list, or to "auto" (or no provider) with `fallback: true`, never to endpoints. */
function applies(args: BaseArgs, options: CallOptions): boolean {
	const provider = args.provider as unknown;
	return (
		Array.isArray(provider) ||
		(options.fallback === true && (provider === undefined || provider === "auto") && !args.endpointUrl)
	);
}

/** The providers to try: the list as given, or the mapping's providers for the task in the hub's order. */
async function candidates(args: BaseArgs, spec: TaskSpec, ctx: CallContext): Promise<string[]> {
	const provider = args.provider as unknown;
	if (Array.isArray(provider)) {
		if (provider.length === 0) throw new InferenceInputError("The provider list is empty.");
		return [...new Set(provider as string[])];
	}
	if (provider === undefined) console.log(AUTO_NOTICE);
	const model = args.model;
	if (!model) throw new InferenceInputError("Specifying a model is required when provider is 'auto'");
	const mapping = await fetchProviderMapping(model, args.accessToken, ctx);
	const providers = mapping
		.filter((entry) => spec.task === undefined || servesTask(entry, spec.task))
		.map((entry) => entry.provider as string);
	if (providers.length === 0)
		throw new InferenceHubError(`No Inference Provider available for model ${model}.`);
	return providers;
}

/**
 * One attempt's options: the caller's, minus the runner and the fallback flag; the overall deadline
 * and the caller's signal as one signal. Every provider but the last gets no 503 retries, so a 503
 * moves on at once.
 */
function attemptOptions(options: CallOptions, signal: AbortSignal | undefined, last: boolean): CallOptions {
	const { [FALLBACK_KEY]: _runner, fallback: _fallback, timeout: _timeout, ...rest } = options;
	return { ...rest, signal, ...(last ? {} : { retry_on_error: false }) };
}

function withoutRunner(options: CallOptions): CallOptions {
	const { [FALLBACK_KEY]: _runner, fallback: _fallback, ...rest } = options;
	return rest;
}

function reason(error: unknown): string {
	if (error instanceof InferenceProviderApiError) return `HTTP ${error.status}: ${error.message}`;
	return error instanceof Error ? error.message : String(error);
}

/** The error after the attempts: the first attempt's own error when it did not move on, else an InferenceFallbackError. */
function failure(args: BaseArgs, attempts: FallbackAttempt[]): unknown {
	const last = attempts[attempts.length - 1] as FallbackAttempt;
	if (attempts.length === 1 && !movesOn(last.error)) return last.error;
	const tried = attempts.map((attempt) => `${attempt.provider} (${reason(attempt.error)})`).join("; ");
	return new InferenceFallbackError(
		`No provider could serve ${args.model ?? "the call"}; tried ${attempts.length}: ${tried}`,
		attempts,
	);
}

/**
 * Tries the providers in turn with `attempt` until one succeeds or an error does not move on. An
 * abort or the deadline ends it with its own error.
 */
async function tryProviders<T>(
	args: BaseArgs,
	options: CallOptions,
	spec: TaskSpec,
	ctx: CallContext,
	attempt: (provider: InferenceProvider, options: CallOptions) => Promise<T>,
): Promise<T> {
	const providers = await candidates(args, spec, ctx);
	const attempts: FallbackAttempt[] = [];
	for (let i = 0; i < providers.length; i++) {
		const provider = providers[i] as InferenceProvider;
		try {
			return await attempt(provider, attemptOptions(options, ctx.signal, i === providers.length - 1));
		} catch (error) {
			if (ctx.signal?.aborted) throw error;
			attempts.push({ provider, error });
			if (!movesOn(error)) break;
		}
	}
	throw failure(args, attempts);
}

async function run(args: BaseArgs, options: CallOptions, spec: TaskSpec): Promise<unknown> {
	if (!applies(args, options)) return await runTask(args, withoutRunner(options), spec);
	const ctx = createCallContext(options, args.accessToken);
	try {
		return await tryProviders(args, options, spec, ctx, (provider, attempt) =>
			runTask({ ...args, provider }, attempt, spec),
		);
	} catch (error) {
		throw ctx.normalizeError(error);
	} finally {
		ctx.dispose();
	}
}

/**
 * Streams fall back only until their first chunk: after it, an error is the stream's. The deadline
 * and the caller's signal keep covering the rest of the stream.
 */
async function* stream(args: BaseArgs, options: CallOptions, spec: TaskSpec): AsyncGenerator<unknown> {
	if (!applies(args, options)) {
		yield* streamTask(args, withoutRunner(options), spec);
		return;
	}
	const ctx = createCallContext(options, args.accessToken);
	try {
		const { first, chunks } = await tryProviders(args, options, spec, ctx, async (provider, attempt) => {
			const chunks = streamTask({ ...args, provider }, attempt, spec);
			return { first: await chunks.next(), chunks };
		});
		if (first.done) return;
		yield first.value;
		yield* chunks;
	} catch (error) {
		throw ctx.normalizeError(error);
	} finally {
		ctx.dispose();
	}
}

/** The runner `InferenceClient` and `withProviderFallback` pass to the pipeline. */
export const fallbackRunner: FallbackRunner = { run, stream };

/**
 * A task function that also takes a list of providers (`provider: ["groq", "together"]`, tried in
 * that order) or `fallback: true` with provider "auto" (the model's mapped providers, in the hub's
 * order, which is the user's preference order). A 429, a 5xx or a connection failure moves on to the
 * next provider (as does a provider the hub does not map the model to); anything else stops. Every
 * provider but the last is left at its first 503 (no retries). Streams fall back only before their
 * first chunk. When the providers run out the error is an `InferenceFallbackError` naming each one and
 * its error. Without a list or `fallback: true` the call is the plain function's.
 */
export function withProviderFallback<F extends (args: never, options?: never) => unknown>(
	fn: F,
): WithFallback<F> {
	const call = fn as unknown as (args: unknown, options?: Record<PropertyKey, unknown>) => unknown;
	return ((args: unknown, options?: Record<PropertyKey, unknown>) =>
		call(args, { ...options, [FALLBACK_KEY]: fallbackRunner })) as WithFallback<F>;
}
