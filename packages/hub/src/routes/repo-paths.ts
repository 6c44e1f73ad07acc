import type { FastifyRequest } from "fastify";
import { repoPathProblem } from "@modelhub/tasks/repositories";
import { HubError, malformedUrl, noSuchApiRoute, noSuchPath } from "../errors.js";
import {
	encodeRepoId,
	hostedTypes,
	repoIdProblem,
	repoPagePath,
	type RepoKey,
	type RepoType,
} from "../repo-identity.js";

/**
 * The URL shapes of a hosted repository type, the one place URLs map to (type, id), derived from the
 * table of types (REPO_TYPE_URLS): its API (`/api/models/`, `/api/datasets/`…) and the prefix of its
 * pages and downloads (`/`, `/datasets/`…). Routes are registered from these, once per hosted type.
 */
export interface RepoUrls {
	type: RepoType;
	/** `/api/models/`: the API of the type, id and action after it. */
	api: string;
	/** `/` or `/datasets/`: what comes before the id in page, resolve and git URLs. */
	page: string;
}

export function hostedRepoUrls(): RepoUrls[] {
	return hostedTypes().map((hosted) => ({
		type: hosted.type,
		api: `/api/${hosted.api}/`,
		page: `/${hosted.prefix}`,
	}));
}

/** How a route's path names a repository: `:namespace/:name`, or `:name` alone (legacy ids like `gpt2`). */
export type RouteIdShape = ":namespace/:name" | ":name";

/** Both shapes: a route registered for each serves `ns/name` and namespace-less ids (`gpt2`, `squad`). */
const ROUTE_ID_SHAPES: readonly RouteIdShape[] = [":namespace/:name", ":name"];

/**
 * Declares a repository route for every hosted type and both id shapes, the `ns/name` one first: the
 * one place a route is paired with its namespace-less twin (`/api/models/gpt2/…`, `/datasets/squad/…`).
 */
export function forEachRepoRoute(declare: (urls: RepoUrls, shape: RouteIdShape) => void): void {
	for (const urls of hostedRepoUrls()) {
		for (const shape of ROUTE_ID_SHAPES) declare(urls, shape);
	}
}

/**
 * A route of a repository under the type's API: `/api/models/:namespace/:name/{rest}`, or with the
 * `:name` shape `/api/models/:name/{rest}`. The bare form only suits a `rest` that starts with a reserved
 * repository name (RESERVED_REPO_NAMES), which no new namespaced id's name can be: `/api/models/x/commit/main`
 * is then model `x`'s commit, never an action `main` of a model `x/commit` (see repoWriteTarget).
 */
export function apiRoute(urls: RepoUrls, rest: string, shape: RouteIdShape = ":namespace/:name"): string {
	return `${urls.api}${shape}/${rest}`;
}

/** The repository id of a `…/:namespace/:name/…` route. */
export function routeRepoId(request: FastifyRequest): string {
	const params = request.params as { namespace?: string; name?: string };
	return params.namespace === undefined ? (params.name ?? "") : `${params.namespace}/${params.name ?? ""}`;
}

/**
 * The write actions of a repository's API and how many segments follow each (`commit/{revision}`,
 * `settings`): the routes registered with both id shapes, and what the mirror's write guard reads. Each
 * is a reserved repository name (RESERVED_REPO_NAMES), so its place alone says where the id ends.
 */
export const API_WRITE_ACTIONS: Readonly<Record<string, number>> = {
	commit: 1,
	preupload: 1,
	"xet-write-token": 1,
	branch: 1,
	tag: 1,
	"super-squash": 1,
	settings: 0,
};

/**
 * The repository a write URL names, by the rule its routes follow (undefined for other URLs): under a
 * type's API, `{id}/{action}/{argument}` where the action (API_WRITE_ACTIONS) stands right after a
 * one-segment id or a two-segment one, the count of segments deciding; and git-LFS's
 * `{prefix}{id}.git/info/lfs/…`, the id being the one or two segments before `.git`. Segments are
 * decoded; a broken encoding gives undefined (the route itself refuses it).
 */
export function repoWriteTarget(rawPath: string): RepoKey | undefined {
	// Longer prefixes first: `/datasets/squad.git/…` is dataset `squad`, not a model `datasets/squad`.
	const types = hostedRepoUrls().sort((a, b) => b.page.length - a.page.length);
	let segments: string[];
	let page: RepoUrls | undefined;
	try {
		const api = types.find((urls) => rawPath.startsWith(urls.api));
		if (api) {
			segments = decodeSegments(rawPath.slice(api.api.length));
			for (const idLength of [1, 2]) {
				const action = segments[idLength];
				if (action === undefined || !Object.hasOwn(API_WRITE_ACTIONS, action)) continue;
				if (segments.length === idLength + 1 + (API_WRITE_ACTIONS[action] as number)) {
					return { type: api.type, id: segments.slice(0, idLength).join("/") };
				}
			}
			return undefined;
		}
		page = types.find((urls) => rawPath.startsWith(urls.page));
		if (!page) return undefined;
		segments = decodeSegments(rawPath.slice(page.page.length));
	} catch {
		return undefined;
	}
	for (const idLength of [1, 2]) {
		const last = segments[idLength - 1];
		if (last?.endsWith(".git") && segments[idLength] === "info" && segments[idLength + 1] === "lfs") {
			return { type: page.type, id: [...segments.slice(0, idLength - 1), last.slice(0, -4)].join("/") };
		}
	}
	return undefined;
}

