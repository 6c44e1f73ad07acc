import type { ModelSibling } from "../api/models.js";
import type { LastCommit, RepoTreeEntry } from "../api/repos.js";
import type { Queryable } from "../db/types.js";
import type { RepoKey, RepoType } from "../repo-identity.js";
import { COMMIT_ID } from "../vocabulary.js";
import { fileOid, lfsPointerSize } from "./git.js";
import {
	compareCodePoints,
	walkTree,
	walkTrees,
	loadTree,
	resolvePaths,
	rootTrees,
	treeFromRow,
	type PathItem,
	type TreeFile,
	type TreeItem,
} from "./trees.js";

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
	/** How access requests to a gated repository are answered; null when it is not gated. */
	gated: GatedMode | null;
}

/** The gated modes of huggingface_hub's update_repo_settings(gated=…). */
export type GatedMode = "auto" | "manual";

export type Resolved =
	| { status: "no-repo" }
	| ({ status: "no-revision" } & FoundRepo)
	| ({ status: "ok"; commitId: string; libraryName: string | null } & FoundRepo);

/** A tree's file as the API shows it, at its path. */
function fileAt(path: string, item: TreeFile): FileEntry {
	return { path, sha256: item.sha256, size: item.size, lfs: item.lfs, gitOid: item.gitOid };
}

function entryAt(path: string, item: TreeItem): TreeEntry {
	return item.type === "directory"
		? { type: "directory", path, treeId: item.oid }
		: { type: "file", ...fileAt(path, item) };
}

/** The root tree of a commit of the repository, or undefined. */
async function rootOf(db: Queryable, repo: RepoKey, commitId: string): Promise<string | undefined> {
	return (await rootTrees(db, repo, [commitId])).get(commitId);
}

/** A repository of a type, its id matched case-insensitively (as on the public hub), or undefined. */
export async function findRepo(db: Queryable, type: RepoType, id: string): Promise<FoundRepo | undefined> {
	const result = await db.query<{
		id: string;
		namespace: string | null;
		private: boolean;
		gated: GatedMode | null;
	}>("SELECT id, namespace, private, gated FROM repos WHERE type = $1 AND lower(id) = lower($2)", [type, id]);
	const row = result.rows[0];
	return row
		? { type, id: row.id, namespace: row.namespace, private: row.private, gated: row.gated }
		: undefined;
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
		gated: GatedMode | null;
		library_name: string | null;
	}>(
		`SELECT m.id, m.namespace, m.private, m.gated, m.library_name, COALESCE(
			(SELECT r.commit_id FROM refs r WHERE r.repo_type = m.type AND r.repo_id = m.id AND r.name = $3
				ORDER BY r.kind LIMIT 1),
			(SELECT c.id FROM commits c WHERE c.repo_type = m.type AND c.repo_id = m.id AND c.id = $4)
		) AS commit_id
		FROM repos m WHERE m.type = $1 AND lower(m.id) = lower($2) AND ${readableCondition(5)}`,
		[type, id, revision, COMMIT_ID.test(revision) ? revision : null, ...readableParameters(readable)],
	);
	const row = result.rows[0];
	if (!row) return { status: "no-repo" };
	const repo: FoundRepo = {
		type,
		id: row.id,
		namespace: row.namespace,
		private: row.private,
		gated: row.gated,
	};
	if (!row.commit_id) return { status: "no-revision", ...repo };
	return { status: "ok", commitId: row.commit_id, libraryName: row.library_name, ...repo };
}

/** Every file of a commit, by path (byte order). */
export async function listFiles(db: Queryable, repo: RepoKey, commitId: string): Promise<FileEntry[]> {
	const root = await rootOf(db, repo, commitId);
	if (root === undefined) return [];
	const items = await walkTree(db, root);
	return items.flatMap(({ path, item }) => (item.type === "file" ? [fileAt(path, item)] : []));
}

/**
 * Every file under a commit's root tree, by path (byte order). `rootRow` is the root's stored row when
 * the caller's query already read it (model info reads it with the model: one statement per lookup).
 */
