import type { Queryable } from "../db/types.js";
import type { RepoKey } from "../repo-identity.js";
import { compareCodePoints, loadTrees, rootTrees, type Tree, type TreeFile, type TreeItem } from "./trees.js";

/** A commit with its first parent, as its own page shows it. */
export interface CommitRecord {
	id: string;
	parentId: string | null;
	title: string;
	message: string;
	/** `Name <email>`. */
	author: string;
	createdAt: Date | string;
}

/** One file a commit added, changed or deleted (`before` and `after` as the trees hold them). */
export interface FileChange {
	path: string;
	status: "added" | "modified" | "deleted";
	before?: TreeFile;
	after?: TreeFile;
}

/** A commit of the repository, or undefined when it has none with this id. */
export async function commitRecord(
	db: Queryable,
	repo: RepoKey,
	commitId: string,
): Promise<CommitRecord | undefined> {
	const result = await db.query<{
		id: string;
		parent_id: string | null;
		title: string;
		message: string;
		author: string;
		created_at: Date | string;
	}>(
		`SELECT id, parent_id, title, message, author, created_at FROM commits
		WHERE repo_type = $1 AND repo_id = $2 AND id = $3`,
		[repo.type, repo.id, commitId],
	);
	const row = result.rows[0];
	if (!row) return undefined;
	return {
		id: row.id,
		parentId: row.parent_id,
		title: row.title,
		message: row.message,
		author: row.author,
		createdAt: row.created_at,
	};
}

function sameFile(a: TreeFile, b: TreeFile): boolean {
	return a.sha256 === b.sha256 && a.size === b.size && a.lfs === b.lfs;
}

/**
 * The files that differ between two root trees (`before` undefined: everything is added), in path
 * order, at most `limit` of them (`more` when there are others). Sub-trees with the same id are
 * equal (trees are content-addressed, as in git), so only the folders that changed are loaded: a
 * one-file commit to a large repository reads one tree per level of that file's path.
 */
export async function changedFiles(
	db: Queryable,
	before: string | undefined,
	after: string,
	limit: number,
): Promise<{ changes: FileChange[]; more: boolean }> {
	const changes: FileChange[] = [];
	// Folder pairs still to compare, level by level (one query per level for trees not cached).
	let level: Array<{ path: string; before: string | undefined; after: string | undefined }> = [
		{ path: "", before, after },
	];
	while (level.length > 0 && changes.length <= limit) {
		const oids = level.flatMap((pair) => [pair.before, pair.after].filter((oid) => oid !== undefined));
		const trees = await loadTrees(db, oids);
		const next: typeof level = [];
		for (const pair of level) {
			const items = (oid: string | undefined): readonly TreeItem[] =>
				oid === undefined ? [] : (trees.get(oid) as Tree).items;
			const old = new Map(items(pair.before).map((item) => [item.name, item]));
			const current = new Map(items(pair.after).map((item) => [item.name, item]));
			for (const name of new Set([...old.keys(), ...current.keys()])) {
				const path = pair.path === "" ? name : `${pair.path}/${name}`;
				const a = old.get(name);
				const b = current.get(name);
				const aFolder = a?.type === "directory" ? a.oid : undefined;
				const bFolder = b?.type === "directory" ? b.oid : undefined;
				if ((aFolder !== undefined || bFolder !== undefined) && aFolder !== bFolder)
					next.push({ path, before: aFolder, after: bFolder });
				const aFile = a?.type === "file" ? a : undefined;
				const bFile = b?.type === "file" ? b : undefined;
				if (aFile && bFile) {
					if (!sameFile(aFile, bFile))
						changes.push({ path, status: "modified", before: aFile, after: bFile });
				} else if (aFile) changes.push({ path, status: "deleted", before: aFile });
				else if (bFile) changes.push({ path, status: "added", after: bFile });
			}
		}
		level = next;
	}
	changes.sort((x, y) => compareCodePoints(x.path, y.path));
	return { changes: changes.slice(0, limit), more: changes.length > limit || level.length > 0 };
}

/** The commit and the files it changed from its first parent (all of its files for a first commit). */
export async function commitChanges(
	db: Queryable,
	repo: RepoKey,
	commitId: string,
	limit: number,
): Promise<{ commit: CommitRecord; changes: FileChange[]; more: boolean } | undefined> {
	const commit = await commitRecord(db, repo, commitId);
	if (!commit) return undefined;
	const roots = await rootTrees(db, repo, commit.parentId ? [commit.id, commit.parentId] : [commit.id]);
	const after = roots.get(commit.id) as string;
	const before = commit.parentId ? roots.get(commit.parentId) : undefined;
	return { commit, ...(await changedFiles(db, before, after, limit)) };
}
