import type { ModelSibling } from "../api/models.js";
import type { LastCommit, RepoTreeEntry } from "../api/repos.js";
import type { Queryable } from "../db/types.js";
import type { RepoKey, RepoType } from "../repo-identity.js";
import { COMMIT_ID } from "../vocabulary.js";
import { fileOid, lfsPointerSize } from "./git.js";

/** A file of a commit, with what the API shows of it. */
export interface FileEntry {
	path: string;
	sha256: string;
	size: number;
	lfs: boolean;
	gitOid: string | null;
}

/** A folder of a commit. */
export interface FolderEntry {
	path: string;
	treeId: string;
}

export type TreeEntry = ({ type: "file" } & FileEntry) | ({ type: "directory" } & FolderEntry);

/** A repository found by its id (the stored spelling), with what decides who may see it. */
export interface FoundRepo extends RepoKey {
	namespace: string | null;
	private: boolean;
}

export type Resolved =
	| { status: "no-repo" }
	| ({ status: "no-revision" } & FoundRepo)
	| ({ status: "ok"; commitId: string; libraryName: string | null } & FoundRepo);

interface FileRow {
	path: string;
	sha256: string;
	size: number | string;
	lfs: boolean;
	git_oid: string | null;
}

const FILE_COLUMNS = "f.path, f.sha256, b.size, f.lfs, b.git_oid";

function fileOf(row: FileRow): FileEntry {
	return { path: row.path, sha256: row.sha256, size: Number(row.size), lfs: row.lfs, gitOid: row.git_oid };
}

/** A repository of a type, its id matched case-insensitively (as on the public hub), or undefined. */
export async function findRepo(db: Queryable, type: RepoType, id: string): Promise<FoundRepo | undefined> {
	const result = await db.query<{ id: string; namespace: string | null; private: boolean }>(
		"SELECT id, namespace, private FROM repos WHERE type = $1 AND lower(id) = lower($2)",
		[type, id],
	);
	const row = result.rows[0];
	return row ? { type, id: row.id, namespace: row.namespace, private: row.private } : undefined;
}

/** Which of these repositories (of one type) already have a main branch. */
export async function reposWithMain(
	db: Queryable,
	type: RepoType,
	ids: readonly string[],
): Promise<Set<string>> {
	const found = new Set<string>();
	for (let start = 0; start < ids.length; start += 10_000) {
		const result = await db.query<{ repo_id: string }>(
			`SELECT repo_id FROM refs
			WHERE repo_type = $1 AND repo_id = ANY($2::text[]) AND kind = 'branch' AND name = 'main'`,
			[type, ids.slice(start, start + 10_000)],
		);
		for (const row of result.rows) found.add(row.repo_id);
	}
	return found;
}

/**
 * The SQL condition (on the repositories aliased `m`) keeping only those a viewer may read, with its two
 * bound parameters at `$first` and `$first + 1` (see readableParameters). One text for every viewer: a
 * private repository hidden from the viewer and a missing one run the same query and both find no row,
 * so neither the answer nor the work (hence the time) tells them apart.
 */
export function readableCondition(first: number): string {
	return `(NOT m.private OR $${first}::boolean OR lower(m.namespace) = ANY($${first + 1}::text[]))`;
}

/** The parameters of readableCondition for readableNamespaces' answer. */
export function readableParameters(readable: readonly string[] | "all"): [boolean, string[]] {
	return readable === "all" ? [true, []] : [false, [...readable]];
}

/**
 * Finds a repository (case-insensitively) and a revision of it: a branch, else a tag, else a full
 * commit id of that repository. One query. With `readable` (readableNamespaces), a private repository
 * outside it is not found, exactly as a missing one.
 */
export async function resolveRevision(
	db: Queryable,
	type: RepoType,
	id: string,
	revision: string,
	readable: readonly string[] | "all" = "all",
): Promise<Resolved> {
	const result = await db.query<{
		id: string;
		commit_id: string | null;
		namespace: string | null;
		private: boolean;
		library_name: string | null;
	}>(
		`SELECT m.id, m.namespace, m.private, m.library_name, COALESCE(
			(SELECT r.commit_id FROM refs r WHERE r.repo_type = m.type AND r.repo_id = m.id AND r.name = $3
				ORDER BY r.kind LIMIT 1),
			(SELECT c.id FROM commits c WHERE c.repo_type = m.type AND c.repo_id = m.id AND c.id = $4)
		) AS commit_id
		FROM repos m WHERE m.type = $1 AND lower(m.id) = lower($2) AND ${readableCondition(5)}`,
		[type, id, revision, COMMIT_ID.test(revision) ? revision : null, ...readableParameters(readable)],
	);
	const row = result.rows[0];
	if (!row) return { status: "no-repo" };
	const repo: FoundRepo = { type, id: row.id, namespace: row.namespace, private: row.private };
	if (!row.commit_id) return { status: "no-revision", ...repo };
	return { status: "ok", commitId: row.commit_id, libraryName: row.library_name, ...repo };
}

