/** The hub's model routes; the answers' types are the hub's API contract (`@modelhub/hub/api`). */
import type {
	ListedModel,
	ModelCount,
	ModelFilterParameters,
	ModelInfo,
	ModelListParameters,
	RepoRefs,
	RepoTreeEntry,
} from "@modelhub/hub/api";
import { isReservedSection } from "../app-sections";
import { parseBrowsePath } from "../view/browse";
import { repoId, repoPagePath, type RepoType } from "@modelhub/tasks/repositories";
import { ApiError, apiUrl, encodeModelId, getJson, repoApi, type ApiOptions } from "./http";

/** What the app's model cards read of a listed model (the rest may be absent). */
export type ModelSummary = Pick<ListedModel, "id" | "tags" | "downloads" | "likes"> &
	Partial<Pick<ListedModel, "author" | "pipeline_tag" | "library_name" | "lastModified" | "private">>;

/** What the model page reads of model info: every field but these four may be absent. */
export type ModelDetail = Pick<ModelInfo, "id" | "tags" | "downloads" | "likes"> &
	Partial<Omit<ModelInfo, "id" | "tags" | "downloads" | "likes">>;

/** A query parameter's value as the app sends it (see apiUrl). */
type ParameterValue = string | number | string[] | undefined;

/** The filters the model list offers; the pipeline tag as the page's URL has it (the hub refuses an unknown one). */
export type ModelFilterQuery = Pick<
	ModelFilterParameters,
	"search" | "library" | "author" | "inference_provider" | "filter"
> & { pipeline_tag?: string };

export type ModelQuery = ModelFilterQuery &
	Pick<ModelListParameters, "sort" | "direction" | "limit" | "cursor">;

export interface ModelPage {
	models: ListedModel[];
	/** Cursor of the next page; undefined on the last page. */
	nextCursor?: string;
}

function filterParams(query: ModelFilterQuery): { [Name in keyof ModelFilterParameters]?: ParameterValue } {
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
	} satisfies { [Name in keyof ModelListParameters]?: ParameterValue });
	const { data, headers } = await getJson<ListedModel[]>(url, options);
	const nextCursor = headers.get("X-Next-Cursor") ?? undefined;
	return { models: Array.isArray(data) ? data : [], nextCursor: nextCursor || undefined };
}

/** How many models match the filters in all (`GET /api/models-count`); `exact` is false past the hub's cap. */
export async function countModels(query: ModelFilterQuery, options: ApiOptions = {}): Promise<ModelCount> {
	const { data } = await getJson<ModelCount>(
		apiUrl(options.baseUrl, "/api/models-count", filterParams(query)),
		options,
	);
	return data;
}

/** The entries of a folder of a revision (the root when `path` is empty). */
export async function listTree(
	id: string,
	revision: string,
	path: string,
	options: ApiOptions = {},
): Promise<RepoTreeEntry[]> {
	const folder = path ? `/${encodeModelId(path)}` : "";
	const url = apiUrl(
		options.baseUrl,
		`${repoApi(id, options)}/tree/${encodeURIComponent(revision)}${folder}`,
	);
	const { data } = await getJson<RepoTreeEntry[]>(url, options);
	return Array.isArray(data) ? data : [];
}

/** The branches and tags of a model (`GET /api/models/{id}/refs`). */
export async function listRefs(
	id: string,
	options: ApiOptions = {},
): Promise<Pick<RepoRefs, "branches" | "tags">> {
	const { data } = await getJson<Partial<RepoRefs>>(
		apiUrl(options.baseUrl, `${repoApi(id, options)}/refs`),
		options,
	);
	return { branches: data.branches ?? [], tags: data.tags ?? [] };
}

/** Where the hub serves a file of a revision: `/{id}/resolve/{rev}/{path}` (`/datasets/{id}/resolve/…`). */
export function fileUrl(
	id: string,
	revision: string,
	path: string,
	baseUrl = "",
	repoType: RepoType = "model",
): string {
	return apiUrl(
		baseUrl,
		`${repoPagePath(repoId(repoType, id))}/resolve/${encodeURIComponent(revision)}/${encodeModelId(path)}`,
	);
}

/** The largest model card the page renders; longer ones are cut (and say so). */
export const MAX_CARD_BYTES = 512 * 1024;

/**
 * Marks the page's own reads of files (to render them, not to download them): the hub does not count
 * them as downloads (the hub's src/services/downloads.ts, INTERNAL_READ_HEADER).
 */
export const INTERNAL_READ_HEADER = "X-ModelHub-Internal-Read";

/** The model card (README.md of the main branch) as text, or undefined when the model has none. */
export async function getModelCard(id: string, options: ApiOptions = {}): Promise<string | undefined> {
	const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
	const url = fileUrl(id, "main", "README.md", options.baseUrl, options.repoType);
	const response = await doFetch(url, {
		signal: options.signal,
		headers: {
			[INTERNAL_READ_HEADER]: "web",
			...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
		},
	});
	if (response.status === 404) return undefined;
	if (!response.ok)
		throw new ApiError(`The hub answered ${response.status} for the model card.`, response.status, url);
	const text = await response.text();
	return text.length > MAX_CARD_BYTES ? text.slice(0, MAX_CARD_BYTES) : text;
}

export async function getModel(id: string, options: ApiOptions = {}): Promise<ModelInfo> {
	const url = `${apiUrl(options.baseUrl, repoApi(id))}?expand[]=inferenceProviderMapping&expand[]=downloadsAllTime`;
	const { data } = await getJson<ModelInfo>(url, options);
	return data;
}

const prefetched = new Map<string, Promise<ModelInfo>>();
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
): Promise<ModelInfo> | undefined {
	const key = prefetchKey(id, baseUrl, token);
	const request = prefetched.get(key);
	prefetched.delete(key);
	return request;
}

/** The model id a path addresses (`/ns/name` or `/name`), or undefined for the app's own sections. */
export function modelIdFromPath(pathname: string): string | undefined {
	const parts = pathname.replace(/^\/+|\/+$/g, "").split("/");
	if (parts.length === 0 || !parts[0] || isReservedSection(parts[0])) return undefined;
	// A browsing view (`/{id}/tree/…`, `/blob/…`, `/commits/…`, `/commit/…`) shows the same model.
	if (parts.length > 2) return parseBrowsePath(pathname)?.id;
	try {
		return parts.map((part) => decodeURIComponent(part)).join("/");
	} catch {
		return undefined;
	}
}
