/**
 * From a task call's arguments to the exact request: provider resolution (`auto`, endpoints, the
 * router's own auto-routing for chat), helper lookup, input shaping, model and mapping resolution, and
 * the request itself — in 3.12.1's order, so that the same error wins.
 *
 * The steps are written once, as a generator that yields each lookup it needs (the model's mapping,
 * the task's default model, an input file to read). `resolveCall` performs them (network allowed);
 * `resolveCallSync` takes them from what the caller gave and refuses the rest — the public dry runs
 * `prepareRequest` / `prepareRequestSync` and the calls themselves all go through the same steps.
 */
import { InferenceHubError, InferenceInputError } from "../core/errors.js";
import type { CallContext } from "../internal/context.js";
import type { ErrorWording, PreparedRequest, RequestAuth } from "../internal/http.js";
import { joinUrl, looksLikeUrl } from "../internal/url.js";
import { isKnownProvider, PROVIDER_TASKS } from "../providers/catalog.js";
import type { CallArgs, HelperTable, TaskHelper } from "../providers/types.js";
import type {
	AuthMethod,
	InferenceProviderMappingEntry,
	InferenceTask,
	Options,
	OutputType,
} from "../types.js";
import { PACKAGE_NAME, PACKAGE_VERSION } from "../version.js";
import { getDefaultModel } from "./default-model.js";
import { fetchProviderMapping, pickMappingEntry, type ProviderMappingList } from "./provider-mapping.js";

export const AUTO_NOTICE =
	"Defaulting to 'auto' which will select the first provider available for the model, sorted by the user's order in https://hf.co/settings/inference-providers.";

/** How one task function runs: its task, its providers' helpers, its input shaping. */
export interface TaskSpec {
	task: InferenceTask | undefined;
	helpers: HelperTable;
	/** The task's own input shaping, for providers without one of their own (a Blob becomes the raw body). */
	shape?: (args: CallArgs) => CallArgs | Promise<CallArgs>;
	/** audioToAudio resolves its provider without the endpoint URL, as 3.12.1 does. */
	resolveWithoutEndpointUrl?: boolean;
	/** `request()` / `streamingRequest()`: arguments sent as given, answer handed back raw. */
	raw?: boolean;
	/** Streaming calls add `stream: true` to the body. */
	stream?: boolean;
	/** Chat: without a provider (or with "auto") the router's own auto-routing serves the call. */
	autoRouter?: TaskHelper;
	/** `request()` / `streamingRequest()`: 3.12.1's chat wording of errors under `{ chatCompletion: true }`. */
	chatWording?: (server: string, stream: boolean | undefined) => ErrorWording;
}

/** What a dry run may be given instead of looking it up. */
export interface Given {
	/** The model's mapping; when given the hub is not asked. */
	mapping?: ProviderMappingList;
	/** Routing to show when no token is given: through the router, or direct with a provider key. */
	authMethod?: "hf-token" | "provider-key";
	outputType?: OutputType;
}

/** A lookup the steps need: performed by `resolveCall`, taken from `Given` (or refused) by `resolveCallSync`. */
type Lookup =
	| { kind: "mapping"; model: string; token: string | undefined }
	| { kind: "default-model"; task: InferenceTask }
	| { kind: "shape"; value: CallArgs | Promise<CallArgs>; provider: string; task: InferenceTask | undefined };

export interface ResolvedCall {
	request: PreparedRequest;
	helper: TaskHelper;
	/** The provider that serves the call ("auto" for the router's auto-routing). */
	provider: string;
	mapping?: InferenceProviderMappingEntry;
	/** The hub model id or endpoint URL named in 3.12.1's chat error message. */
	server: string | undefined;
}

/** The helper for (provider, task), with 3.12.1's errors. */
export function getHelper(provider: string, task: InferenceTask | undefined, table: HelperTable): TaskHelper {
	if (provider === "hf-inference" && !task) {
		const generic = table["hf-inference"];
		if (generic && generic.task === undefined) return generic;
	}
	if (!task) {
		throw new InferenceInputError(
			"you need to provide a task name when using an external provider, e.g. 'text-to-image'",
		);
	}
	if (!isKnownProvider(provider)) {
		throw new InferenceInputError(
			`Provider '${provider}' not supported. Available providers: ${Object.keys(PROVIDER_TASKS).join(",")}`,
		);
	}
	const tasks = PROVIDER_TASKS[provider] as readonly InferenceTask[];
	const helper = table[provider];
	if (!tasks.includes(task) || !helper) {
		throw new InferenceInputError(
			`Task '${task}' not supported for provider '${provider}'. Available tasks: ${tasks.join(",")}`,
		);
	}
	return helper;
}

