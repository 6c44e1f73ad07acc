import { InferenceHubError, InferenceInputError } from "../core/errors.js";
import type { CallContext } from "../internal/context.js";
import type { PreparedRequest } from "../internal/http.js";
import { joinUrl, looksLikeUrl } from "../internal/url.js";
import { isKnownProvider, PROVIDER_TASKS } from "../providers/ids.js";
import type { HelperTable, TaskHelper } from "../providers/types.js";
import type {
	AuthMethod,
	BaseArgs,
	InferenceProvider,
	InferenceProviderMappingEntry,
	InferenceTask,
	ModelId,
	Options,
} from "../types.js";
import { PACKAGE_NAME, PACKAGE_VERSION } from "../version.js";
import { getDefaultModel } from "./default-model.js";
import { fetchProviderMapping, getProviderMappingEntry } from "./provider-mapping.js";

const AUTO_NOTICE =
	"Defaulting to 'auto' which will select the first provider available for the model, sorted by the user's order in https://hf.co/settings/inference-providers.";

/** Pipeline step 1: the provider id from `provider`, `endpointUrl` and the `auto` policy. */
export async function resolveProvider(
	provider: string | undefined,
	model: ModelId | undefined,
	endpointUrl: string | undefined,
	accessToken: string | undefined,
	ctx: CallContext,
): Promise<string> {
	if (endpointUrl) {
		if (provider) throw new InferenceInputError("Specifying both endpointUrl and provider is not supported.");
		return "hf-inference";
	}
	let policy = provider;
	if (!policy) {
		console.log(AUTO_NOTICE);
		policy = "auto";
	}
	if (policy !== "auto") return policy;
	if (!model) throw new InferenceInputError("Specifying a model is required when provider is 'auto'");
	const mapping = await fetchProviderMapping(model, accessToken, ctx);
	const first = Object.keys(mapping)[0];
	if (!first) throw new InferenceHubError(`No Inference Provider available for model ${model}.`);
	return first;
}

/** Pipeline step 2: the helper for (provider, task), with 3.12.1's errors. */
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
	const tasks = PROVIDER_TASKS[provider];
	const helper = table[provider];
	if (!tasks.includes(task) || !helper) {
		throw new InferenceInputError(
			`Task '${task}' not supported for provider '${provider}'. Available tasks: ${tasks.join(",")}`,
		);
	}
	return helper;
}

/** Pipeline step 6. */
export function getAuthMethod(
	helper: TaskHelper,
	accessToken: string | undefined,
	options: Options,
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
	return options.includeCredentials === "include" ? "credentials-include" : "none";
}

export interface BuildParams {
	helper: TaskHelper;
	/** Provider-side model id (mapping.providerId), or for endpoint calls the model or endpoint URL. */
	resolvedModel: string;
	args: BaseArgs & Record<string, unknown>;
	task: InferenceTask | undefined;
	mapping?: InferenceProviderMappingEntry;
	options: Options;
	routerUrl: string;
	streaming?: boolean;
}

function userAgent(): string {
	const agent = `${PACKAGE_NAME}/${PACKAGE_VERSION}`;
	const nav = (globalThis as { navigator?: { userAgent?: string } }).navigator;
	return nav?.userAgent ? `${agent} ${nav.userAgent}` : agent;
}

/**
 * Pipeline steps 6–10, synchronous: auth method, URL, headers, body and RequestInit for a model
 * already resolved. Also what snippet generation uses to show the real request.
 */
export function buildRequest(params: BuildParams): PreparedRequest {
	const { helper, resolvedModel, task, mapping, options } = params;
	const { accessToken, endpointUrl, provider: _provider, model: _model, ...rest } = params.args;
	const provider = helper.provider;
	const authMethod = getAuthMethod(helper, accessToken, options);

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
	};
	const url = helper.makeUrl ? helper.makeUrl(urlParams) : joinUrl(baseUrl, helper.makeRoute(urlParams));

	const binary = Boolean(rest.data);
	const headers: Record<string, string> = {};
	// 3.12.1 sends "Bearer undefined" without a token; we send no Authorization at all.
	if (accessToken) {
		headers.Authorization = provider.authHeader
			? provider.authHeader(accessToken, authMethod)
			: `Bearer ${accessToken}`;
	}
	if (!binary || helper.forceJsonContentType) headers["Content-Type"] = "application/json";
	if (options.billTo) headers["X-HF-Bill-To"] = options.billTo;
	headers["User-Agent"] = userAgent();
	if (provider.extraHeaders) Object.assign(headers, provider.extraHeaders);

	let body: BodyInit;
	if (binary) {
		body = rest.data as Blob | ArrayBuffer;
	} else {
		const bodyArgs = params.streaming ? { ...rest, stream: true } : rest;
		body = JSON.stringify(helper.makeBody({ args: bodyArgs, model: resolvedModel, mapping, task }));
	}

	const init: PreparedRequest["init"] = { headers, method: "POST", body };
	if (typeof options.includeCredentials === "string")
		init.credentials = options.includeCredentials as RequestCredentials;
	else if (options.includeCredentials === true) init.credentials = "include";
	return { url, init, token: accessToken };
}

/**
 * Pipeline steps 3–10 for a helper already chosen: input checks, model and mapping resolution, then
 * the request itself.
 */
export async function prepareRequest(
	args: BaseArgs & Record<string, unknown>,
	helper: TaskHelper,
	task: InferenceTask | undefined,
	ctx: CallContext,
	streaming = false,
): Promise<PreparedRequest & { mapping?: InferenceProviderMappingEntry }> {
	const { endpointUrl, accessToken } = args;
	const providerId = helper.provider.id as InferenceProvider;
	if (endpointUrl && providerId !== "hf-inference") {
		throw new InferenceInputError("Cannot use endpointUrl with a third-party provider.");
	}
	if (args.model && looksLikeUrl(args.model)) {
		throw new InferenceInputError("Model URLs are no longer supported. Use endpointUrl instead.");
	}
	const common = { helper, args, task, options: ctx.options, routerUrl: ctx.routerUrl, streaming };
	if (endpointUrl) {
		return buildRequest({ ...common, resolvedModel: args.model ?? endpointUrl });
	}

	if (!args.model && !task)
		throw new InferenceInputError("No model provided, and no task has been specified.");
	const model = args.model ?? (await getDefaultModel(task as InferenceTask, ctx));

	let mapping: InferenceProviderMappingEntry;
	if (helper.provider.clientSideRoutingOnly) {
		if (!args.model)
			throw new InferenceInputError(`Provider ${providerId} requires a model ID to be passed directly.`);
		const prefix = `${providerId}/`;
		if (!model.startsWith(prefix)) {
			throw new InferenceInputError(
				`Models from ${providerId} must be prefixed by "${prefix}". Got "${model}".`,
			);
		}
		mapping = {
			hfModelId: model,
			providerId: model.slice(prefix.length),
			status: "live",
			task: task as InferenceTask,
		};
	} else {
		mapping = await getProviderMappingEntry({ modelId: model, provider: providerId, task, accessToken }, ctx);
	}
	return { ...buildRequest({ ...common, resolvedModel: mapping.providerId, mapping }), mapping };
}