/** Every file of a commit, by path (byte order). */
export async function listFiles(db: Queryable, repo: RepoKey, commitId: string): Promise<FileEntry[]> {
	const result = await db.query<FileRow>(
		`SELECT ${FILE_COLUMNS} FROM commit_files f JOIN blobs b ON b.sha256 = f.sha256
		WHERE f.repo_type = $1 AND f.repo_id = $2 AND f.commit_id = $3 ORDER BY f.path`,
		[repo.type, repo.id, commitId],
		{ prepare: true },
	);
	return result.rows.map(fileOf);
}

/** One file of a commit, or undefined. */
export async function getFile(
	db: Queryable,
	repo: RepoKey,
	commitId: string,
	path: string,
): Promise<FileEntry | undefined> {
	const result = await db.query<FileRow>(
		`SELECT ${FILE_COLUMNS} FROM commit_files f JOIN blobs b ON b.sha256 = f.sha256
		WHERE f.repo_type = $1 AND f.repo_id = $2 AND f.commit_id = $3 AND f.path = $4`,
		[repo.type, repo.id, commitId, path],
	);
	const row = result.rows[0];
	return row ? fileOf(row) : undefined;
}

/** Whether `path` is a folder of the commit ("" is the root, always one). */
export async function isFolder(
	db: Queryable,
	repo: RepoKey,
	commitId: string,
	path: string,
): Promise<boolean> {
	if (path === "") return true;
	const result = await db.query(
		"SELECT 1 FROM commit_folders WHERE repo_type = $1 AND repo_id = $2 AND commit_id = $3 AND path = $4",
		[repo.type, repo.id, commitId, path],
	);
	return result.rows.length > 0;
}

export interface TreeQuery {
	repo: RepoKey;
	commitId: string;
	/** Folder to list ("" for the root). */
	path: string;
	recursive: boolean;
	/** List entries whose path sorts after this one (the page cursor). */
	after?: string;
	limit: number;
}

/**
 * A page of a folder's entries (files and folders together, by path), `limit + 1` looked up so the
 * caller knows whether there is a next page.
 */
export async function treePage(db: Queryable, query: TreeQuery): Promise<TreeEntry[]> {
	const prefix = query.path === "" ? "" : `${query.path}/`;
	const params = [query.repo.type, query.repo.id, query.commitId, prefix, query.after ?? "", query.limit + 1];
	// Direct children have no further "/" after the prefix.
	const depth = query.recursive ? "" : "AND strpos(substr(e.path, length($4) + 1), '/') = 0";
	const result = await db.query<FileRow & { tree_id: string | null }>(
		`SELECT e.* FROM (
			SELECT f.path, f.sha256, b.size, f.lfs, b.git_oid, NULL::text AS tree_id
			FROM commit_files f JOIN blobs b ON b.sha256 = f.sha256
			WHERE f.repo_type = $1 AND f.repo_id = $2 AND f.commit_id = $3 AND starts_with(f.path, $4) AND f.path > $5
			UNION ALL
			SELECT d.path, NULL, 0, false, NULL, d.tree_id
			FROM commit_folders d
			WHERE d.repo_type = $1 AND d.repo_id = $2 AND d.commit_id = $3 AND starts_with(d.path, $4) AND d.path > $5
		) e WHERE true ${depth}
		ORDER BY e.path COLLATE "C" LIMIT $6`,
		params,
	);
	return result.rows.map((row): TreeEntry =>
		row.tree_id !== null
			? { type: "directory", path: row.path, treeId: row.tree_id }
			: { type: "file", ...fileOf(row) },
	);
}

/** The entries (files or folders) at the given paths; paths that do not exist are left out. */
export async function pathsInfo(
	db: Queryable,
	repo: RepoKey,
	commitId: string,
	paths: readonly string[],
): Promise<TreeEntry[]> {
	const result = await db.query<FileRow & { tree_id: string | null }>(
		`SELECT f.path, f.sha256, b.size, f.lfs, b.git_oid, NULL::text AS tree_id
		FROM commit_files f JOIN blobs b ON b.sha256 = f.sha256
		WHERE f.repo_type = $1 AND f.repo_id = $2 AND f.commit_id = $3 AND f.path = ANY($4::text[])
		UNION ALL
		SELECT d.path, NULL, 0, false, NULL, d.tree_id FROM commit_folders d
		WHERE d.repo_type = $1 AND d.repo_id = $2 AND d.commit_id = $3 AND d.path = ANY($4::text[])`,
		[repo.type, repo.id, commitId, paths],
	);
	const byPath = new Map(
		result.rows.map((row): [string, TreeEntry] => [
			row.path,
			row.tree_id !== null
				? { type: "directory", path: row.path, treeId: row.tree_id }
				: { type: "file", ...fileOf(row) },
		]),
	);
	// In the order asked for, each once.
	return [...new Set(paths)].flatMap((path) => {
		const entry = byPath.get(path);
		return entry ? [entry] : [];
	});
}

