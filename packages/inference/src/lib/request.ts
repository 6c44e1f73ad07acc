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
import type { HelperTable, TaskHelper } from "../providers/types.js";
import type { BaseArgs, InferenceTask, Options } from "../types.js";
import { EventStream } from "./event-stream.js";
import { getHelper, prepareRequest, resolveProvider } from "./resolve.js";

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

/** The non-streaming request: parsed JSON for JSON answers, else a Blob. */
export async function innerRequest(request: PreparedRequest, ctx: CallContext): Promise<unknown> {
	const response = await sendWithRetry(request, ctx);
	if (!response.ok) throw await errorFromResponse(response, request);
	if (response.headers.get("content-type")?.startsWith("application/json")) return await response.json();
	return await response.blob();
}

/** Sends a streaming request and checks that an event stream came back (3.12.1's errors). */
async function openEventStream(request: PreparedRequest, ctx: CallContext): Promise<Response> {
	const response = await sendWithRetry(request, ctx);
	if (!response.ok) throw await streamErrorFromResponse(response, request);
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

type TaskArgs = BaseArgs & Record<string, unknown>;

export interface TaskSpec {
	task: InferenceTask | undefined;
	helpers: HelperTable;
	/** Turns the public arguments into the pipeline's (e.g. a Blob input becomes the raw body). */
	prepare?: (args: TaskArgs, helper: TaskHelper) => TaskArgs | Promise<TaskArgs>;
	/** audioToAudio resolves its provider without the endpoint URL, as 3.12.1 does. */
	resolveWithoutEndpointUrl?: boolean;
	outputType?: "url" | "blob";
	/** `request()`: hand back the raw body without the helper's parsing. */
	raw?: boolean;
}

async function resolveHelper(publicArgs: BaseArgs, spec: TaskSpec, ctx: CallContext) {
	const args = publicArgs as TaskArgs;
	const endpointUrl = spec.resolveWithoutEndpointUrl ? undefined : args.endpointUrl;
	const provider = await resolveProvider(args.provider, args.model, endpointUrl, args.accessToken, ctx);
	const helper = getHelper(provider, spec.task, spec.helpers);
	const payload = spec.prepare ? await spec.prepare(args, helper) : args;
	return { helper, payload };
}

/** One whole non-streaming call: resolve, build, send (with retries), parse. */
export async function runTask<TOutput>(
	args: BaseArgs,
	options: Options | undefined,
	spec: TaskSpec,
): Promise<TOutput> {
	const ctx = createCallContext(options);
	try {
		const { helper, payload } = await resolveHelper(args, spec, ctx);
		const request = await prepareRequest(payload, helper, spec.task, ctx);
		const raw = await innerRequest(request, ctx);
		if (spec.raw) return raw as TOutput;
		return (await helper.getResponse(raw, { ctx, request, outputType: spec.outputType })) as TOutput;
	} catch (error) {
		throw ctx.normalizeError(error);
	} finally {
		ctx.dispose();
	}
}

/**
 * One whole streaming call: every SSE `data` payload JSON-parsed, until `[DONE]` or the end of the
 * body. Nothing happens before the first `next()`, as with 3.12.1's generator.
 */
export function streamTask<TChunk>(
	args: BaseArgs,
	options: Options | undefined,
	spec: TaskSpec,
): AsyncGenerator<TChunk> {
	const ctx = createCallContext(options);
	return new EventStream<TChunk>(async () => {
		const { helper, payload } = await resolveHelper(args, spec, ctx);
		const request = await prepareRequest(payload, helper, spec.task, ctx, true);
		return { response: await openEventStream(request, ctx), request };
	}, ctx);
}
