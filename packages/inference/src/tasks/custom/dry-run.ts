/**
 * The dry run's own steps, shared by `prepareRequest` / `prepareRequestSync` and by the snippet
 * generator, which has already picked the provider's helper and hands it over as a one-entry spec
 * (so the helper is chosen once). Internal: not exported by the package.
 */
import { InferenceInputError } from "../../core/errors.js";
import { createCallContext } from "../../internal/context.js";
import { normalizeProviderMapping } from "../../lib/provider-mapping.js";
import { resolveCallSync, type Given, type ResolvedCall, type TaskSpec } from "../../lib/resolve.js";
import type { CallArgs } from "../../providers/types.js";
import type { InferenceProvider, InferenceProviderMappingEntry, InferenceTask } from "../../types.js";
import type { PrepareRequestOptions, PreparedInferenceRequest } from "./prepareRequest.js";

/** The mapping option as a list; a lone entry without `provider` is for the call's provider. */
function givenMapping(args: CallArgs, options: PrepareRequestOptions): Given["mapping"] {
	const raw = options.inferenceProviderMapping;
	if (raw === undefined) return undefined;
	const model = args.model ?? "";
	if (!Array.isArray(raw) && typeof (raw as { providerId?: unknown }).providerId === "string") {
		const entry = raw as Omit<InferenceProviderMappingEntry, "hfModelId">;
		const provider = entry.provider ?? args.provider;
		if (!provider || provider === "auto") {
			throw new InferenceInputError(
				"prepareRequest: a mapping entry without `provider` needs the call's provider in args.provider.",
			);
		}
		return normalizeProviderMapping(model, [{ ...entry, provider }]);
	}
	const list = normalizeProviderMapping(model, raw);
	if (!list)
		throw new InferenceInputError(
			"prepareRequest: inferenceProviderMapping is neither an object nor a list.",
		);
	return list;
}

export function toPublic(call: ResolvedCall, task: InferenceTask | undefined): PreparedInferenceRequest {
	const { request: prepared } = call;
	const out: PreparedInferenceRequest = {
		url: prepared.url,
		method: prepared.init.method,
		headers: { ...prepared.init.headers },
		body: prepared.init.body as PreparedInferenceRequest["body"],
		provider: call.provider as InferenceProvider | "auto",
		task,
		providerModelId: call.mapping?.providerId ?? call.server,
	};
	const { body } = prepared.init;
	const contentType =
		prepared.init.headers["Content-Type"] ??
		(body instanceof FormData ? "multipart/form-data" : body instanceof Blob ? body.type : undefined);
	if (contentType) out.contentType = contentType;
	if (typeof body === "string") out.json = JSON.parse(body) as unknown;
	if (prepared.init.credentials !== undefined) out.credentials = prepared.init.credentials;
	if (prepared.auth) out.auth = { header: "Authorization", ...prepared.auth };
	if (call.mapping) out.mapping = call.mapping;
	return out;
}

export function given(args: CallArgs, options: PrepareRequestOptions): Given {
	return {
		mapping: givenMapping(args, options),
		authMethod: options.authMethod,
		outputType: options.outputType,
	};
}

const noNetwork: typeof fetch = () =>
	Promise.reject(new InferenceInputError("prepareRequestSync makes no network calls."));

/** The request `spec` would make for `args`, with no I/O at all. */
export function prepareSpecSync(
	spec: TaskSpec,
	args: CallArgs,
	options: PrepareRequestOptions,
): PreparedInferenceRequest {
	const { timeout: _timeout, signal: _signal, ...rest } = options;
	const ctx = createCallContext({ ...rest, fetch: noNetwork });
	try {
		return toPublic(resolveCallSync(args, spec, ctx, given(args, options)), spec.task);
	} finally {
		ctx.dispose();
	}
}