/** The page URL of a repository (`{origin}/ns/name`, `{origin}/datasets/ns/name`…). */
export function repoPageUrl(origin: string, repo: RepoKey): string {
	return `${origin}${repoPagePath(repo)}`;
}

/** The API path of a repository with an action after it: `/api/models/ns/name/tree/main…`. */
export function repoApiUrl(urls: RepoUrls, id: string, rest: string): string {
	return `${urls.api}${encodeRepoId(id)}/${rest}`;
}

/**
 * Where a request under a type's API (`/api/models/`) or a `/…/resolve/…` URL points. Both are read
 * from the raw URL, one percent-decoded segment at a time: huggingface_hub sends revisions such as
 * `refs/pr/1` as one segment (`refs%2Fpr%2F1`), which decoding the whole path first would split.
 */
export type ApiModelTarget =
	| { kind: "info"; id: string }
	| { kind: "revision"; id: string; revision: string }
	| { kind: "tree"; id: string; revision: string; path: string }
	| { kind: "paths-info"; id: string; revision: string }
	| { kind: "refs"; id: string }
	| { kind: "commits"; id: string; revision: string }
	| { kind: "commit"; id: string; revision: string };

/** Segments of a raw path (without query), decoded (a segment with broken encoding is a 400). */
export function decodeSegments(rawPath: string): string[] {
	try {
		return rawPath.split("/").map((segment) => decodeURIComponent(segment));
	} catch {
		throw malformedUrl();
	}
}

/** The raw path of a request URL, without its query. */
export function rawPathOf(url: string): string {
	const query = url.indexOf("?");
	return query < 0 ? url : url.slice(0, query);
}

/** A path inside a repository as a route receives it: invalid ones are a 400. */
export function checkRepoPath(path: string): string {
	const problem = repoPathProblem(path);
	if (problem) throw new HubError("Invalid", `invalid path: ${problem}`);
	return path;
}

/** A repository id of a type as a route receives it: invalid ones are a 400. */
export function checkRepoId(id: string, type: RepoType): string {
	const problem = repoIdProblem(id, type);
	if (problem) throw new HubError("Invalid", `invalid ${type} id: ${problem}`);
	return id;
}

const ACTIONS: Record<string, (rest: string[]) => boolean> = {
	revision: (rest) => rest.length === 1,
	tree: (rest) => rest.length >= 1,
	"paths-info": (rest) => rest.length === 1,
	refs: (rest) => rest.length === 0,
	commits: (rest) => rest.length === 1,
	commit: (rest) => rest.length === 1,
};

function action(id: string, name: string, rest: string[]): ApiModelTarget {
	switch (name) {
		case "revision":
			return { kind: "revision", id, revision: rest[0] as string };
		case "tree":
			return { kind: "tree", id, revision: rest[0] as string, path: rest.slice(1).join("/") };
		case "paths-info":
			return { kind: "paths-info", id, revision: rest[0] as string };
		case "commits":
			return { kind: "commits", id, revision: rest[0] as string };
		case "commit":
			return { kind: "commit", id, revision: rest[0] as string };
		default:
			return { kind: "refs", id };
	}
}

/**
 * Reads the segments after a type's API prefix (`/api/models/`). A namespaced id (`ns/name/action/…`)
 * is tried before a bare one (`name/action/…`), so a repository named like an action (`ns/tree`) stays
 * reachable.
 */
export function parseApiModelPath(segments: string[], type: RepoType): ApiModelTarget {
	const tries: Array<[string, string | undefined, string[]]> = [];
	if (segments.length >= 3) tries.push([`${segments[0]}/${segments[1]}`, segments[2], segments.slice(3)]);
	if (segments.length >= 2) tries.push([segments[0] as string, segments[1], segments.slice(2)]);
	for (const [id, name, rest] of tries) {
		const accepts = name === undefined ? undefined : ACTIONS[name];
		if (accepts && accepts(rest) && rest.every((part) => part !== "" || name === "tree")) {
			return action(checkRepoId(id, type), name as string, rest);
		}
	}
	if (segments.length === 1 || segments.length === 2) {
		return { kind: "info", id: checkRepoId(segments.join("/"), type) };
	}
	throw noSuchApiRoute();
}

export interface ResolveTarget {
	id: string;
	revision: string;
	path: string;
}

/** Reads `ns/name/resolve/rev/path…` or `name/resolve/rev/path…` (segments after the type's page prefix). */
export function parseResolvePath(segments: string[], type: RepoType): ResolveTarget {
	let id: string | undefined;
	let rest: string[] = [];
	if (segments.length >= 5 && segments[2] === "resolve") {
		id = `${segments[0]}/${segments[1]}`;
		rest = segments.slice(3);
	} else if (segments.length >= 4 && segments[1] === "resolve") {
		id = segments[0] as string;
		rest = segments.slice(2);
	}
	if (id === undefined) throw noSuchPath();
	return { id: checkRepoId(id, type), revision: rest[0] as string, path: rest.slice(1).join("/") };
}