/** How far back lastCommit looks: older changes are attributed to the oldest commit looked at. */
const HISTORY_DEPTH = 1000;

/**
 * The last commit that changed each entry (a file's blob or a folder's tree), following the first-parent
 * chain from `commitId`.
 */
export async function lastCommits(
	db: Queryable,
	repo: RepoKey,
	commitId: string,
	entries: readonly TreeEntry[],
): Promise<Map<string, LastCommit>> {
	const chainResult = await db.query<{ id: string; title: string; created_at: Date | string }>(
		`WITH RECURSIVE chain(id, parent_id, title, created_at, depth) AS (
			SELECT id, parent_id, title, created_at, 0 FROM commits WHERE repo_type = $1 AND repo_id = $2 AND id = $3
			UNION ALL
			SELECT c.id, c.parent_id, c.title, c.created_at, chain.depth + 1
			FROM commits c JOIN chain ON c.repo_type = $1 AND c.repo_id = $2 AND c.id = chain.parent_id
			WHERE chain.depth < $4
		) SELECT id, title, created_at FROM chain ORDER BY depth`,
		[repo.type, repo.id, commitId, HISTORY_DEPTH],
	);
	const chain = chainResult.rows.map((row) => ({
		id: row.id,
		title: row.title,
		date: (row.created_at instanceof Date ? row.created_at : new Date(row.created_at)).toISOString(),
	}));
	const paths = entries.map((entry) => entry.path);
	const states = await db.query<{ commit_id: string; path: string; state: string }>(
		`SELECT commit_id, path, sha256 || ':' || lfs AS state FROM commit_files
		WHERE repo_type = $1 AND repo_id = $2 AND commit_id = ANY($3::text[]) AND path = ANY($4::text[])
		UNION ALL
		SELECT commit_id, path, tree_id FROM commit_folders
		WHERE repo_type = $1 AND repo_id = $2 AND commit_id = ANY($3::text[]) AND path = ANY($4::text[])`,
		[repo.type, repo.id, chain.map((c) => c.id), paths],
	);
	const stateAt = new Map(states.rows.map((row) => [`${row.commit_id}\n${row.path}`, row.state]));
	const result = new Map<string, LastCommit>();
	for (const path of paths) {
		const current = stateAt.get(`${commitId}\n${path}`);
		let last = chain[0];
		for (let index = 1; index < chain.length; index++) {
			if (stateAt.get(`${chain[index]!.id}\n${path}`) !== current) break;
			last = chain[index];
		}
		if (last) result.set(path, last);
	}
	return result;
}

/** A commit as a history lists it. */
export interface HistoryEntry {
	id: string;
	title: string;
	message: string;
	/** `Name <email>`. */
	author: string;
	createdAt: Date | string;
}

/**
 * A page of `limit` commits along the first-parent chain, newest first, plus the next one when there
 * is one (so the caller knows another page follows): from `commitId`, or from the parent of `after`
 * (the last commit of the previous page).
 */
export async function commitHistory(
	db: Queryable,
	repo: RepoKey,
	from: { commitId: string } | { after: string },
	limit: number,
): Promise<HistoryEntry[]> {
	const after = "after" in from ? from.after : null;
	const start = "commitId" in from ? from.commitId : null;
	const rows = await db.query<{
		id: string;
		title: string;
		message: string;
		author: string;
		created_at: Date | string;
	}>(
		`WITH RECURSIVE chain(id, parent_id, title, message, author, created_at, depth) AS (
			SELECT c.id, c.parent_id, c.title, c.message, c.author, c.created_at, 0 FROM commits c
			WHERE c.repo_type = $1 AND c.repo_id = $2 AND c.id = COALESCE(
				(SELECT parent_id FROM commits WHERE repo_type = $1 AND repo_id = $2 AND id = $3::text), $4)
			UNION ALL
			SELECT c.id, c.parent_id, c.title, c.message, c.author, c.created_at, chain.depth + 1
			FROM commits c JOIN chain ON c.repo_type = $1 AND c.repo_id = $2 AND c.id = chain.parent_id
			WHERE chain.depth < $5
		) SELECT id, title, message, author, created_at FROM chain ORDER BY depth`,
		[repo.type, repo.id, after, start, limit],
	);
	return rows.rows.map((row) => ({
		id: row.id,
		title: row.title,
		message: row.message,
		author: row.author,
		createdAt: row.created_at,
	}));
}

