/**
 * Repositories: their files (`tree`, `paths-info`), branches and tags (`refs`, `branch`, `tag`),
 * history (`commits`), and creating, deleting and changing them (`/api/repos/*`, `settings`).
 */

/** The commit that last changed an entry (`expand=true`). */
export interface LastCommit {
	id: string;
	title: string;
	/** ISO 8601, UTC. */
	date: string;
}

/** A file of `GET /api/models/{id}/tree/{rev}/{path}` and `POST …/paths-info/{rev}`. */
export interface RepoFile {
	type: "file";
	/** The git blob id (of the LFS pointer for an LFS file). */
	oid: string;
	size: number;
	path: string;
	lfs?: { oid: string; size: number; pointerSize: number };
	/**
	 * ModelHub's own field (huggingface_hub ignores it): the file's bytes are kept as a Xet recipe, from an
	 * upload through Xet. Not `xetHash`: huggingface_hub 2.x takes that as leave to download over Xet by
	 * the hash without asking the hub first, which this hub does not offer (downloads come over HTTP).
	 */
	xetStored?: true;
	lastCommit?: LastCommit;
}

/** A folder of a tree or paths-info answer. */
export interface RepoFolder {
	type: "directory";
	/** The git tree id. */
	oid: string;
	size: 0;
	path: string;
	lastCommit?: LastCommit;
}

export type RepoTreeEntry = RepoFile | RepoFolder;

/** The query parameters of a tree page (the next page is in `Link`). */
export interface TreeParameters {
	recursive?: boolean;
	/** Each entry with its last commit (pages of 50 instead of 1000). */
	expand?: boolean;
	cursor?: string;
}

/** The body of `POST /api/models/{id}/paths-info/{rev}`, as a form (huggingface_hub) or JSON. */
export interface PathsInfoRequest {
	paths?: string | string[];
	expand?: boolean | string;
}

/** The query parameters of `GET /api/models/{id}/refs`. */
export interface RefsParameters {
	/** Adds `pullRequests`: the `refs/pr/N` of the repository's pull requests. */
	include_prs?: boolean;
}

/** The query parameters of a commits page (the next page is in `Link`). */
export interface CommitsParameters {
	cursor?: string;
	/** `formatted` adds each commit's title and message, HTML-escaped. */
	expand?: string[];
}

/** A branch or tag. */
export interface GitRef {
	name: string;
	/** `refs/heads/{name}` or `refs/tags/{name}`. */
	ref: string;
	targetCommit: string;
}

/** `GET /api/models/{id}/refs` (`include_prs=1` adds `pullRequests`). */
export interface RepoRefs {
	branches: GitRef[];
	converts: GitRef[];
	tags: GitRef[];
	pullRequests?: GitRef[];
}

/** One commit of `GET /api/models/{id}/commits/{rev}`, newest first (`expand[]=formatted` adds HTML-escaped text). */
export interface RepoCommit {
	id: string;
	title: string;
	message: string;
	authors: Array<{ user: string }>;
	/** ISO 8601, UTC. */
	date: string;
	formatted?: { title: string; message: string };
}

/** A file's content on one side of a commit's change: its git blob id, size and LFS object. */
export interface RepoChangedBlob {
	oid: string;
	size: number;
	lfs?: { oid: string; size: number };
}

/** A file a commit added, modified or deleted. */
export interface RepoCommitChange {
	path: string;
	status: "added" | "modified" | "deleted";
	/** The file in the parent commit (absent when added). */
	before?: RepoChangedBlob;
	/** The file in this commit (absent when deleted). */
	after?: RepoChangedBlob;
}

/**
 * `GET /api/models/{id}/commit/{rev}` (this hub's, for its commit pages): the commit, its first parent
 * and the files it changed from it, in path order, 1000 a page (`filesTruncated` when there are more:
 * `?cursor={the page's last path}` gives the next page, linked by `Link: rel="next"`).
 */
export interface RepoCommitDetail extends RepoCommit {
	/** The first parent, or none for a first commit (whose files are all "added"). */
	parents: string[];
	files: RepoCommitChange[];
	filesTruncated: boolean;
}

/** `private` or `visibility`, as huggingface_hub sends them (they must agree when both are given). */
interface VisibilityFields {
	private?: boolean | null;
	visibility?: "public" | "private" | null;
}

/** The body of `POST /api/repos/create`: `organization/name`, or the caller's own namespace. */
export interface CreateRepoRequest extends VisibilityFields {
	/** The hosted types: `"model"` (the default) and `"dataset"`. */
	type?: "model" | "dataset" | null;
	name: string;
	organization?: string | null;
}

/** The answer of `POST /api/repos/create`; a 409 (the repository exists) has a RepoExistsBody. */
export interface CreatedRepo {
	url: string;
	/** The new repository's id, `namespace/name`. */
	name: string;
}

/** The body of `DELETE /api/repos/delete`. */
export type DeleteRepoRequest = Pick<CreateRepoRequest, "type" | "name" | "organization">;

/** The body of `POST /api/repos/move` (huggingface_hub's move_repo): ids `namespace/name`. */
export interface MoveRepoRequest {
	fromRepo: string;
	toRepo: string;
	/** `"model"` (the default), `"dataset"`. */
	type?: string | null;
}

/** The answer of a move: the repository's id now and its page (the former id redirects there). */
export interface MovedRepo {
	url: string;
	name: string;
	from: string;
}

/** The answer of deleting a repository, a branch or a tag: what was deleted. */
export interface Deleted {
	deleted: string;
}

/** The body of `PUT /api/models/{id}/settings`. */
export interface RepoSettingsRequest extends VisibilityFields {
	/** `"auto"`, `"manual"` or `false` (huggingface_hub's update_repo_settings(gated=…)). */
	gated?: "auto" | "manual" | false | null;
}

/** The answer of `PUT /api/models/{id}/settings`. */
export interface RepoSettings {
	id: string;
	private: boolean;
	gated: "auto" | "manual" | false;
}

/** The body of `POST /api/models/{id}/branch/{branch}` (answered with the new GitRef). */
export interface CreateBranchRequest {
	/** The revision the branch starts at; `main` by default. */
	startingPoint?: string;
}

/** The body of `POST /api/models/{id}/super-squash/{branch}` (huggingface_hub's super_squash_history). */
export interface SuperSquashRequest {
	/** The squashed commit's message (its first line the title); `Super-squash branch '{branch}'` when absent. */
	message?: string;
}

/** The answer to a super-squash: the branch's new head, the one commit left in its history. */
export interface SuperSquashed {
	commitId: string;
}

/** The body of `POST /api/models/{id}/tag/{revision}` (answered with the new GitRef). */
export interface CreateTagRequest {
	tag: string;
	message?: string;
}
