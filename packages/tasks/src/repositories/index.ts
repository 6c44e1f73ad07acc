import { hasControlCharacter } from "../literals/control.js";

/**
 * The hub's rules for repository names and file paths, declared once: the hub enforces them, and the
 * web app checks the same rules (same words) before it sends anything.
 */

/** Longest repository path, in UTF-16 code units (git itself allows 4096 bytes; the hub keeps URLs short). */
export const MAX_PATH_LENGTH = 1000;

/** One half of a model id: the namespace (user or organisation) or the repository name. */
export const ID_PART_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$";
const ID_PART = new RegExp(ID_PART_PATTERN);

/** Why `part` (named `what`) is not a valid half of a model id, or undefined when it is. */
export function idPartProblem(part: string, what: string): string | undefined {
	if (!ID_PART.test(part)) {
		return `${what} must be 1 to 96 characters of letters, digits, '.', '_' or '-', starting with a letter or digit`;
	}
	if (part.includes("..")) return `${what} must not contain '..'`;
	return undefined;
}

/** Why `path` cannot name a file in a repository, or undefined when it can. */
export function repoPathProblem(path: string): string | undefined {
	if (path.length === 0) return "path is empty";
	if (path.length > MAX_PATH_LENGTH) return `path is longer than ${MAX_PATH_LENGTH} characters`;
	if (hasControlCharacter(path)) return "path contains control characters";
	if (!path.isWellFormed()) return "path contains unpaired UTF-16 surrogates";
	if (path.startsWith("/") || path.endsWith("/")) return "path must not start or end with '/'";
	for (const segment of path.split("/")) {
		if (segment === "") return "path contains an empty segment ('//')";
		if (segment === "." || segment === "..") return "path contains a '.' or '..' segment";
		if (segment === ".git") return "path contains a '.git' segment";
	}
	return undefined;
}

/**
 * Code points HFS+ (macOS) ignores in names, so that `.g\u200cit` is `.git` there (the list git itself
 * checks in is_hfs_dotgit): zero-width joiners and marks, directional marks, deprecated format characters
 * and the byte order mark.
 */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;
const DRIVE = /^[A-Za-z]:/;

/**
 * A path segment as Windows and macOS file systems resolve it: case folded, HFS+-ignored code points
 * removed, and what NTFS drops or reads as a stream name (trailing dots and spaces, `:…`) cut off.
 */
function resolvedSegment(segment: string): string {
	const folded = segment.replace(HFS_IGNORED, "").toLowerCase();
	const stream = folded.indexOf(":");
	return (stream < 0 ? folded : folded.slice(0, stream)).replace(/[. ]+$/, "");
}

/**
 * Why no file may be written at `path`, or undefined when one may: every rule of repoPathProblem, and
 * the names clients cannot write safely. huggingface_hub's snapshot_download(local_dir=…) writes paths
 * as they are: `.GIT/config`, `.git./hooks/x` or `GIT~1/config` land in a checkout's `.git` on Windows
 * or macOS (case-insensitive, NTFS short names, HFS+ ignored code points; git refuses the same names,
 * see is_ntfs_dotgit and is_hfs_dotgit). And it refuses to download a name with a `..` segment once
 * backslashes are read as separators, or a drive (`C:`) in a segment, failing the whole snapshot for
 * everyone. Files already stored under such names can still be read and deleted (repoPathProblem).
 */
export function writablePathProblem(path: string): string | undefined {
	const problem = repoPathProblem(path);
	if (problem) return problem;
	if (path.includes("\\")) {
		return "path contains a backslash ('\\'), which Windows clients read as a folder separator: use '/' between folders";
	}
	for (const segment of path.split("/")) {
		if (DRIVE.test(segment)) {
			return `path segment ${JSON.stringify(segment.slice(0, 60))} starts with a drive letter, which Windows clients read as another disk`;
		}
		const resolved = resolvedSegment(segment);
		if (resolved === ".git" || resolved === "git~1") {
			return `path segment ${JSON.stringify(segment.slice(0, 60))} is '.git' on Windows or macOS file systems (a checkout's git folder)`;
		}
	}
	return undefined;
}

/**
 * The kinds of repository a hub can hold. A repository is identified by its type and its id
 * (`namespace/name`, or a bare `name` for legacy ids such as `gpt2`): a model and a dataset may share an id.
 */
export const REPO_TYPES = ["model", "dataset", "space"] as const;
export type RepoType = (typeof REPO_TYPES)[number];

export function isRepoType(value: unknown): value is RepoType {
	return typeof value === "string" && (REPO_TYPES as readonly string[]).includes(value);
}

/**
 * How each type appears in URLs, the one place they map to (type, id): the API segment
 * (`/api/{api}/{id}/…`) and the prefix of pages and file downloads (`/{prefix}{id}/resolve/…`).
 */
export const REPO_TYPE_URLS: Readonly<Record<RepoType, { readonly api: string; readonly prefix: string }>> = {
	model: { api: "models", prefix: "" },
	dataset: { api: "datasets", prefix: "datasets/" },
	space: { api: "spaces", prefix: "spaces/" },
};

/** A repository's identity: its type, its namespace (none for legacy ids) and name, and the id they make. */
export interface RepoId {
	readonly type: RepoType;
	readonly namespace: string | null;
	readonly name: string;
	/** `namespace/name`, or `name` without a namespace: the id of URLs and of the public JSON. */
	readonly id: string;
}

/** The identity of the repository `id` of a type (split at its first `/`; not checked: see repoIdProblem). */
export function repoId(type: RepoType, id: string): RepoId {
	const slash = id.indexOf("/");
	return slash < 0
		? { type, namespace: null, name: id, id }
		: { type, namespace: id.slice(0, slash), name: id.slice(slash + 1), id };
}

/** Why `id` is not a valid repository id, or undefined when it is: `namespace/name`, or a bare `name`. */
export function repoIdProblem(id: unknown, type: RepoType = "model"): string | undefined {
	if (typeof id !== "string") return `${type} id must be a string`;
	const slash = id.indexOf("/");
	if (slash < 0) return idPartProblem(id, `${type} name`);
	return idPartProblem(id.slice(0, slash), "namespace") ?? idPartProblem(id.slice(slash + 1), `${type} name`);
}

/** `ns/name` with each part URL-encoded. */
export function encodeRepoId(id: string): string {
	return id.split("/").map(encodeURIComponent).join("/");
}

/** The API path of a repository: `/api/models/ns/name`, `/api/datasets/ns/name`… */
export function repoApiPath(repo: Pick<RepoId, "type" | "id">): string {
	return `/api/${REPO_TYPE_URLS[repo.type].api}/${encodeRepoId(repo.id)}`;
}

/** The page path of a repository (also the base of its `/resolve/` URLs): `/ns/name`, `/datasets/ns/name`… */
export function repoPagePath(repo: Pick<RepoId, "type" | "id">): string {
	return `/${REPO_TYPE_URLS[repo.type].prefix}${encodeRepoId(repo.id)}`;
}

export {
	APP_SECTIONS,
	FUTURE_SECTIONS,
	NESTED_APP_SECTIONS,
	RESERVED_FIRST_SEGMENTS,
	SERVER_SECTIONS,
	type AppSection,
} from "./sections.js";
export {
	isCommunityView,
	parseRepoPageView,
	RESERVED_REPO_NAMES,
	repoPageViewPath,
	repoPageViewTitle,
	reservedRepoNameProblem,
	type RepoPageView,
	type RepoPageViewFacts,
	type RepoPageViewKind,
} from "./views.js";
export { quoteGitPath, unquoteGitPath } from "./git-quote.js";