function getAuthMethod(
	helper: TaskHelper,
	accessToken: string | undefined,
	options: Options,
	given?: "hf-token" | "provider-key",
): AuthMethod {
	if (helper.provider.clientSideRoutingOnly) {
		if (accessToken?.startsWith("hf_")) {
			throw new InferenceInputError(
				`Provider ${helper.provider.id} is closed-source and does not support HF tokens.`,
			);
		}
		return "provider-key";
	}
	if (accessToken) return accessToken.startsWith("hf_") ? "hf-token" : "provider-key";
	if (given) return given;
	return options.includeCredentials === "include" ? "credentials-include" : "none";
}

function userAgent(): string {
	const agent = `${PACKAGE_NAME}/${PACKAGE_VERSION}`;
	const nav = (globalThis as { navigator?: { userAgent?: string } }).navigator;
	return nav?.userAgent ? `${agent} ${nav.userAgent}` : agent;
}

export interface BuildParams {
	helper: TaskHelper;
	/** Provider-side model id (mapping.providerId), or for endpoint calls the model or endpoint URL. */
	resolvedModel: string;
	args: CallArgs;
	task: InferenceTask | undefined;
	mapping?: InferenceProviderMappingEntry;
	options: Options;
	routerUrl: string;
	streaming?: boolean;
	given?: Given;
}

/** Auth method, URL, headers, body and RequestInit for a model already resolved: synchronous, no I/O. */
export function buildRequest(params: BuildParams): PreparedRequest {
	const { helper, resolvedModel, task, mapping, options, given } = params;
	const { accessToken, endpointUrl, provider: _provider, model: _model, ...rest } = params.args;
	const provider = helper.provider;
	const authMethod = getAuthMethod(helper, accessToken, options, given?.authMethod);

	const routedBase = `${params.routerUrl}/${provider.id}`;
	const baseUrl =
		authMethod === "provider-key" && !provider.alwaysRouted
			? (helper.baseUrl ?? provider.baseUrl)
			: routedBase;
	const urlParams = {
		authMethod,
		model: endpointUrl ?? resolvedModel,
		task,
		baseUrl,
		routerUrl: params.routerUrl,
		args: rest,
	};
	const url = helper.makeUrl ? helper.makeUrl(urlParams) : joinUrl(baseUrl, helper.makeRoute(urlParams));

	const binary = !helper.multipart && Boolean(rest.data);
	const scheme = authMethod === "provider-key" ? (provider.keyScheme ?? "Bearer") : "Bearer";
	const auth: RequestAuth | undefined =
		authMethod === "hf-token" || authMethod === "provider-key" ? { scheme, method: authMethod } : undefined;
	const headers: Record<string, string> = {};
	// 3.12.1 sends "Bearer undefined" without a token; we send no Authorization at all.
	if (accessToken) headers.Authorization = `${scheme} ${accessToken}`;
	if ((!binary && !helper.multipart) || helper.forceJsonContentType)
		headers["Content-Type"] = "application/json";
	if (options.billTo) headers["X-HF-Bill-To"] = options.billTo;
	headers["User-Agent"] = userAgent();
	if (provider.extraHeaders) Object.assign(headers, provider.extraHeaders);

	const bodyArgs = params.streaming ? { ...rest, stream: true } : rest;
	let body: BodyInit;
	if (binary) {
		body = rest.data as Blob | ArrayBuffer;
	} else {
		const payload = helper.makeBody({
			args: bodyArgs,
			model: resolvedModel,
			mapping,
			task,
			outputType: given?.outputType,
		});
		body = helper.multipart ? (payload as FormData) : JSON.stringify(payload);
	}

	const init: PreparedRequest["init"] = { headers, method: "POST", body };
	if (typeof options.includeCredentials === "string")
		init.credentials = options.includeCredentials as RequestCredentials;
	else if (options.includeCredentials === true) init.credentials = "include";
	return { url, init, auth };
}

