/**
 * What a repository is, hub-wide: its type and id (the shared rules of @modelhub/tasks/repositories),
 * the types this hub hosts and the URL shapes of each. No store, no SQL: every layer may import it.
 */
import {
	REPO_TYPE_URLS,
	RESERVED_FIRST_SEGMENTS,
	repoId,
	type RepoId,
	type RepoType,
} from "@modelhub/tasks/repositories";

export {
	encodeRepoId,
	isRepoType,
	REPO_TYPE_URLS,
	REPO_TYPES,
	repoApiPath,
	repoId,
	repoIdProblem,
	repoPagePath,
	reservedRepoNameProblem,
	type RepoId,
	type RepoType,
} from "@modelhub/tasks/repositories";

/**
 * The repository types this hub hosts: routes are registered for these, and create_repo refuses the
 * others. Datasets show their own info and listings (src/datasets/).
 */
export const HOSTED_REPO_TYPES: readonly RepoType[] = ["model", "dataset"];

/** What the database keys a repository by: its type and its id (the stored spelling). */
export type RepoKey = Pick<RepoId, "type" | "id">;

/** A repository of a hosted type, as the routes of that type see it. */
export interface HostedType {
	type: RepoType;
	/** `models`: `/api/models/…`. */
	api: string;
	/** ``: `/{id}/resolve/…`; `datasets/`: `/datasets/{id}/resolve/…`. */
	prefix: string;
}

/** The URL shapes of each hosted type, from the one table of them (REPO_TYPE_URLS). */
export function hostedTypes(): HostedType[] {
	return HOSTED_REPO_TYPES.map((type) => ({ type, ...REPO_TYPE_URLS[type] }));
}

/**
 * A repository's id with its type's page prefix (`ns/name`, `datasets/ns/name`): how URLs outside a
 * type's API (uploads) name it, without another field for the type.
 */
export function repoPathName(repo: RepoKey): string {
	return `${REPO_TYPE_URLS[repo.type].prefix}${repo.id}`;
}

/**
 * Why a repository without a namespace may not be called `name`, or undefined. A type whose pages start
 * at the top (models: `/{name}`, `/{name}/info/refs`) gives its bare ids the first segment of their
 * URLs, so a name the web app or the API owns there (RESERVED_FIRST_SEGMENTS: `api`, `models`,
 * `settings`…) would take that section's addresses or be unreachable behind them.
 */
export function bareNameProblem(type: RepoType, name: string): string | undefined {
	if (REPO_TYPE_URLS[type].prefix !== "" || !isOwnedFirstSegment(name)) return undefined;
	return `${type} name '${name}' is reserved without a namespace: /${name.toLowerCase()} is the hub's own (${RESERVED_FIRST_SEGMENTS.join(", ")}); choose another or create it in a namespace`;
}

/** Whether the web app or the API owns this first segment of a URL (compared case-insensitively). */
export function isOwnedFirstSegment(segment: string): boolean {
	return (RESERVED_FIRST_SEGMENTS as readonly string[]).includes(segment.toLowerCase());
}

/** The same key, for comparisons and map keys. */
export function repoKeyText(repo: RepoKey): string {
	return `${repo.type}:${repo.id}`;
}

export function modelRepo(id: string): RepoId {
	return repoId("model", id);
}
