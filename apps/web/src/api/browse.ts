/** The hub's browsing answers: tree pages, one entry, commit pages, a commit's changes, a file's first bytes. */
import type { RepoCommit, RepoCommitDetail, RepoTreeEntry } from "@modelhub/hub/api";
import {
	ApiError,
	apiErrorOf,
	apiUrl,
	encodeModelId,
	getJson,
	reachHub,
	repoApi,
	requestJson,
	type ApiOptions,
} from "./http";
import { fileUrl, INTERNAL_READ_HEADER } from "./models";

/** A full commit id: what it names never changes. */
const COMMIT_ID = /^[0-9a-f]{40}$/;

/** The `rel="next"` URL of a `Link` header (the hub pages trees and histories this way), made relative to `baseUrl`. */
export function nextLink(link: string | null, baseUrl = ""): string | undefined {
	if (!link) return undefined;
	const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(link);
	if (!match?.[1]) return undefined;
	// The hub writes an absolute URL with its own origin; the app asks the hub it is configured for.
	const url = new URL(match[1], "http://hub.invalid");
	return apiUrl(baseUrl, `${url.pathname}${url.search}`);
}

export interface Paged<T> {
	items: T[];
	/** The URL of the next page, when there is one. */
	next?: string;
}

/** A page of a folder's entries, each with its last commit (`expand=true`: pages of 50). */
export async function listFolder(
	id: string,
	revision: string,
	path: string,
	options: ApiOptions & { next?: string } = {},
): Promise<Paged<RepoTreeEntry>> {
	const folder = path ? `/${encodeModelId(path)}` : "";
	const url =
		options.next ??
		apiUrl(options.baseUrl, `${repoApi(id, options)}/tree/${encodeURIComponent(revision)}${folder}`, {
			expand: "true",
		});
	const { data, headers } = await getJson<RepoTreeEntry[]>(url, options);
	const next = nextLink(headers.get("link"), options.baseUrl);
	return { items: Array.isArray(data) ? data : [], ...(next ? { next } : {}) };
}

/** The entry at `path` of a revision (with its last commit), or undefined when there is none. */
export async function getEntry(
	id: string,
	revision: string,
	path: string,
	options: ApiOptions = {},
): Promise<RepoTreeEntry | undefined> {
	const url = apiUrl(options.baseUrl, `${repoApi(id, options)}/paths-info/${encodeURIComponent(revision)}`);
	const { data } = await requestJson<RepoTreeEntry[]>(url, {
		...options,
		method: "POST",
		body: { paths: [path], expand: true },
	});
	return data.find((entry) => entry.path === path);
}

/** A page of a revision's history, newest first (50 a page), after the commit `cursor` when given. */
export async function listCommits(
	id: string,
	revision: string,
	options: ApiOptions & { cursor?: string } = {},
): Promise<Paged<RepoCommit>> {
	const url = apiUrl(options.baseUrl, `${repoApi(id, options)}/commits/${encodeURIComponent(revision)}`, {
		cursor: options.cursor,
	});
	const { data, headers } = await getJson<RepoCommit[]>(url, options);
	const next = nextLink(headers.get("link"), options.baseUrl);
	return { items: Array.isArray(data) ? data : [], ...(next ? { next } : {}) };
}

/**
 * A commit and the files it changed from its parent, 1000 a page: `next` is the URL of the next page of
 * files (the hub's `Link: rel="next"`), and `options.next` asks for it.
 */
export async function getCommit(
	id: string,
	revision: string,
	options: ApiOptions & { next?: string } = {},
): Promise<RepoCommitDetail & { next?: string }> {
	const url =
		options.next ?? apiUrl(options.baseUrl, `${repoApi(id, options)}/commit/${encodeURIComponent(revision)}`);
	const { data, headers } = await getJson<RepoCommitDetail>(url, options);
	const next = nextLink(headers.get("link"), options.baseUrl);
	return next ? { ...data, next } : data;
}

/**
 * The first `maxBytes` of a file (a `Range` request, so a large file costs no more than that), as the
 * page's own read: the hub does not count it as a download.
 */
export async function readFileStart(
	id: string,
	revision: string,
	path: string,
	maxBytes: number,
	options: ApiOptions = {},
): Promise<Uint8Array> {
	const url = fileUrl(id, revision, path, options.baseUrl, options.repoType);
	const response = await reachHub(
		url,
		{
			signal: options.signal,
			// A branch's file changes with each commit. Chromium's cache of a range request answered with
			// the old bytes after a commit, though the hub sends `no-cache` and a new ETag (the file view
			// showed an edited file's old text, cut at its old size): only a commit's files, which never
			// change, come from the cache.
			...(COMMIT_ID.test(revision) ? {} : { cache: "no-store" as const }),
			headers: {
				[INTERNAL_READ_HEADER]: "web",
				Range: `bytes=0-${maxBytes - 1}`,
				...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
			},
		},
		options.fetch ?? globalThis.fetch.bind(globalThis),
	);
	// An empty file has no byte 0: the hub answers 416.
	if (response.status === 416) return new Uint8Array();
	if (!response.ok) throw await apiErrorOf(response, url);
	const bytes = new Uint8Array(await response.arrayBuffer());
	if (bytes.length > maxBytes) return bytes.slice(0, maxBytes);
	return bytes;
}

export { ApiError };