/** The steps, yielding each lookup; see the module comment. */
function* plan(
	publicArgs: CallArgs,
	spec: TaskSpec,
	ctx: CallContext,
	given: Given,
): Generator<Lookup, ResolvedCall, unknown> {
	const task = spec.task;
	const endpointUrl = spec.resolveWithoutEndpointUrl ? undefined : publicArgs.endpointUrl;

	// 1. The provider: endpoint, explicit, the router's auto-routing (chat), or the first mapped one.
	let providerId: string;
	let autoRouted = false;
	if (endpointUrl) {
		if (publicArgs.provider)
			throw new InferenceInputError("Specifying both endpointUrl and provider is not supported.");
		providerId = "hf-inference";
	} else {
		let policy: string | undefined = publicArgs.provider;
		if (!policy) {
			console.log(AUTO_NOTICE);
			policy = "auto";
		}
		if (policy === "auto" && spec.autoRouter && !publicArgs.endpointUrl) {
			autoRouted = true;
			providerId = "auto";
		} else if (policy === "auto") {
			const model = publicArgs.model;
			if (!model) throw new InferenceInputError("Specifying a model is required when provider is 'auto'");
			const mapping = (given.mapping ??
				(yield { kind: "mapping", model, token: publicArgs.accessToken })) as ProviderMappingList;
			const first = mapping[0]?.provider;
			if (!first) throw new InferenceHubError(`No Inference Provider available for model ${model}.`);
			providerId = first;
		} else {
			providerId = policy;
		}
	}
	const helper = autoRouted ? (spec.autoRouter as TaskHelper) : getHelper(providerId, task, spec.helpers);

	// 2. Input shaping: the provider's own, else the task's; none for request().
	let args = publicArgs;
	if (!spec.raw) {
		const shaper = helper.prepare ?? spec.shape;
		if (shaper) {
			const value = helper.prepare
				? helper.prepare(publicArgs, ctx)
				: (spec.shape as NonNullable<TaskSpec["shape"]>)(publicArgs);
			args = (yield { kind: "shape", value, provider: providerId, task }) as CallArgs;
		}
	}

	// 3. Input checks, model and mapping.
	const common = {
		helper,
		args,
		task,
		options: ctx.options,
		routerUrl: ctx.routerUrl,
		streaming: spec.stream,
		given,
	};
	if (args.endpointUrl && helper.provider.id !== "hf-inference") {
		throw new InferenceInputError("Cannot use endpointUrl with a third-party provider.");
	}
	if (args.model && looksLikeUrl(args.model)) {
		throw new InferenceInputError("Model URLs are no longer supported. Use endpointUrl instead.");
	}
	if (args.endpointUrl) {
		const request = buildRequest({ ...common, resolvedModel: args.model ?? args.endpointUrl });
		return { request, helper, provider: providerId, server: args.model ?? args.endpointUrl };
	}
	if (!args.model && !task)
		throw new InferenceInputError("No model provided, and no task has been specified.");
	const model = args.model ?? ((yield { kind: "default-model", task: task as InferenceTask }) as string);

	let mapping: InferenceProviderMappingEntry;
	if (autoRouted) {
		// The router resolves the plain hub id itself (huggingface.js 4.13.28): no lookup.
		mapping = {
			provider: "auto",
			hfModelId: model,
			providerId: model,
			status: "live",
			task: "conversational",
		};
	} else if (helper.provider.clientSideRoutingOnly) {
		if (!args.model)
			throw new InferenceInputError(`Provider ${providerId} requires a model ID to be passed directly.`);
		const prefix = `${providerId}/`;
		if (!model.startsWith(prefix)) {
			throw new InferenceInputError(
				`Models from ${providerId} must be prefixed by "${prefix}". Got "${model}".`,
			);
		}
		mapping = {
			provider: providerId,
			hfModelId: model,
			providerId: model.slice(prefix.length),
			status: "live",
			task: task as InferenceTask,
		};
	} else {
		const list = (given.mapping ??
			(yield { kind: "mapping", model, token: args.accessToken })) as ProviderMappingList;
		mapping = pickMappingEntry(list, { modelId: model, provider: providerId, task });
	}
	const request = buildRequest({ ...common, resolvedModel: mapping.providerId, mapping });
	return { request, helper, provider: providerId, mapping, server: model };
}

/** Resolves a call, performing the lookups it needs (the hub mapping, default model, input files). */
export async function resolveCall(
	args: CallArgs,
	spec: TaskSpec,
	ctx: CallContext,
	given: Given = {},
): Promise<ResolvedCall> {
	const steps = plan(args, spec, ctx, given);
	let step = steps.next();
	while (!step.done) {
		const lookup = step.value;
		let value: unknown;
		if (lookup.kind === "mapping") value = await fetchProviderMapping(lookup.model, lookup.token, ctx);
		else if (lookup.kind === "default-model") value = await getDefaultModel(lookup.task, ctx);
		else value = await lookup.value;
		step = steps.next(value);
	}
	return step.value;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
	return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** Resolves a call from what was given, without any I/O: a lookup that would be needed is an error. */
export function resolveCallSync(
	args: CallArgs,
	spec: TaskSpec,
	ctx: CallContext,
	given: Given,
): ResolvedCall {
	const steps = plan(args, spec, ctx, given);
	let step = steps.next();
	while (!step.done) {
		const lookup = step.value;
		if (lookup.kind === "mapping") {
			throw new InferenceInputError(
				`prepareRequestSync needs the inference provider mapping of ${lookup.model}: pass it as the inferenceProviderMapping option, or use prepareRequest, which fetches it.`,
			);
		}
		if (lookup.kind === "default-model") {
			throw new InferenceInputError(
				`prepareRequestSync needs a model for ${lookup.task}: pass args.model, or use prepareRequest, which looks up the task's default model.`,
			);
		}
		if (isThenable(lookup.value)) {
			(lookup.value as Promise<unknown>).then(undefined, () => undefined);
			throw new InferenceInputError(
				`prepareRequestSync cannot read the input file of ${lookup.task} for ${lookup.provider}: use prepareRequest.`,
			);
		}
		step = steps.next(lookup.value);
	}
	return step.value;
}
