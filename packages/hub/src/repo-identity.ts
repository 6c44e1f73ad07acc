/**
 * What a repository is, hub-wide: its type and id (the shared rules of @modelhub/tasks/repositories),
 * the types this hub hosts and the URL shapes of each. No store, no SQL: every layer may import it.
 */
import { REPO_TYPE_URLS, repoId, type RepoId, type RepoType } from "@modelhub/tasks/repositories";

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

/** The same key, for comparisons and map keys. */
export function repoKeyText(repo: RepoKey): string {
	return `${repo.type}:${repo.id}`;
}

export function modelRepo(id: string): RepoId {
	return repoId("model", id);
}
