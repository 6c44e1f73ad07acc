import type { PipelineType } from "@modelhub/tasks";
import { isReservedSection } from "../app-sections";
import { ApiError, apiUrl, encodeModelId, getJson, type ApiOptions } from "./http";

/** A model as listed by `GET /api/models`. */
export interface ModelSummary {
	id: string;
	author?: string;
	pipeline_tag?: PipelineType;
	library_name?: string;
	tags: string[];
	downloads: number;
	likes: number;
	lastModified?: string;
	private?: boolean;
}

export interface ProviderMappingEntry {
	providerId: string;
	task: string;
	status: "live" | "staging";
	adapter?: string;
	adapterWeightsPath?: string;
}

export type ProviderMapping = Record<string, ProviderMappingEntry>;

/** A model as returned by `GET /api/models/{id}?expand[]=inferenceProviderMapping`. */
export interface ModelDetail extends ModelSummary {
	sha?: string;
	siblings?: Array<{ rfilename: string }>;
	/** Parameter counts by dtype and in total, read from the safetensors headers. */
	safetensors?: { parameters?: Record<string, number>; total?: number };
	/** Facts of the GGUF file: parameters in total, architecture, context length. */
	gguf?: { total?: number; architecture?: string; context_length?: number };
	config?: Record<string, unknown>;
	cardData?: Record<string, unknown>;
	widgetData?: Array<Record<string, unknown>>;
	transformersInfo?: {
		auto_model: string;
		custom_class?: string;
		pipeline_tag?: PipelineType;
		processor?: string;
	};
	mask_token?: string;
	inferenceProviderMapping?: ProviderMapping;
}

/** The hub's sort orders (`GET /api/models?sort=`). */
export type ModelSort = "trendingScore" | "downloads" | "likes" | "createdAt" | "lastModified" | "id";

export interface ModelFilterQuery {
	search?: string;
	pipeline_tag?: string;
	library?: string;
	author?: string;
	/** Models served live by this provider. */
	inference_provider?: string;
	/** Every value must be one of the model's tags (e.g. `license:mit`, `en`). */
	filter?: string[];
}

export interface ModelQuery extends ModelFilterQuery {
	sort?: ModelSort;
	direction?: -1 | 1;
	limit?: number;
	cursor?: string;
}

export interface ModelPage {
	models: ModelSummary[];
	/** Cursor of the next page; undefined on the last page. */
	nextCursor?: string;
}

function filterParams(query: ModelFilterQuery): Record<string, string | string[] | undefined> {
	return {
		search: query.search?.trim(),
		pipeline_tag: query.pipeline_tag,
		library: query.library,
		author: query.author,
		inference_provider: query.inference_provider,
		filter: query.filter,
	};
}

export async function listModels(query: ModelQuery = {}, options: ApiOptions = {}): Promise<ModelPage> {
	const url = apiUrl(options.baseUrl, "/api/models", {
		...filterParams(query),
		sort: query.sort,
		direction: query.direction,
		limit: query.limit,
		cursor: query.cursor,
	});
	const { data, headers } = await getJson<ModelSummary[]>(url, options);
	const nextCursor = headers.get("X-Next-Cursor") ?? undefined;
	return { models: Array.isArray(data) ? data : [], nextCursor: nextCursor || undefined };
}

/** How many models match the filters in all (`GET /api/models-count`); `exact` is false past the hub's cap. */
export async function countModels(
	query: ModelFilterQuery,
	options: ApiOptions = {},
): Promise<{ count: number; exact: boolean }> {
	const { data } = await getJson<{ count: number; exact: boolean }>(
		apiUrl(options.baseUrl, "/api/models-count", filterParams(query)),
		options,
	);
	return data;
}

/** One entry of `GET /api/models/{id}/tree/{rev}/{path}`. */
export interface TreeEntry {
	type: "file" | "directory";
	path: string;
	size: number;
	oid: string;
	lfs?: { oid: string; size: number };
}

