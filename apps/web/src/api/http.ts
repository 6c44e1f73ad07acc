/** A tiny typed JSON client for the hub API; no React, so it is testable against a real server. */

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

/** GETs JSON; a non-2xx answer becomes an ApiError carrying the server's `{ error }` message when present. */
export async function getJson<T>(url: string, options: ApiOptions = {}): Promise<JsonResponse<T>> {
	const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
	let response: Response;
	try {
		response = await doFetch(url, { headers: { Accept: "application/json" }, signal: options.signal });
	} catch (error) {
		if (error instanceof DOMException && error.name === "AbortError") throw error;
		throw new ApiError("The hub could not be reached.", 0, url);
	}
	if (!response.ok) {
		let message = `The hub answered ${response.status}.`;
		try {
			const body = (await response.json()) as { error?: unknown };
			if (typeof body.error === "string" && body.error) message = body.error;
		} catch {
			// Not JSON: keep the generic message.
		}
		throw new ApiError(message, response.status, url);
	}
	let data: T;
	try {
		data = (await response.json()) as T;
	} catch {
		throw new ApiError("The hub sent a response that is not JSON.", response.status, url);
	}
	return { data, headers: response.headers };
}

/** Encodes a model id path-segment by path-segment, keeping the "/" between namespace and name. */
export function encodeModelId(id: string): string {
	return id
		.split("/")
		.map((part) => encodeURIComponent(part))
		.join("/");
}
