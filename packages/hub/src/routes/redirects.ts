import type { FastifyRequest } from "fastify";
import { canRead } from "../accounts/viewer.js";
import type { Queryable } from "../db/types.js";
import { idPartProblem } from "../models/ids.js";
import { encodeRepoId } from "../repo-identity.js";
import { findRepo } from "../repos/read.js";
import { findRedirect } from "../repos/redirects.js";
import { hostedRepoUrls, rawPathOf, type RepoUrls } from "./repo-paths.js";

/**
 * The public hub answers a moved repository's former id with a 307 and a relative Location
 * (huggingface_hub follows it: file_download.py's HEAD of resolve, its httpx client for the API;
 * git follows it on info/refs). Temporary, not 301: a new repository may take the former id.
 */
export const MOVED_STATUS = 307;

/** Where a repository's id starts in a raw path: the type's API, or its page prefix (`/`, `/datasets/`). */
function idStart(path: string): { urls: RepoUrls; start: string } | undefined {
	const all = hostedRepoUrls();
	for (const urls of all) if (path.startsWith(urls.api)) return { urls, start: urls.api };
	if (path.startsWith("/api/")) return undefined;
	// Longest prefix first: `/datasets/` before the models' `/`.
	const pages = [...all].sort((a, b) => b.page.length - a.page.length);
	for (const urls of pages) if (path.startsWith(urls.page)) return { urls, start: urls.page };
	return undefined;
}

/**
 * For a read (GET or HEAD, or a POST that reads) of a repository that is not there: the path and query of the same request at
 * the id the repository was moved to, when the request's id (`ns/name` or a bare name, `.git` allowed)
 * is a former id and the viewer may read the repository now. Undefined otherwise, so a private
 * repository's new name is never shown to someone who may not read it (they get the 404 of a missing
 * one). One hop: redirects always name an existing repository (repos/redirects.ts).
 */
export async function movedLocation(db: Queryable, request: FastifyRequest): Promise<string | undefined> {
	const read = request.method === "GET" || request.method === "HEAD";
	if (!read && request.method !== "POST") return undefined;
	const url = request.url;
	const path = rawPathOf(url);
	const found = idStart(path);
	if (!found) return undefined;
	const segments = path.slice(found.start.length).split("/");
	// [segments taken, the id they spell, whether the last had `.git`]
	const candidates: { count: number; id: string; git: boolean }[] = [];
	for (const count of [2, 1]) {
		if (segments.length < count) continue;
		const parts = segments.slice(0, count);
		const last = parts[count - 1]!;
		const git = last.endsWith(".git");
		if (git) parts[count - 1] = last.slice(0, -".git".length);
		if (parts.some((part) => idPartProblem(part, "id") !== undefined)) continue;
		candidates.push({ count, id: parts.join("/"), git });
	}
	const redirect = await findRedirect(
		db,
		found.urls.type,
		candidates.map((candidate) => candidate.id),
	);
	if (!redirect) return undefined;
	const target = await findRepo(db, found.urls.type, redirect.to);
	if (!target || !canRead(request.viewer, target)) return undefined;
	const matched = candidates.find((candidate) => candidate.id === redirect.from)!;
	const rest = segments.slice(matched.count);
	// POSTs that only read: paths-info (huggingface_hub's get_paths_info, whose client follows a 307 with
	// its body) and git's upload-pack. Writes are never redirected (they get the 404 of a missing one).
	if (
		!read &&
		!(found.start === found.urls.api ? rest[0] === "paths-info" : rest.join("/") === "git-upload-pack")
	) {
		return undefined;
	}
	const query = url.slice(path.length);
	return `${found.start}${encodeRepoId(target.id)}${matched.git ? ".git" : ""}${rest.length > 0 ? `/${rest.join("/")}` : ""}${query}`;
}