/** The entries of a folder of a revision (the root when `path` is empty). */
export async function listTree(
	id: string,
	revision: string,
	path: string,
	options: ApiOptions = {},
): Promise<TreeEntry[]> {
	const folder = path ? `/${encodeModelId(path)}` : "";
	const url = apiUrl(
		options.baseUrl,
		`/api/models/${encodeModelId(id)}/tree/${encodeURIComponent(revision)}${folder}`,
	);
	const { data } = await getJson<TreeEntry[]>(url, options);
	return Array.isArray(data) ? data : [];
}

export interface GitRef {
	name: string;
	ref: string;
	targetCommit: string;
}

/** The branches and tags of a model (`GET /api/models/{id}/refs`). */
export async function listRefs(
	id: string,
	options: ApiOptions = {},
): Promise<{ branches: GitRef[]; tags: GitRef[] }> {
	const { data } = await getJson<{ branches?: GitRef[]; tags?: GitRef[] }>(
		apiUrl(options.baseUrl, `/api/models/${encodeModelId(id)}/refs`),
		options,
	);
	return { branches: data.branches ?? [], tags: data.tags ?? [] };
}

/** Where the hub serves a file of a revision: `/{id}/resolve/{rev}/{path}`. */
export function fileUrl(id: string, revision: string, path: string, baseUrl = ""): string {
	return apiUrl(
		baseUrl,
		`/${encodeModelId(id)}/resolve/${encodeURIComponent(revision)}/${encodeModelId(path)}`,
	);
}

/** The largest model card the page renders; longer ones are cut (and say so). */
export const MAX_CARD_BYTES = 512 * 1024;

/** The model card (README.md of the main branch) as text, or undefined when the model has none. */
export async function getModelCard(id: string, options: ApiOptions = {}): Promise<string | undefined> {
	const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
	const url = fileUrl(id, "main", "README.md", options.baseUrl);
	const response = await doFetch(url, {
		signal: options.signal,
		...(options.token ? { headers: { Authorization: `Bearer ${options.token}` } } : {}),
	});
	if (response.status === 404) return undefined;
	if (!response.ok)
		throw new ApiError(`The hub answered ${response.status} for the model card.`, response.status, url);
	const text = await response.text();
	return text.length > MAX_CARD_BYTES ? text.slice(0, MAX_CARD_BYTES) : text;
}

export async function getModel(id: string, options: ApiOptions = {}): Promise<ModelDetail> {
	const url = `${apiUrl(options.baseUrl, `/api/models/${encodeModelId(id)}`)}?expand[]=inferenceProviderMapping`;
	const { data } = await getJson<ModelDetail>(url, options);
	return data;
}

const prefetched = new Map<string, Promise<ModelDetail>>();
// Keyed by the token too: an answer fetched signed out must not stand in for the owner's (a private model).
const prefetchKey = (id: string, baseUrl = "", token = "") => `${baseUrl}\n${token}\n${id}`;

/**
 * Starts loading a model before its page's code has arrived (the entry calls this for model URLs), so
 * the API request and the page chunk download in parallel.
 */
export function prefetchModel(id: string, options: ApiOptions = {}): void {
	const key = prefetchKey(id, options.baseUrl, options.token);
	if (prefetched.has(key)) return;
	const request = getModel(id, options);
	// Marked as handled here; the page that takes it sees the rejection.
	request.catch(() => undefined);
	prefetched.set(key, request);
}

/** The prefetched request for a model, once; undefined when none was started. */
export function takePrefetchedModel(
	id: string,
	baseUrl = "",
	token?: string,
): Promise<ModelDetail> | undefined {
	const key = prefetchKey(id, baseUrl, token);
	const request = prefetched.get(key);
	prefetched.delete(key);
	return request;
}

/** The model id a path addresses (`/ns/name` or `/name`), or undefined for the app's own sections. */
export function modelIdFromPath(pathname: string): string | undefined {
	const parts = pathname.replace(/^\/+|\/+$/g, "").split("/");
	if (parts.length === 0 || parts.length > 2 || !parts[0] || isReservedSection(parts[0])) return undefined;
	try {
		return parts.map((part) => decodeURIComponent(part)).join("/");
	} catch {
		return undefined;
	}
}
