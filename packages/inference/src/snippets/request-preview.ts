/**
 * The request a snippet shows, built synchronously by the client's own pieces: the helper table
 * (`PROVIDER_REGISTRY` + `getHelper`, with the client's errors) and `buildRequest` (auth method,
 * routed or direct URL, Authorization form, headers, JSON body). Snippets therefore cannot drift from
 * what `@modelhub/inference` really sends.
 */
import { getRouterUrl } from "../config.js";
import { buildRequest, getHelper } from "../lib/resolve.js";
import { PROVIDER_REGISTRY } from "../providers/registry.js";
import type { HelperTable, TaskHelper } from "../providers/types.js";
import type { InferenceProviderMappingEntry, InferenceTask } from "../types.js";

/** Where a snippet's credentials come from: the token the caller gave, or an environment variable. */
export type TokenSource =
	| { kind: "literal"; value: string }
	/** `providerKey`: a provider's own key (direct call), else a hub token (routed call). */
	| { kind: "env"; name: string; providerKey: boolean };

/** The Authorization value split around the token, e.g. `Key ` + token for fal.ai keys. */
export interface AuthorizationValue {
	prefix: string;
	token: TokenSource;
	suffix: string;
}

export interface RequestPreview {
	url: string;
	method: string;
	authorization?: AuthorizationValue;
	/** The other headers, in the client's order (User-Agent left out: it names the client itself). */
	headers: Array<[name: string, value: string]>;
	/** The JSON body the client sends, parsed; undefined when the body is raw bytes. */
	body?: unknown;
	binary: boolean;
}

/** Stands for the token while the client builds the request; never reaches a snippet. */
const TOKEN_MARK = "\u0000modelhub-snippet:token\u0000";
const HUB_TOKEN_ENV = "HF_TOKEN";
const EMPTY_BODY = new Uint8Array(0);

/** A raw-bytes body for tasks whose input is a file, so the client takes its binary path. */
export function binaryPlaceholder(): Uint8Array {
	return EMPTY_BODY;
}

/** `TOGETHER_API_KEY`, `FAL_AI_API_KEY`, `BLACK_FOREST_LABS_API_KEY`, ... */
export function providerKeyEnvName(provider: string): string {
	return `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`;
}

/** The client's helper for (provider, task); throws the client's own errors. */
export function findHelper(provider: string, task: InferenceTask): TaskHelper {
	const table: HelperTable = {};
	if (Object.prototype.hasOwnProperty.call(PROVIDER_REGISTRY, provider)) {
		const helper = PROVIDER_REGISTRY[provider as keyof typeof PROVIDER_REGISTRY][task];
		if (helper) table[provider as keyof HelperTable] = helper;
	}
	return getHelper(provider, task, table);
}

/**
 * A token given is used as given (and decides routed vs direct, like the client). Without one the
 * snippet reads it from the environment: a provider key for providers the hub does not route
 * (openai) or when a direct call was asked for, else the hub token.
 */
export function chooseTokenSource(
	helper: TaskHelper,
	accessToken: string | undefined,
	directRequest: boolean,
): TokenSource {
	if (accessToken) return { kind: "literal", value: accessToken };
	const provider = helper.provider;
	if (provider.clientSideRoutingOnly || (directRequest && !provider.alwaysRouted)) {
		return { kind: "env", name: providerKeyEnvName(provider.id), providerKey: true };
	}
	return { kind: "env", name: HUB_TOKEN_ENV, providerKey: false };
}

/** The provider-side model id, as the client resolves it (openai ids lose their "openai/" prefix). */
export function providerModelIdFor(
	helper: TaskHelper,
	modelId: string,
	mapping: InferenceProviderMappingEntry | undefined,
): string {
	if (mapping?.providerId !== undefined) return mapping.providerId;
	const prefix = `${helper.provider.id}/`;
	if (helper.provider.clientSideRoutingOnly && modelId.startsWith(prefix))
		return modelId.slice(prefix.length);
	return modelId;
}

export interface PreviewParams {
	helper: TaskHelper;
	task: InferenceTask;
	providerModelId: string;
	mapping?: InferenceProviderMappingEntry;
	/** The task arguments as the client's request builder receives them (after the task's own input shaping). */
	args: Record<string, unknown>;
	token: TokenSource;
	billTo?: string;
	streaming: boolean;
}

/** Splits the client's Authorization value around the token it was given. */
function splitAuthorization(value: string, token: TokenSource, sentToken: string): AuthorizationValue {
	const at = value.indexOf(sentToken);
	if (at < 0) return { prefix: value, token: { kind: "literal", value: "" }, suffix: "" };
	return { prefix: value.slice(0, at), token, suffix: value.slice(at + sentToken.length) };
}

/** Builds the request with the client's `buildRequest`, then reads it back as data. */
export function previewRequest(params: PreviewParams): RequestPreview {
	const { token } = params;
	const accessToken =
		token.kind === "literal" ? token.value : token.providerKey ? TOKEN_MARK : `hf_${TOKEN_MARK}`;
	const prepared = buildRequest({
		helper: params.helper,
		resolvedModel: params.providerModelId,
		args: { ...params.args, accessToken },
		task: params.task,
		mapping: params.mapping,
		options: params.billTo ? { billTo: params.billTo } : {},
		routerUrl: getRouterUrl(),
		streaming: params.streaming,
	});
	const headers: Array<[string, string]> = [];
	let authorization: AuthorizationValue | undefined;
	for (const [name, value] of Object.entries(prepared.init.headers)) {
		if (name === "Authorization") authorization = splitAuthorization(value, token, accessToken);
		else if (name !== "User-Agent") headers.push([name, value]);
	}
	const rawBody = prepared.init.body;
	const binary = typeof rawBody !== "string";
	return {
		url: prepared.url,
		method: prepared.init.method,
		authorization,
		headers,
		body: binary ? undefined : (JSON.parse(rawBody) as unknown),
		binary,
	};
}
