import { checkedNumber, createCallContext, type CallContext } from "../internal/context.js";
import {
	connectionError,
	discardBody,
	errorFromResponse,
	type ErrorWording,
	protocolError,
	send,
	streamErrorFromResponse,
	type PreparedRequest,
} from "../internal/http.js";
import { backoffDelay, DEFAULT_MAX_RETRIES, sleep } from "../internal/retry.js";
import type { BaseArgs, Options, OutputType } from "../types.js";
import { EventStream } from "./event-stream.js";
import { resolveCall, type TaskSpec } from "./resolve.js";

export type { TaskSpec } from "./resolve.js";

/** Options every call may carry besides the public ones: the flag of `request(…, { chatCompletion })`. */
type CallOptions = Options & { chatCompletion?: boolean; outputType?: OutputType };

/** The number of 503 retries: `maxRetries` (default 10; Infinity: no limit), 0 with `retry_on_error: false`. */
function maxRetriesOf(options: Options): number {
	if (options.retry_on_error === false) return 0;
	return checkedNumber(
		options.maxRetries ?? DEFAULT_MAX_RETRIES,
		"maxRetries",
		"a number ≥ 0 (Infinity for no limit)",
		true,
	);
}

/**
 * Sends until the answer is not a 503, or `maxRetries` retries were made. Unlike 3.12.1, which
 * re-sends at once forever, each retry waits (backoff with jitter, or Retry-After, between a floor and
 * a ceiling) and the old body is released; the caller's signal and the timeout end the loop.
 */
async function sendWithRetry(request: PreparedRequest, ctx: CallContext): Promise<Response> {
	const maxRetries = maxRetriesOf(ctx.options);
	for (let attempt = 0; ; attempt++) {
		const response = await send(ctx, request);
		if (response.status !== 503 || attempt >= maxRetries) return response;
		const retryAfter = response.headers.get("retry-after");
		await discardBody(response);
		await sleep(backoffDelay(attempt, retryAfter, ctx.timings.backoff), ctx.signal);
	}
}

/**
 * The non-streaming request: parsed JSON for JSON answers, else a Blob. `wording` (set by
 * `request(…, { chatCompletion: true })`) words 400/404/422/500 answers as 3.12.1's chat error.
 */
async function innerRequest(
	request: PreparedRequest,
	ctx: CallContext,
	wording?: ErrorWording,
): Promise<unknown> {
	const response = await sendWithRetry(request, ctx);
	if (!response.ok) throw await errorFromResponse(response, request, wording);
	try {
		if (response.headers.get("content-type")?.startsWith("application/json")) return await response.json();
		return await response.blob();
	} catch (error) {
		// Malformed JSON stays a SyntaxError (as in 3.12.1); a broken connection says so.
		throw connectionError(request.url, error, ctx.signal, true);
	}
}

/** Sends a streaming request and checks that an event stream came back (3.12.1's errors). */
async function openEventStream(
	request: PreparedRequest,
	ctx: CallContext,
	wording?: ErrorWording,
): Promise<Response> {
	const response = await sendWithRetry(request, ctx);
	if (!response.ok) throw await streamErrorFromResponse(response, request, wording);
	const contentType = response.headers.get("content-type");
	if (!contentType?.startsWith("text/event-stream")) {
		await discardBody(response);
		throw protocolError(
			`Server does not support event stream content type, it returned ${contentType}`,
			response,
			request,
		);
	}
	return response;
}

/**
 * Provider fallback plugs in here: `withProviderFallback` (lib/fallback.ts) passes its runner under
 * this options key, so a task function imported alone carries none of the fallback code.
 */
export const FALLBACK_KEY = Symbol.for("modelhub.inference.fallback");

export interface FallbackRunner {
	run(args: BaseArgs, options: CallOptions, spec: TaskSpec): Promise<unknown>;
	stream(args: BaseArgs, options: CallOptions, spec: TaskSpec): AsyncGenerator<unknown>;
}

function runnerOf(options: CallOptions | undefined): FallbackRunner | undefined {
	return (options as Record<symbol, FallbackRunner | undefined> | undefined)?.[FALLBACK_KEY];
}

/** 3.12.1's chat wording of errors, for `request(…, { chatCompletion: true })` and `streamingRequest`. */
function wordingOf(options: CallOptions | undefined, spec: TaskSpec, server: string | undefined) {
	return options?.chatCompletion ? spec.chatWording?.(String(server), spec.stream) : undefined;
}

/** One whole non-streaming call: resolve, build, send (with retries), parse. */
export async function runTask<TOutput>(
	args: BaseArgs,
	options: CallOptions | undefined,
	spec: TaskSpec,
): Promise<TOutput> {
	const runner = runnerOf(options);
	if (runner) return (await runner.run(args, options as CallOptions, spec)) as TOutput;
	const ctx = createCallContext(options, args.accessToken);
	const outputType = options?.outputType;
	try {
		const call = await resolveCall(args as BaseArgs & Record<string, unknown>, spec, ctx, { outputType });
		const raw = await innerRequest(call.request, ctx, wordingOf(options, spec, call.server));
		if (spec.raw) return raw as TOutput;
		return (await call.helper.getResponse(raw, { ctx, request: call.request, outputType })) as TOutput;
	} catch (error) {
		throw ctx.normalizeError(error);
	} finally {
		ctx.dispose();
	}
}

/**
 * One whole streaming call: every SSE `data` payload JSON-parsed (and, for text generation on
 * OpenAI-style routes, turned into textGenerationStream's chunks), until `[DONE]` or the end of the
 * body. Nothing happens before the first `next()`, as with 3.12.1's generator (the timeout starts
 * then too, and an invalid option is reported then).
 */
export function streamTask<TChunk>(
	args: BaseArgs,
	options: CallOptions | undefined,
	spec: TaskSpec,
): AsyncGenerator<TChunk> {
	const runner = runnerOf(options);
	if (runner) return runner.stream(args, options as CallOptions, spec) as AsyncGenerator<TChunk>;
	return new EventStream<TChunk>(
		async (ctx) => {
			const call = await resolveCall(
				args as BaseArgs & Record<string, unknown>,
				{ ...spec, stream: true },
				ctx,
			);
			const response = await openEventStream(call.request, ctx, wordingOf(options, spec, call.server));
			const transform = spec.raw ? undefined : call.helper.streamChunks?.();
			return { response, request: call.request, transform };
		},
		() => createCallContext(options, args.accessToken),
	);
}
