/**
 * The public dry run: the exact request a task function would send, without sending it.
 *
 * - `prepareRequest(target, args, options)` (async) runs the call's own steps up to the request:
 *   provider choice, input shaping (files read and encoded), model and mapping resolution. It makes
 *   the lookups the call would make when they are not given: the hub mapping (unless
 *   `options.inferenceProviderMapping`), the task's default model (unless `args.model`), and for
 *   zai-org image-to-text the download of an image URL. Nothing is sent to a provider.
 * - `prepareRequestSync(target, args, options)` is pure: no I/O at all. It needs what the async one
 *   would look up: an explicit provider (or an endpoint URL, or chat's auto-routing, or "auto" with a
 *   mapping given), `args.model`, the mapping (not needed for endpoints, openai and chat auto-routing),
 *   and inputs that need no reading (text, JSON, a Blob sent as the raw body, an audio file in a form).
 *   Anything else is an `InferenceInputError` saying what to pass or to use `prepareRequest`.
 *
 * `target` is a task function (`textToImage`, `chatCompletionStream`, `request`, …) or a task id
 * ("text-to-image"; "conversational" and "text-generation" stand for chatCompletion and
 * textGeneration, with `options.stream` for their streaming form; other ids send the arguments as given).
 */
import { InferenceInputError } from "../../core/errors.js";
import { createCallContext, type CallContext } from "../../internal/context.js";
import { resolveCall, type TaskSpec } from "../../lib/resolve.js";
import type { CallArgs } from "../../providers/types.js";
import type {
	HubInferenceProviderMapping,
	InferenceProvider,
	InferenceProviderMappingEntry,
	InferenceTask,
	Options,
	OutputType,
} from "../../types.js";
import { FALLBACK_KEY, type FallbackRunner } from "../../lib/request.js";
import { TASK_FUNCTIONS } from "../functions.js";
import { given, prepareSpecSync, toPublic } from "./dry-run.js";
import { rawSpec } from "../specs.js";
import { request } from "./request.js";
import { streamingRequest } from "./streamingRequest.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any task function, whatever its argument types
type TaskFunction = (args: any, options?: any) => unknown;

export interface PrepareRequestOptions extends Options {
	/** The task, for `request` / `streamingRequest` (as their own `task` option). */
	task?: InferenceTask;
	/**
	 * The model's inference provider mapping, so that it is not fetched: the entry for the call's
	 * provider, or the hub's whole `inferenceProviderMapping` field (object keyed by provider, or list).
	 */
	inferenceProviderMapping?:
		(Omit<InferenceProviderMappingEntry, "hfModelId"> & { hfModelId?: string }) | HubInferenceProviderMapping;
	/** Without a token: show the request routed through the router ("hf-token") or sent directly ("provider-key"). */
	authMethod?: "hf-token" | "provider-key";
	/** textToImage's output type (Together asks for a hosted URL when it is "url"). */
	outputType?: OutputType;
	/** With a task id: the streaming form ("conversational", "text-generation"). */
	stream?: boolean;
}

/** The request a call would send. */
export interface PreparedInferenceRequest {
	url: string;
	method: string;
	/** Exactly the headers sent (Authorization only when a token was given; see `auth`). */
	headers: Record<string, string>;
	/** Exactly the body sent: JSON text, the raw file (Blob / ArrayBuffer / typed array), or a FormData. */
	body: string | Blob | ArrayBuffer | ArrayBufferView | FormData;
	/** The JSON payload before serialisation (JSON bodies only). */
	json?: unknown;
	/** application/json, the file's type, or multipart/form-data (fetch then adds the boundary). */
	contentType?: string;
	/** RequestInit.credentials, from `includeCredentials`. */
	credentials?: RequestCredentials;
	/** How the credential travels (also when no token was given but `authMethod` was). */
	auth?: { header: "Authorization"; scheme: string; method: "hf-token" | "provider-key" };
	/** The provider that serves the call; "auto" for chat's server-side auto-routing. */
	provider: InferenceProvider | "auto";
	task?: InferenceTask;
	/** The model id on the provider's side (the mapping's providerId), or the endpoint URL. */
	providerModelId?: string;
	mapping?: InferenceProviderMappingEntry;
}

