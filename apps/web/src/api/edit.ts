/**
 * The hub's writes behind editing in the browser: a card's metadata checked (`POST /api/validate-yaml`),
 * a file read whole with the commit it was read at, branches and tags created. Commits themselves go
 * through api/commit.ts (multipart, as uploads do). Writes carry the session's CSRF token (http.ts).
 */
import type { GitRef } from "@modelhub/hub/api";
import { cardCheckOf, type CardCheck } from "../view/edit";
import { csrfHeaders } from "../account/csrf";
import { apiErrorOf, apiUrl, hubHeaders, reachHub, repoApi, requestJson, type ApiOptions } from "./http";
import { fileUrl, INTERNAL_READ_HEADER } from "./models";

/**
 * The card's front matter as the hub reads it: 200 with warnings, 400 with `errors` (shown inline);
 * any other refusal (429, 503) is an ApiError with the hub's message.
 */
export async function validateCard(content: string, options: ApiOptions = {}): Promise<CardCheck> {
	const url = apiUrl(options.baseUrl, "/api/validate-yaml");
	const response = await reachHub(
		url,
		{
			method: "POST",
			headers: hubHeaders(options.token, {
				"Content-Type": "application/json",
				...csrfHeaders("POST", options.baseUrl, options.token),
			}),
			body: JSON.stringify({ content, repoType: options.repoType ?? "model" }),
			signal: options.signal,
		},
		options.fetch ?? globalThis.fetch.bind(globalThis),
	);
	if (response.ok || response.status === 400) {
		let body: unknown;
		try {
			body = await response.clone().json();
		} catch {
			body = undefined;
		}
		const check = cardCheckOf(body);
		if (response.ok || check.errors.length > 0) return check;
	}
	throw await apiErrorOf(response, url);
}

/** A text file read whole, with the commit the hub read it at (`X-Repo-Commit`). */
export async function readForEdit(
	id: string,
	revision: string,
	path: string,
	options: ApiOptions = {},
): Promise<{ text: string; commitId?: string }> {
	const url = fileUrl(id, revision, path, options.baseUrl, options.repoType);
	const response = await reachHub(
		url,
		{
			signal: options.signal,
			// The page's own read: not a download (see INTERNAL_READ_HEADER).
			headers: {
				[INTERNAL_READ_HEADER]: "web",
				...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
			},
			cache: "no-store",
		},
		options.fetch ?? globalThis.fetch.bind(globalThis),
	);
	if (!response.ok) throw await apiErrorOf(response, url);
	const commitId = response.headers.get("X-Repo-Commit") ?? undefined;
	return { text: await response.text(), ...(commitId ? { commitId } : {}) };
}

/** Creates a branch at `startingPoint` (`POST /api/models/{id}/branch/{name}`). */
export async function createBranch(
	id: string,
	name: string,
	startingPoint: string,
	options: ApiOptions = {},
): Promise<GitRef> {
	const url = apiUrl(options.baseUrl, `${repoApi(id, options)}/branch/${encodeURIComponent(name)}`);
	return (await requestJson<GitRef>(url, { ...options, method: "POST", body: { startingPoint } })).data;
}

/** Tags the commit `revision` names (`POST /api/models/{id}/tag/{revision}` `{ tag, message? }`). */
export async function createTag(
	id: string,
	revision: string,
	tag: string,
	message: string,
	options: ApiOptions = {},
): Promise<GitRef> {
	const url = apiUrl(options.baseUrl, `${repoApi(id, options)}/tag/${encodeURIComponent(revision)}`);
	const body = message.trim() ? { tag, message: message.trim() } : { tag };
	return (await requestJson<GitRef>(url, { ...options, method: "POST", body })).data;
}