/** The kinds of the refs named `name` (a branch and a tag may share a name). */
export async function refKinds(db: Queryable, repo: RepoKey, name: string): Promise<Array<"branch" | "tag">> {
	const result = await db.query<{ kind: "branch" | "tag" }>(
		"SELECT kind FROM refs WHERE repo_type = $1 AND repo_id = $2 AND name = $3",
		[repo.type, repo.id, name],
	);
	return result.rows.map((row) => row.kind);
}

/** The branches and tags of a repository, with the commit each points to. */
export async function listRefs(
	db: Queryable,
	repo: RepoKey,
): Promise<Array<{ kind: "branch" | "tag"; name: string; commitId: string }>> {
	const result = await db.query<{ kind: "branch" | "tag"; name: string; commit_id: string }>(
		"SELECT kind, name, commit_id FROM refs WHERE repo_type = $1 AND repo_id = $2 ORDER BY kind, name",
		[repo.type, repo.id],
	);
	return result.rows.map((row) => ({ kind: row.kind, name: row.name, commitId: row.commit_id }));
}

/**
 * The main branch of several repositories of one type: its commit and file names (for listings with
 * `full`), by id.
 */
export async function mainSnapshots(
	db: Queryable,
	type: RepoType,
	ids: readonly string[],
	withFiles: boolean,
): Promise<Map<string, { sha: string; files: string[] }>> {
	const heads = await db.query<{ repo_id: string; commit_id: string }>(
		`SELECT repo_id, commit_id FROM refs
		WHERE repo_type = $1 AND repo_id = ANY($2::text[]) AND kind = 'branch' AND name = 'main'`,
		[type, ids],
	);
	const out = new Map(heads.rows.map((row) => [row.repo_id, { sha: row.commit_id, files: [] as string[] }]));
	if (withFiles && heads.rows.length > 0) {
		const files = await db.query<{ repo_id: string; path: string }>(
			`SELECT f.repo_id, f.path FROM commit_files f
			JOIN unnest($2::text[], $3::text[]) AS h(repo_id, commit_id)
				ON f.repo_type = $1 AND f.repo_id = h.repo_id AND f.commit_id = h.commit_id
			ORDER BY f.repo_id, f.path`,
			[type, heads.rows.map((row) => row.repo_id), heads.rows.map((row) => row.commit_id)],
		);
		for (const row of files.rows) out.get(row.repo_id)?.files.push(row.path);
	}
	return out;
}

/** Bytes taken by every distinct blob any commit of each repository (of one type) refers to, by id. */
export async function usedStorage(
	db: Queryable,
	type: RepoType,
	ids: readonly string[],
): Promise<Map<string, number>> {
	const result = await db.query<{ repo_id: string; total: number | string | null }>(
		`SELECT d.repo_id, sum(b.size) AS total
		FROM (SELECT DISTINCT repo_id, sha256 FROM commit_files WHERE repo_type = $1 AND repo_id = ANY($2::text[])) d
		JOIN blobs b ON b.sha256 = d.sha256 GROUP BY d.repo_id`,
		[type, ids],
	);
	return new Map(result.rows.map((row) => [row.repo_id, Number(row.total ?? 0)]));
}

/** A file or folder in the public hub's tree JSON. */
export function treeEntryJson(entry: TreeEntry, lastCommit?: LastCommit): RepoTreeEntry {
	const json: RepoTreeEntry =
		entry.type === "directory"
			? { type: "directory", oid: entry.treeId, size: 0, path: entry.path }
			: {
					type: "file",
					oid: fileOid(entry),
					size: entry.size,
					path: entry.path,
					...(entry.lfs
						? {
								lfs: {
									oid: entry.sha256,
									size: entry.size,
									pointerSize: lfsPointerSize(entry.sha256, entry.size),
								},
							}
						: {}),
				};
	if (lastCommit) json.lastCommit = lastCommit;
	return json;
}

/** A file as a `siblings` entry of model info (`blobs=true` adds size, blob id and LFS details). */
export function siblingJson(file: FileEntry, withBlobs: boolean): ModelSibling {
	if (!withBlobs) return { rfilename: file.path };
	return {
		rfilename: file.path,
		size: file.size,
		blobId: fileOid(file),
		...(file.lfs
			? { lfs: { size: file.size, sha256: file.sha256, pointerSize: lfsPointerSize(file.sha256, file.size) } }
			: {}),
	};
}
