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
 * order (code points, as git and the tree listings sort), the first `limit` of those after the path
 * `afterPath` when given (`more` when there are others: the next page starts after the last path).
 * Sub-trees with the same id are equal (trees are content-addressed, as in git), so only the folders
 * that changed are loaded, depth first in path order, and those wholly before `afterPath` are skipped: a
 * one-file commit to a large repository reads one tree per level of that file's path, and a page of a
 * large commit reads the folders of that page.
 */
export async function changedFiles(
	db: Queryable,
	before: string | undefined,
	after: string,
	limit: number,
	afterPath?: string,
): Promise<{ changes: FileChange[]; more: boolean }> {
	const changes: FileChange[] = [];
	const past = (path: string) => afterPath === undefined || compareCodePoints(path, afterPath) > 0;
	// A folder's paths all sort before `afterPath` when it neither starts with the folder nor sorts before it.
	const skipFolder = (path: string) =>
		afterPath !== undefined &&
		compareCodePoints(afterPath, `${path}/`) > 0 &&
		!afterPath.startsWith(`${path}/`);
	/** Walks one folder pair; false once the page is full (one change past `limit`, to tell `more`). */
	const walk = async (
		folder: string,
		old: string | undefined,
		current: string | undefined,
	): Promise<boolean> => {
		const trees = await loadTrees(
			db,
			[old, current].filter((oid) => oid !== undefined),
		);
		const items = (oid: string | undefined): readonly TreeItem[] =>
			oid === undefined ? [] : (trees.get(oid) as Tree).items;
		const a = new Map(items(old).map((item) => [item.name, item]));
		const b = new Map(items(current).map((item) => [item.name, item]));
		// A folder sorts as its name and "/", so its files come where their paths sort (git's tree order).
		const steps: Array<{ key: string; name: string; folder: boolean }> = [];
		for (const name of new Set([...a.keys(), ...b.keys()])) {
			const x = a.get(name);
			const y = b.get(name);
			const xFolder = x?.type === "directory" ? x.oid : undefined;
			const yFolder = y?.type === "directory" ? y.oid : undefined;
			if ((xFolder !== undefined || yFolder !== undefined) && xFolder !== yFolder)
				steps.push({ key: `${name}/`, name, folder: true });
			if (x?.type === "file" || y?.type === "file") steps.push({ key: name, name, folder: false });
		}
		steps.sort((p, q) => compareCodePoints(p.key, q.key));
		for (const step of steps) {
			const path = folder === "" ? step.name : `${folder}/${step.name}`;
			const x = a.get(step.name);
			const y = b.get(step.name);
			if (step.folder) {
				if (skipFolder(path)) continue;
				const xFolder = x?.type === "directory" ? x.oid : undefined;
				const yFolder = y?.type === "directory" ? y.oid : undefined;
				if (!(await walk(path, xFolder, yFolder))) return false;
				continue;
			}
			if (!past(path)) continue;
			const xFile = x?.type === "file" ? x : undefined;
			const yFile = y?.type === "file" ? y : undefined;
			if (xFile && yFile) {
				if (!sameFile(xFile, yFile)) changes.push({ path, status: "modified", before: xFile, after: yFile });
			} else if (xFile) changes.push({ path, status: "deleted", before: xFile });
			else if (yFile) changes.push({ path, status: "added", after: yFile });
			if (changes.length > limit) return false;
		}
		return true;
	};
	await walk("", before, after);
	return { changes: changes.slice(0, limit), more: changes.length > limit };
}

/** The commit and the files it changed from its first parent (all of its files for a first commit). */
export async function commitChanges(
	db: Queryable,
	repo: RepoKey,
	commitId: string,
	limit: number,
	afterPath?: string,
): Promise<{ commit: CommitRecord; changes: FileChange[]; more: boolean } | undefined> {
	const commit = await commitRecord(db, repo, commitId);
	if (!commit) return undefined;
	const roots = await rootTrees(db, repo, commit.parentId ? [commit.id, commit.parentId] : [commit.id]);
	const after = roots.get(commit.id) as string;
	const before = commit.parentId ? roots.get(commit.parentId) : undefined;
	return { commit, ...(await changedFiles(db, before, after, limit, afterPath)) };
}