export async function listTreeFiles(
	db: Queryable,
	root: string,
	rootRow?: string | null,
): Promise<FileEntry[]> {
	const known = rootRow == null ? undefined : treeFromRow(root, rootRow);
	const items = (await walkTrees(db, [root], "", known ? [known] : [])).get(root) as PathItem[];
	return items.flatMap(({ path, item }) => (item.type === "file" ? [fileAt(path, item)] : []));
}

/** One file of a commit, or undefined. */
export async function getFile(
	db: Queryable,
	repo: RepoKey,
	commitId: string,
	path: string,
): Promise<FileEntry | undefined> {
	const root = await rootOf(db, repo, commitId);
	if (root === undefined) return undefined;
	const [item] = await resolvePaths(db, [{ root, path }]);
	return item?.type === "file" ? fileAt(path, item) : undefined;
}

/** Whether `path` is a folder of the commit ("" is the root, always one). */
export async function isFolder(
	db: Queryable,
	repo: RepoKey,
	commitId: string,
	path: string,
): Promise<boolean> {
	if (path === "") return true;
	const root = await rootOf(db, repo, commitId);
	if (root === undefined) return false;
	const [item] = await resolvePaths(db, [{ root, path }]);
	return item?.type === "directory";
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
 * A page of a folder's entries (files and folders together, by path in byte order), `limit + 1`
 * looked up so the caller knows whether there is a next page.
 */
export async function treePage(db: Queryable, query: TreeQuery): Promise<TreeEntry[]> {
	const root = await rootOf(db, query.repo, query.commitId);
	if (root === undefined) return [];
	let folder: string | undefined = root;
	if (query.path !== "") {
		const [item] = await resolvePaths(db, [{ root, path: query.path }]);
		folder = item?.type === "directory" ? item.oid : undefined;
	}
	if (folder === undefined) return [];
	const prefix = query.path === "" ? "" : `${query.path}/`;
	let items: PathItem[];
	if (query.recursive) {
		items = await walkTree(db, folder, query.path);
	} else {
		// A tree's entries are stored in name byte order, which is their paths' order.
		items = (await loadTree(db, folder)).items.map((item) => ({ path: `${prefix}${item.name}`, item }));
	}
	const after = query.after ?? "";
	const page: TreeEntry[] = [];
	for (const { path, item } of items) {
		if (page.length > query.limit) break;
		if (compareCodePoints(path, after) > 0) page.push(entryAt(path, item));
	}
	return page;
}

/** The entries (files or folders) at the given paths; paths that do not exist are left out. */
export async function pathsInfo(
	db: Queryable,
	repo: RepoKey,
	commitId: string,
	paths: readonly string[],
): Promise<TreeEntry[]> {
	const root = await rootOf(db, repo, commitId);
	if (root === undefined) return [];
	// In the order asked for, each once.
	const unique = [...new Set(paths)];
	const items = await resolvePaths(
		db,
		unique.map((path) => ({ root, path })),
	);
	return unique.flatMap((path, index) => {
		const item = items[index];
		return item ? [entryAt(path, item)] : [];
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
	const chainResult = await db.query<{
		id: string;
		tree_id: string;
		title: string;
		created_at: Date | string;
	}>(
		`WITH RECURSIVE chain(id, parent_id, tree_id, title, created_at, depth) AS (
			SELECT id, parent_id, tree_id, title, created_at, 0 FROM commits
			WHERE repo_type = $1 AND repo_id = $2 AND id = $3
			UNION ALL
			SELECT c.id, c.parent_id, c.tree_id, c.title, c.created_at, chain.depth + 1
			FROM commits c JOIN chain ON c.repo_type = $1 AND c.repo_id = $2 AND c.id = chain.parent_id
			WHERE chain.depth < $4
		) SELECT id, tree_id, title, created_at FROM chain ORDER BY depth`,
		[repo.type, repo.id, commitId, HISTORY_DEPTH],
	);
	const chain = chainResult.rows.map((row) => ({
		id: row.id,
		tree: row.tree_id,
		title: row.title,
		date: (row.created_at instanceof Date ? row.created_at : new Date(row.created_at)).toISOString(),
	}));
	const result = new Map<string, LastCommit>();
	const first = chain[0];
	if (!first) return result;
	const commitOf = (index: number): LastCommit => {
		const { id, title, date } = chain[index] as (typeof chain)[number];
		return { id, title, date };
	};
	// Each path's state (a file's blob and storage, a folder's tree) at the newest commit; walking back,
	// a path's last commit is the oldest one before its state first differs. Commits are looked at in
	// growing batches (trees of a batch loaded together, level by level) until every path is settled.
	const paths = [...new Set(entries.map((entry) => entry.path))];
	const stateOf = (item: TreeItem | undefined): string | undefined =>
		item === undefined ? undefined : item.type === "directory" ? item.oid : `${item.sha256}:${item.lfs}`;
	const current = (
		await resolvePaths(
			db,
			paths.map((path) => ({ root: first.tree, path })),
		)
	).map(stateOf);
	const open = new Map(paths.map((path, index) => [path, index]));
	let index = 1;
	for (let batch = 8; open.size > 0 && index < chain.length; batch *= 2) {
		const commits = chain.slice(index, index + batch);
		const pending = [...open];
		const lookups = commits.flatMap((commit) => pending.map(([path]) => ({ root: commit.tree, path })));
		const states = (await resolvePaths(db, lookups)).map(stateOf);
		commits.forEach((_, offset) => {
			pending.forEach(([path, at], which) => {
				if (!open.has(path)) return;
				if (states[offset * pending.length + which] !== current[at]) {
					result.set(path, commitOf(index + offset - 1));
					open.delete(path);
				}
			});
		});
		index += commits.length;
	}
	// Unchanged over the whole chain looked at: attributed to its oldest commit.
	for (const path of open.keys()) result.set(path, commitOf(chain.length - 1));
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

/** The kind of a ref: a branch, a tag, or a pull request's `refs/pr/N`. */
export type RefKind = "branch" | "tag" | "pr";

/** The kinds of the refs named `name` (a branch and a tag may share a name). */
export async function refKinds(db: Queryable, repo: RepoKey, name: string): Promise<RefKind[]> {
	const result = await db.query<{ kind: RefKind }>(
		"SELECT kind FROM refs WHERE repo_type = $1 AND repo_id = $2 AND name = $3",
		[repo.type, repo.id, name],
	);
	return result.rows.map((row) => row.kind);
}

/** The branches, tags and pull request refs of a repository, with the commit each points to. */
export async function listRefs(
	db: Queryable,
	repo: RepoKey,
): Promise<Array<{ kind: RefKind; name: string; commitId: string }>> {
	const result = await db.query<{ kind: RefKind; name: string; commit_id: string }>(
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
		const roots = await db.query<{ repo_id: string; tree_id: string }>(
			`SELECT c.repo_id, c.tree_id FROM commits c
			JOIN unnest($2::text[], $3::text[]) AS h(repo_id, commit_id)
				ON c.repo_type = $1 AND c.repo_id = h.repo_id AND c.id = h.commit_id`,
			[type, heads.rows.map((row) => row.repo_id), heads.rows.map((row) => row.commit_id)],
		);
		const trees = await walkTrees(
			db,
			roots.rows.map((row) => row.tree_id),
		);
		for (const row of roots.rows) {
			const snapshot = out.get(row.repo_id);
			if (!snapshot) continue;
			const items = trees.get(row.tree_id) as PathItem[];
			snapshot.files = items.filter(({ item }) => item.type === "file").map(({ path }) => path);
		}
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
		FROM repo_blobs d JOIN blobs b ON b.sha256 = d.sha256
		WHERE d.repo_type = $1 AND d.repo_id = ANY($2::text[]) GROUP BY d.repo_id`,
		[type, ids],
	);
	return new Map(result.rows.map((row) => [row.repo_id, Number(row.total ?? 0)]));
}

/** A file or folder in the public hub's tree JSON. */
export function treeEntryJson(entry: TreeEntry, lastCommit?: LastCommit, xetStored = false): RepoTreeEntry {
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
	if (xetStored && json.type === "file") json.xetStored = true;
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
