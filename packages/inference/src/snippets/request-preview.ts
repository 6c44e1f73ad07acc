/**
 * The request a snippet shows, taken from the client's public dry run (`prepareRequestSync`): URL,
 * headers, JSON body, and how the credential travels (`auth`: Bearer / Key / X-Key, routed or direct).
 * No token is invented: without one the dry run is told which routing to show, and the snippet writes
 * an environment lookup after the scheme. Snippets therefore cannot drift from what
 * `@modelhub/inference` really sends.
 */
import { getHelper, type TaskSpec } from "../lib/resolve.js";
import { HELPERS_BY_TASK } from "../providers/by-task.js";
import type { CallArgs, HelperTable, TaskHelper } from "../providers/types.js";
import { prepareSpecSync } from "../tasks/custom/dry-run.js";
import type { InferenceProviderMappingEntry, InferenceTask } from "../types.js";

/** Where a snippet's credentials come from: the token the caller gave, or an environment variable. */
export type TokenSource =
	| { kind: "literal"; value: string }
	/** `providerKey`: a provider's own key (direct call), else a hub token (routed call). */
	| { kind: "env"; name: string; providerKey: boolean };

/** The Authorization value around the token, e.g. `Key ` + token for fal.ai keys. */
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
	/** The JSON body the client sends; undefined when the body is raw bytes or a form. */
	body?: unknown;
	binary: boolean;
	/** A multipart body: the name the client gives the file part, and the text fields in order. */
	form?: { fileName: string; fields: Array<[name: string, value: string]> };
	/** The model id on the provider's side, as the client resolved it. */
	providerModelId: string;
}

const HUB_TOKEN_ENV = "HF_TOKEN";
const EMPTY_BODY = /* @__PURE__ */ new Uint8Array(0);

/** A raw-bytes body for tasks whose input is a file, so the client takes its binary path. */
export function binaryPlaceholder(): Uint8Array {
	return EMPTY_BODY;
}

/** The file of a multipart upload, typed like the example file (the client names the part from the type). */
export function multipartPlaceholder(type: string): Blob {
	return new Blob([], { type });
}

function readForm(form: FormData): RequestPreview["form"] {
	let fileName = "file";
	const fields: Array<[string, string]> = [];
	for (const [name, value] of form.entries()) {
		if (typeof value === "string") fields.push([name, value]);
		else if (name === "file") fileName = value.name;
	}
	return { fileName, fields };
}

/** `TOGETHER_API_KEY`, `FAL_AI_API_KEY`, `BLACK_FOREST_LABS_API_KEY`, ... */
export function providerKeyEnvName(provider: string): string {
	return `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`;
}

/** The client's helper for (provider, task); throws the client's own errors. */
export function findHelper(provider: string, task: InferenceTask): TaskHelper {
	const tables = HELPERS_BY_TASK as Readonly<Record<string, HelperTable>>;
	const table = Object.prototype.hasOwnProperty.call(tables, task) ? (tables[task] as HelperTable) : {};
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

export interface PreviewParams {
	helper: TaskHelper;
	provider: string;
	task: InferenceTask;
	/** The hub model id. */
	modelId: string;
	mapping?: InferenceProviderMappingEntry;
	/** The task arguments as the client's request builder receives them (after the task's own input shaping). */
	args: Record<string, unknown>;
	token: TokenSource;
	billTo?: string;
	streaming: boolean;
}

/**
 * The client's request for the snippet: the dry run of `request(…, { task })`, given the helper the
 * generator already picked (a one-entry table), so that the provider's helper is chosen once.
 */
export function previewRequest(params: PreviewParams): RequestPreview {
	const { token } = params;
	// Without a mapping the provider-side id is the hub id (as 3.12.1's snippets do); the mapping's own task
	// is not checked here: the snippet's task decides.
	const entry: InferenceProviderMappingEntry = {
		hfModelId: params.modelId,
		providerId: params.modelId,
		status: "live",
		...params.mapping,
		provider: params.provider,
		task: params.task,
	};
	// Providers the router does not serve take "{provider}/{id}" model ids (openai); 3.12.1's snippets
	// also took a bare id, or the mapping's, there.
	const prefix = `${params.provider}/`;
	const model =
		!params.helper.provider.clientSideRoutingOnly || params.modelId.startsWith(prefix)
			? params.modelId
			: `${prefix}${params.mapping?.providerId ?? params.modelId}`;
	const spec: TaskSpec = {
		task: params.task,
		helpers: { [params.provider]: params.helper },
		raw: true,
		stream: params.streaming,
	};
	const prepared = prepareSpecSync(
		spec,
		{
			...params.args,
			provider: params.provider as CallArgs["provider"],
			model,
			accessToken: token.kind === "literal" ? token.value : undefined,
		},
		{
			task: params.task,
			inferenceProviderMapping: entry,
			authMethod: token.kind === "env" ? (token.providerKey ? "provider-key" : "hf-token") : undefined,
			billTo: params.billTo,
			stream: params.streaming,
		},
	);
	const headers: Array<[string, string]> = [];
	for (const [name, value] of Object.entries(prepared.headers)) {
		if (name !== "Authorization" && name !== "User-Agent") headers.push([name, value]);
	}
	const authorization = prepared.auth ? { prefix: `${prepared.auth.scheme} `, token, suffix: "" } : undefined;
	const form = prepared.body instanceof FormData ? readForm(prepared.body) : undefined;
	return {
		url: prepared.url,
		method: prepared.method,
		authorization,
		headers,
		body: prepared.json,
		binary: prepared.json === undefined && !form,
		form,
		providerModelId: prepared.providerModelId ?? params.modelId,
	};
}
