import { createCallContext, type CallContext } from "../internal/context.js";
import {
	discardBody,
	errorFromResponse,
	protocolError,
	send,
	streamErrorFromResponse,
	type PreparedRequest,
} from "../internal/http.js";
import { backoffDelay, sleep } from "../internal/retry.js";
import type { BaseArgs, Options, OutputType } from "../types.js";
import { EventStream } from "./event-stream.js";
import { resolveCall, type TaskSpec } from "./resolve.js";

export type { TaskSpec } from "./resolve.js";

/** Options every call may carry besides the public ones: the flag of `request(…, { chatCompletion })`. */
type CallOptions = Options & { chatCompletion?: boolean; outputType?: OutputType };

/**
 * Sends until the answer is not a 503 (or retries are off). Unlike 3.12.1, which re-sends at
 * once forever, each retry waits (backoff with jitter, or Retry-After) and the old body is released;
 * the caller's signal and the timeout end the loop.
 */
async function sendWithRetry(request: PreparedRequest, ctx: CallContext): Promise<Response> {
	for (let attempt = 0; ; attempt++) {
		const response = await send(ctx, request);
		if (response.status !== 503 || ctx.options.retry_on_error === false) return response;
		const retryAfter = response.headers.get("retry-after");
		await discardBody(response);
		await sleep(backoffDelay(attempt, retryAfter, ctx.timings.backoff), ctx.signal);
	}
}

/**
 * The non-streaming request: parsed JSON for JSON answers, else a Blob. `chatServer` (set by
 * `request(…, { chatCompletion: true })`) words 400/404/422/500 answers as 3.12.1's chat error.
 */
export async function innerRequest(
	request: PreparedRequest,
	ctx: CallContext,
	chatServer?: string,
): Promise<unknown> {
	const response = await sendWithRetry(request, ctx);
	if (!response.ok) throw await errorFromResponse(response, request, chatServer);
	if (response.headers.get("content-type")?.startsWith("application/json")) return await response.json();
	return await response.blob();
}

/** Sends a streaming request and checks that an event stream came back (3.12.1's errors). */
async function openEventStream(
	request: PreparedRequest,
	ctx: CallContext,
	chatServer?: string,
): Promise<Response> {
	const response = await sendWithRetry(request, ctx);
	if (!response.ok) throw await streamErrorFromResponse(response, request, chatServer);
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

/** The server named in 3.12.1's chat error (the hub model id, or the endpoint URL), when the flag is set. */
function chatServerOf(options: CallOptions | undefined, server: string | undefined): string | undefined {
	return options?.chatCompletion ? String(server) : undefined;
}

/** One whole non-streaming call: resolve, build, send (with retries), parse. */
export async function runTask<TOutput>(
	args: BaseArgs,
	options: CallOptions | undefined,
	spec: TaskSpec,
): Promise<TOutput> {
	const ctx = createCallContext(options);
	const outputType = options?.outputType;
	try {
		const call = await resolveCall(args as BaseArgs & Record<string, unknown>, spec, ctx, { outputType });
		const raw = await innerRequest(call.request, ctx, chatServerOf(options, call.server));
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
 * body. Nothing happens before the first `next()`, as with 3.12.1's generator.
 */
export function streamTask<TChunk>(
	args: BaseArgs,
	options: CallOptions | undefined,
	spec: TaskSpec,
): AsyncGenerator<TChunk> {
	const ctx = createCallContext(options);
	return new EventStream<TChunk>(async () => {
		const call = await resolveCall(
			args as BaseArgs & Record<string, unknown>,
			{ ...spec, stream: true },
			ctx,
		);
		const response = await openEventStream(call.request, ctx, chatServerOf(options, call.server));
		const transform = spec.raw ? undefined : call.helper.streamChunks?.();
		return { response, request: call.request, transform };
	}, ctx);
}
