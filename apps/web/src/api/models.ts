import type { PipelineType } from "@modelhub/tasks";
import { apiUrl, encodeModelId, getJson, type ApiOptions } from "./http";

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
	private?: boolean;
	inferenceProviderMapping?: ProviderMapping;
}

export type ModelSort = "downloads" | "likes" | "lastModified" | "id";

export interface ModelQuery {
	search?: string;
	pipeline_tag?: string;
	library?: string;
	author?: string;
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

export async function listModels(query: ModelQuery = {}, options: ApiOptions = {}): Promise<ModelPage> {
	const url = apiUrl(options.baseUrl, "/api/models", {
		search: query.search?.trim(),
		pipeline_tag: query.pipeline_tag,
		library: query.library,
		author: query.author,
		sort: query.sort,
		direction: query.direction,
		limit: query.limit,
		cursor: query.cursor,
	});
	const { data, headers } = await getJson<ModelSummary[]>(url, options);
	const nextCursor = headers.get("X-Next-Cursor") ?? undefined;
	return { models: Array.isArray(data) ? data : [], nextCursor: nextCursor || undefined };
}

export async function getModel(id: string, options: ApiOptions = {}): Promise<ModelDetail> {
	const url = `${apiUrl(options.baseUrl, `/api/models/${encodeModelId(id)}`)}?expand[]=inferenceProviderMapping`;
	const { data } = await getJson<ModelDetail>(url, options);
	return data;
}

const prefetched = new Map<string, Promise<ModelDetail>>();
const prefetchKey = (id: string, baseUrl = "") => `${baseUrl}\n${id}`;

/**
 * Starts loading a model before its page's code has arrived (the entry calls this for model URLs), so
 * the API request and the page chunk download in parallel.
 */
export function prefetchModel(id: string, options: ApiOptions = {}): void {
	const key = prefetchKey(id, options.baseUrl);
	if (prefetched.has(key)) return;
	const request = getModel(id, options);
	// Marked as handled here; the page that takes it sees the rejection.
	request.catch(() => undefined);
	prefetched.set(key, request);
}

/** The prefetched request for a model, once; undefined when none was started. */
export function takePrefetchedModel(id: string, baseUrl = ""): Promise<ModelDetail> | undefined {
	const key = prefetchKey(id, baseUrl);
	const request = prefetched.get(key);
	prefetched.delete(key);
	return request;
}

const APP_SECTIONS = new Set(["tasks", "libraries", "models", "settings", "assets", "api"]);

/** The model id a path addresses (`/ns/name` or `/name`), or undefined for the app's own sections. */
export function modelIdFromPath(pathname: string): string | undefined {
	const parts = pathname.replace(/^\/+|\/+$/g, "").split("/");
	if (parts.length === 0 || parts.length > 2 || !parts[0] || APP_SECTIONS.has(parts[0])) return undefined;
	try {
		return parts.map((part) => decodeURIComponent(part)).join("/");
	} catch {
		return undefined;
	}
}