type Target = TaskFunction | InferenceTask;

async function* noChunks(): AsyncGenerator<never> {}

/**
 * A task function's spec, from the function itself: every task function hands its spec to the call
 * runner of its options synchronously, before any I/O (lib/request.ts `runTask` / `streamTask`), so
 * a runner that only keeps the spec finds it without a second list of the functions.
 */
function specOfFunction(fn: TaskFunction, options: PrepareRequestOptions): TaskSpec | undefined {
	if (fn === (request as TaskFunction)) return rawSpec(options.task, options.stream);
	if (fn === (streamingRequest as TaskFunction)) return rawSpec(options.task, true);
	let found: TaskSpec | undefined;
	const keepSpec: FallbackRunner = {
		run: (_args, _options, spec) => {
			found = spec;
			return Promise.resolve(undefined);
		},
		stream: (_args, _options, spec) => {
			found = spec;
			return noChunks();
		},
	};
	// Only this package's task functions are called (a function given by mistake is not run).
	if (!(Object.values(TASK_FUNCTIONS) as unknown[]).includes(fn)) return undefined;
	void (fn({}, { [FALLBACK_KEY]: keepSpec }) as unknown);
	return found;
}

/**
 * The specs of the task functions (not `request` / `streamingRequest`), asked of each function once, on
 * the first task id given. Their task ids and stream flags are the registry's (typed `SpecOf<name>` in
 * specs.ts); the registry itself is not read here, so that a bundle of the client does not carry it.
 */
let taskFunctionSpecs: TaskSpec[] | undefined;

function specsOfTaskFunctions(): readonly TaskSpec[] {
	if (taskFunctionSpecs) return taskFunctionSpecs;
	const specs: TaskSpec[] = [];
	for (const fn of Object.values(TASK_FUNCTIONS) as TaskFunction[]) {
		if (fn === (request as TaskFunction) || fn === (streamingRequest as TaskFunction)) continue;
		const spec = specOfFunction(fn, {});
		if (spec) specs.push(spec);
	}
	taskFunctionSpecs = specs;
	return specs;
}

function specOf(target: Target, options: PrepareRequestOptions): TaskSpec {
	if (typeof target === "function") {
		const spec = specOfFunction(target, options);
		if (!spec) throw new InferenceInputError("prepareRequest: not a task function of this package.");
		return spec;
	}
	// A task id stands for its task function (chat and text generation: the streaming one with `stream`).
	for (const spec of specsOfTaskFunctions()) {
		if (spec.task === target && !spec.stream === !options.stream) return spec;
	}
	return rawSpec(target, options.stream);
}

/** The exact request `target(args, options)` would send; may look up the mapping and default model (see above). */
export async function prepareRequest<F extends TaskFunction>(
	target: F | InferenceTask,
	args: F extends TaskFunction ? Parameters<F>[0] : CallArgs,
	options: PrepareRequestOptions = {},
): Promise<PreparedInferenceRequest> {
	const spec = specOf(target, options);
	const ctx: CallContext = createCallContext(options);
	try {
		const call = await resolveCall(args as CallArgs, spec, ctx, given(args as CallArgs, options));
		return toPublic(call, spec.task);
	} catch (error) {
		throw ctx.normalizeError(error);
	} finally {
		ctx.dispose();
	}
}

/** The exact request `target(args, options)` would send, with no I/O at all (see above for what it needs). */
export function prepareRequestSync<F extends TaskFunction>(
	target: F | InferenceTask,
	args: F extends TaskFunction ? Parameters<F>[0] : CallArgs,
	options: PrepareRequestOptions = {},
): PreparedInferenceRequest {
	return prepareSpecSync(specOf(target, options), args as CallArgs, options);
}
