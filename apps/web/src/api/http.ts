/** A tiny typed JSON client for the hub API; no React, so it is testable against a real server. */
import type { ErrorBody } from "@modelhub/hub/api";
import { repoApiPath, repoId, type RepoType } from "@modelhub/tasks/repositories";
import { csrfHeaders } from "../account/csrf";

export class ApiError extends Error {
	override readonly name = "ApiError";
	constructor(
		message: string,
		readonly status: number,
		readonly url: string,
	) {
		super(message);
	}
}

export interface ApiOptions {
	/** Base URL of the hub; "" for the page's own origin. */
	baseUrl?: string;
	signal?: AbortSignal;
	fetch?: typeof fetch;
	/**
	 * The hub access token of the signed-in account, sent as `Authorization: Bearer` to `baseUrl` only
	 * (never in a URL). Callers get it from `hubTokenFor(baseUrl)`, which gives it only to the hub it
	 * was signed in to.
	 */
	token?: string;
	/**
	 * The type of repository the call's id names (`/api/models/…` or `/api/datasets/…`, `/{id}/resolve/…`
	 * or `/datasets/{id}/resolve/…`); models when absent. A dataset page's `useApiOptions()` sets it, so
	 * the shared browsing, upload and editing components address the dataset.
	 */
	repoType?: RepoType;
}

/** The API path of the repository `id` of the options' type: `/api/models/{id}`, `/api/datasets/{id}`. */
export function repoApi(id: string, options: Pick<ApiOptions, "repoType"> = {}): string {
	return repoApiPath(repoId(options.repoType ?? "model", id));
}

export interface JsonResponse<T> {
	data: T;
	headers: Headers;
}

/** Joins a base URL and a path that starts with "/". */
export function apiUrl(
	baseUrl: string | undefined,
	path: string,
	query?: Record<string, string | number | string[] | undefined>,
) {
	const base = (baseUrl ?? "").trim().replace(/\/+$/, "");
	let url = `${base}${path}`;
	if (query) {
		const params = new URLSearchParams();
		for (const [key, value] of Object.entries(query)) {
			for (const item of Array.isArray(value) ? value : [value]) {
				if (item === undefined || item === "") continue;
				params.append(key, String(item));
			}
		}
		const search = params.toString();
		if (search) url += `?${search}`;
	}
	return url;
}

/** The headers of a hub request: JSON accepted, the hub token when there is one. */
export function hubHeaders(
	token: string | undefined,
	extra: Record<string, string> = {},
): Record<string, string> {
	return { Accept: "application/json", ...extra, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
}

/** The hub's `{ error }` message of a failed answer, or a generic one naming the status. */
export function hubErrorMessage(status: number, body: unknown): string {
	const error = typeof body === "object" && body !== null ? (body as Partial<ErrorBody>).error : undefined;
	return typeof error === "string" && error ? error : `The hub answered ${status}.`;
}

/**
 * Sends a request to the hub; a network failure (not an abort) becomes an ApiError with status 0.
 */
export async function reachHub(
	url: string,
	init: RequestInit,
	doFetch: typeof fetch = fetch,
): Promise<Response> {
	try {
		return await doFetch(url, init);
	} catch (error) {
		if (error instanceof DOMException && error.name === "AbortError") throw error;
		throw new ApiError("The hub could not be reached.", 0, url);
	}
}

/** The ApiError of a failed answer, with the hub's `{ error }` message when its JSON body has one. */
export async function apiErrorOf(response: Response, url: string): Promise<ApiError> {
	let body: unknown;
	try {
		body = await response.json();
	} catch {
		// Not JSON: the generic message.
	}
	return new ApiError(hubErrorMessage(response.status, body), response.status, url);
}

/**
 * Sends a request and reads its JSON answer; a non-2xx answer becomes an ApiError carrying the
 * server's `{ error }` message when present.
 */
export async function requestJson<T>(
	url: string,
	options: ApiOptions & { method?: string; body?: unknown } = {},
): Promise<JsonResponse<T>> {
	const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
	const hasBody = options.body !== undefined;
	const method = options.method ?? "GET";
	const response = await reachHub(
		url,
		{
			method,
			headers: hubHeaders(options.token, {
				...(hasBody ? { "Content-Type": "application/json" } : {}),
				...csrfHeaders(method, options.baseUrl, options.token),
			}),
			body: hasBody ? JSON.stringify(options.body) : undefined,
			signal: options.signal,
		},
		doFetch,
	);
	if (!response.ok) throw await apiErrorOf(response, url);
	let data: T;
	try {
		data = (await response.json()) as T;
	} catch {
		throw new ApiError("The hub sent a response that is not JSON.", response.status, url);
	}
	return { data, headers: response.headers };
}

/** GETs JSON (see requestJson). */
export function getJson<T>(url: string, options: ApiOptions = {}): Promise<JsonResponse<T>> {
	return requestJson<T>(url, options);
}

/** Encodes a model id path-segment by path-segment, keeping the "/" between namespace and name. */
export function encodeModelId(id: string): string {
	return id
		.split("/")
		.map((part) => encodeURIComponent(part))
		.join("/");
}
