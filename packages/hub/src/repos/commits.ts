import { holdAgainstCollection } from "../blobs/references.js";
import type { Queryable } from "../db/types.js";
import { entryNotFound, HubError } from "../errors.js";
import { repoKeyText, type RepoKey } from "../repo-identity.js";
import { commitOid, fileOid, objectId } from "./git.js";
import { isLfsFile } from "./lfs.js";
import { repoPathProblem } from "./paths.js";
import {
	cacheTree,
	compareCodePoints,
	gitTreeOid,
	itemNamed,
	loadTree,
	packTree,
	rootTrees,
	type PackedTree,
	type Tree,
	type TreeFile,
	type TreeFolder,
	type TreeItem,
} from "./trees.js";

/** A file of a commit: where it is in the repository and which stored blob holds its bytes. */
export interface CommitFile {
	path: string;
	sha256: string;
	size: number;
	/** Git's object id of the bytes (StoredBlob.gitOid); needed for files not stored through LFS. */
	gitOid: string | null | undefined;
	/** Store through LFS; decided by path and size (isLfsFile) when left out. */
	lfs?: boolean;
}

/** A change to a commit's tree, applied in order on top of the parent's. */
export type TreeEdit =
	| { kind: "put"; file: CommitFile }
	| { kind: "deleteFile"; path: string }
	| { kind: "deleteFolder"; path: string };

interface CommitHeaderInput {
	repo: RepoKey;
	/**
	 * Branch to move to the new commit ("main" by default), or a pull request's ref (`refs/pr/N`, which
	 * no branch name can be); created when absent.
	 */
	branch?: string;
	title: string;
	message?: string;
	authorName: string;
	authorEmail: string;
	date: Date;
	/**
	 * The parent commit: undefined to take the branch's current head, null for a first commit.
	 * A caller checking a client's `parentCommit` (409 when stale) compares before calling.
	 */
	parent?: string | null;
	/**
	 * The commit as a git client made it (git push): kept verbatim, its id is git's id of these bytes
	 * (objectId), and its tree and parent must be the ones written, else the commit is refused.
	 */
	gitObject?: { bytes: Buffer; tree: string; parents: readonly string[] };
}

/**
 * A commit to write: either the complete file list (`files`, a snapshot), `edits` to the parent's
 * tree (only the trees on the edited paths are rebuilt and written), or the stored `tree` of a commit of
 * the repository kept as it is (a squash: the same files under another history).
 */
export type CommitInput = CommitHeaderInput &
	(
		| { files: readonly CommitFile[]; edits?: undefined; tree?: undefined }
		| { edits: readonly TreeEdit[]; files?: undefined; tree?: undefined }
		| { tree: string; files?: undefined; edits?: undefined }
	);

export interface WrittenCommit {
	repo: RepoKey;
	commitId: string;
	treeId: string;
}

/** A commit that cannot be written; the message says why. */
function invalidCommit(message: string): HubError {
	return new HubError("Invalid", message);
}

/** A file of a snapshot, checked, as a tree entry. */
function treeFile(file: CommitFile, name: string): TreeFile {
	const gitOid = file.gitOid ?? null;
	const lfs = file.lfs ?? (isLfsFile(file.path, file.size) || gitOid === null);
	// A file kept in git needs its git id (fileOid says so when it is missing).
	const item: TreeFile = { type: "file", name, sha256: file.sha256, size: file.size, lfs, gitOid: null };
	if (!lfs) item.gitOid = fileOid({ sha256: file.sha256, size: file.size, lfs, gitOid });
	return item;
}

function checkPath(path: string): void {
	const problem = repoPathProblem(path);
	if (problem) throw invalidCommit(`${JSON.stringify(path.slice(0, 200))}: ${problem}`);
}

/** A snapshot as edits to an empty tree; a path listed twice is refused. */
function snapshotEdits(files: readonly CommitFile[]): TreeEdit[] {
	const seen = new Set<string>();
	return files.map((file) => {
		checkPath(file.path);
		if (seen.has(file.path)) throw invalidCommit(`${file.path} is listed twice`);
		seen.add(file.path);
		return { kind: "put", file };
	});
}

/** A folder being edited: entries from its stored tree (when it had one) with the edits applied. */
class EditedFolder {
	readonly files = new Map<string, TreeFile>();
	readonly folders = new Map<string, EditedFolder | TreeFolder>();
	changed = false;
	constructor(
		readonly stored: string | undefined,
		readonly tree?: Tree,
	) {
		for (const item of tree?.items ?? []) {
			if (item.type === "file") this.files.set(item.name, item);
			else this.folders.set(item.name, item);
		}
	}

	/** Whether no file is left in it or under it (a stored tree never is empty). */
	isEmpty(): boolean {
		if (this.files.size > 0) return false;
		for (const child of this.folders.values())
			if (!(child instanceof EditedFolder) || !child.isEmpty()) return false;
		return true;
	}
}

/** Applies edits to a tree (loading the stored trees on their paths), in order. */
async function applyEdits(
	db: Queryable,
	root: string | undefined,
	edits: readonly TreeEdit[],
): Promise<EditedFolder> {
	const top = new EditedFolder(root, root === undefined ? undefined : await loadTree(db, root));
	/** The folder at `names` (created when `create`), each on the way marked changed; undefined if absent. */
	const folderAt = async (names: readonly string[], create: boolean): Promise<EditedFolder | undefined> => {
		const trail: EditedFolder[] = [top];
		let folder = top;
		for (const name of names) {
			let child = folder.folders.get(name);
			if (child === undefined) {
				if (!create) return undefined;
				child = new EditedFolder(undefined);
				folder.folders.set(name, child);
			} else if (!(child instanceof EditedFolder)) {
				child = new EditedFolder(child.oid, await loadTree(db, child.oid));
				folder.folders.set(name, child);
			}
			folder = child;
			trail.push(folder);
		}
		for (const changed of trail) changed.changed = true;
		return folder;
	};
	for (const edit of edits) {
		const path = edit.kind === "put" ? edit.file.path : edit.path;
		const names = path.split("/");
		const name = names.pop() as string;
		if (edit.kind === "put") {
			checkPath(path);
			const folder = (await folderAt(names, true)) as EditedFolder;
			folder.files.set(name, treeFile(edit.file, name));
		} else if (edit.kind === "deleteFile") {
			const folder = await folderAt(names, false);
			if (!folder?.files.delete(name)) throw entryNotFound(`A file with this name doesn't exist: ${path}`);
		} else {
			const folder = await folderAt(names, false);
			const child = folder?.folders.get(name);
			if (!folder || !child || (child instanceof EditedFolder && child.isEmpty())) {
				throw entryNotFound(`A folder with this name doesn't exist: ${path}`);
			}
			folder.folders.delete(name);
		}
	}
	return top;
}

/**
 * The tree id of an edited folder (undefined when it ended empty and is not the root), adding the
 * trees it made to `made`.
 */
function finishFolder(folder: EditedFolder, path: string, made: Map<string, PackedTree>): string | undefined {
	if (!folder.changed && folder.stored !== undefined) return folder.stored;
	const items: TreeItem[] = [...folder.files.values()];
	for (const [name, child] of folder.folders) {
		const childPath = path === "" ? name : `${path}/${name}`;
		const oid = child instanceof EditedFolder ? finishFolder(child, childPath, made) : child.oid;
		if (oid === undefined) continue;
		if (folder.files.has(name)) throw invalidCommit(`${childPath} is both a file and a folder`);
		// The stored entry itself when unchanged, so that the chunk holding it is recognised as stored.
		const before = folder.tree === undefined ? undefined : itemNamed(folder.tree, name);
		items.push(
			before?.type === "directory" && before.oid === oid ? before : { type: "directory", name, oid },
		);
	}
	if (items.length === 0 && path !== "") return undefined;
	items.sort((a, b) => compareCodePoints(a.name, b.name));
	const oid = gitTreeOid(items);
	if (!made.has(oid)) made.set(oid, packTree(oid, items, folder.tree));
	return oid;
}

/**
 * Refuses a git client's commit whose tree or parents are not what the hub wrote: its id could not be
 * kept (a file mode other than 100644, a merge, a tree not in git's canonical form).
 */
function checkGitObject(
	git: NonNullable<CommitHeaderInput["gitObject"]>,
	root: string,
	parent: string | null,
): void {
	const id = objectId("commit", git.bytes).slice(0, 12);
	if (git.parents.length > 1) throw invalidCommit(`commit ${id} is a merge: push a linear history (rebase)`);
	if ((git.parents[0] ?? null) !== parent) {
		throw invalidCommit(
			`commit ${id} has the parent ${git.parents[0] ?? "(none)"}, not ${parent ?? "(none)"}`,
		);
	}
	if (git.tree !== root) {
		throw invalidCommit(
			`commit ${id}: its tree ${git.tree} cannot be stored as sent (the hub holds files of mode 100644 in git's canonical trees; it made ${root})`,
		);
	}
}

/** The files an edit list puts (whose blobs the repository now holds). */
function putFiles(edits: readonly TreeEdit[]): CommitFile[] {
	return edits.flatMap((edit) => (edit.kind === "put" ? [edit.file] : []));
}

/**
 * Writes commits (one per input, any number of repositories) inside the caller's transaction: blobs,
 * the new trees, commits, which repositories hold which blobs, refs. A snapshot input writes all its
 * trees (shared ones already stored are kept); an edit input only the trees on its edited paths. Ids
 * are git's (see git.ts). Writing the very same commit again changes nothing.
 */
export async function writeCommits(tx: Queryable, inputs: readonly CommitInput[]): Promise<WrittenCommit[]> {
	if (inputs.length === 0) return [];
	// Trees are shared and stored once: the collector must not delete one this commit stores again
	// (ON CONFLICT keeps the old row) between the insert and the commit (services/gc.ts collectTrees).
	await holdAgainstCollection(tx);
	const prepared = inputs.map((input) => ({
		input,
		edits: input.files !== undefined ? snapshotEdits(input.files) : (input.edits ?? []),
		branch: input.branch ?? "main",
	}));
	const branches = new Set<string>();
	for (const { input, branch } of prepared) {
		const key = `${repoKeyText(input.repo)}\n${branch}`;
		if (branches.has(key)) throw invalidCommit(`two commits for ${input.repo.id}@${branch} in one batch`);
		branches.add(key);
	}

	// Current heads, for inputs that take their parent from the branch.
	const wantHeads = prepared.filter((p) => p.input.parent === undefined);
	const heads = new Map<string, { commitId: string; treeId: string }>();
	if (wantHeads.length > 0) {
		const result = await tx.query<{
			repo_type: RepoKey["type"];
			repo_id: string;
			name: string;
			commit_id: string;
			tree_id: string;
		}>(
			`SELECT r.repo_type, r.repo_id, r.name, r.commit_id, c.tree_id FROM refs r
			JOIN unnest($1::text[], $2::text[], $3::text[]) AS w(repo_type, repo_id, name)
				ON r.repo_type = w.repo_type AND r.repo_id = w.repo_id AND r.name = w.name
			JOIN commits c ON c.repo_type = r.repo_type AND c.repo_id = r.repo_id AND c.id = r.commit_id
			WHERE r.kind IN ('branch', 'pr')`,
			[
				wantHeads.map((p) => p.input.repo.type),
				wantHeads.map((p) => p.input.repo.id),
				wantHeads.map((p) => p.branch),
			],
		);
		for (const row of result.rows) {
			const key = repoKeyText({ type: row.repo_type, id: row.repo_id });
			heads.set(`${key}\n${row.name}`, { commitId: row.commit_id, treeId: row.tree_id });
		}
	}

	const written: WrittenCommit[] = [];
	const blobs = new Map<string, { size: number; gitOid: string | null }>();
	const made = new Map<string, PackedTree>();
	// Column arrays for unnest: each row starts with the repository's type and id.
	const commitRows: unknown[][] = [[], [], [], [], [], [], [], [], [], []];
	const holdRows: unknown[][] = [[], [], []];
	const refRows: unknown[][] = [[], [], [], []];
	for (const { input, edits, branch } of prepared) {
		const head = input.parent === undefined ? heads.get(`${repoKeyText(input.repo)}\n${branch}`) : undefined;
		const parent = input.parent === undefined ? (head?.commitId ?? null) : input.parent;
		// Edits apply to the parent's tree; a snapshot starts from nothing.
		let base: string | undefined;
		if (input.edits !== undefined && parent !== null) {
			base = head?.treeId ?? (await rootTrees(tx, input.repo, [parent])).get(parent);
			if (base === undefined) throw invalidCommit(`the parent commit ${parent} is not in ${input.repo.id}`);
		}
		const root = input.tree ?? (finishFolder(await applyEdits(tx, base, edits), "", made) as string);
		// Nothing changed since the branch's head: no empty commit.
		if (head && head.treeId === root) {
			written.push({ repo: input.repo, commitId: head.commitId, treeId: head.treeId });
			continue;
		}
		const date = new Date(Math.floor(input.date.getTime() / 1000) * 1000);
		const git = input.gitObject;
		if (git !== undefined) checkGitObject(git, root, parent);
		const commitId =
			git !== undefined
				? objectId("commit", git.bytes)
				: commitOid({
						tree: root,
						parent,
						authorName: input.authorName,
						authorEmail: input.authorEmail,
						date,
						title: input.title,
						...(input.message ? { message: input.message } : {}),
					});
		written.push({ repo: input.repo, commitId, treeId: root });
		const { type, id } = input.repo;
		for (const file of putFiles(edits)) {
			const gitOid = file.gitOid ?? null;
			const known = blobs.get(file.sha256);
			if (!known || (known.gitOid === null && gitOid !== null))
				blobs.set(file.sha256, { size: file.size, gitOid });
			[type, id, file.sha256].forEach((value, index) => holdRows[index]!.push(value));
		}
		const row = [
			type,
			id,
			commitId,
			parent,
			root,
			input.title,
			input.message ?? "",
			`${input.authorName} <${input.authorEmail}>`,
			date.toISOString(),
			// As base64 text, as trees go (PGlite takes no bytea inside an array parameter).
			git === undefined ? null : git.bytes.toString("base64"),
		];
		row.forEach((value, index) => commitRows[index]!.push(value));
		[type, id, branch, commitId].forEach((value, index) => refRows[index]!.push(value));
	}

	if (blobs.size > 0) {
		await tx.query(
			// Rows already as they should be are skipped before the upsert: a DO UPDATE that changes
			// nothing still locks (and writes) the row, and a commit's stored files were just recorded.
			`INSERT INTO blobs (sha256, size, git_oid)
			SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) AS n(sha256, size, git_oid)
			WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.sha256 = n.sha256 AND (b.git_oid IS NOT NULL OR n.git_oid IS NULL))
			ON CONFLICT (sha256) DO UPDATE SET git_oid = EXCLUDED.git_oid
				WHERE blobs.git_oid IS NULL AND EXCLUDED.git_oid IS NOT NULL`,
			[[...blobs.keys()], [...blobs.values()].map((b) => b.size), [...blobs.values()].map((b) => b.gitOid)],
		);
	}
	// Trees go as base64 text: PGlite passes a large bytea parameter several times slower.
	const chunks = new Map(
		[...made.values()].flatMap((tree) => tree.newChunks.map((chunk) => [chunk.id, chunk.packed])),
	);
	if (chunks.size > 0) {
		await tx.query(
			`INSERT INTO tree_chunks (id, entries)
			SELECT id, decode(packed, 'base64') FROM unnest($1::text[], $2::text[]) AS t(id, packed)
			ON CONFLICT (id) DO NOTHING`,
			[[...chunks.keys()], [...chunks.values()].map((packed) => packed.toString("base64"))],
		);
	}
	if (made.size > 0) {
		await tx.query(
			`INSERT INTO trees (oid, entries)
			SELECT oid, decode(packed, 'base64') FROM unnest($1::text[], $2::text[]) AS t(oid, packed)
			ON CONFLICT (oid) DO NOTHING`,
			[[...made.keys()], [...made.values()].map((tree) => tree.row.toString("base64"))],
		);
	}
	await tx.query(
		`INSERT INTO commits (repo_type, repo_id, id, parent_id, tree_id, title, message, author, created_at,
			git_object)
		SELECT repo_type, repo_id, id, parent_id, tree_id, title, message, author, created_at,
			decode(git_object, 'base64')
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
			$8::text[], $9::timestamptz[], $10::text[])
			AS c(repo_type, repo_id, id, parent_id, tree_id, title, message, author, created_at, git_object)
		ON CONFLICT (repo_type, repo_id, id) DO NOTHING`,
		commitRows,
	);
	// Which repositories hold which blobs: what upload checks, storage sums and the collector read.
	if ((holdRows[0] as unknown[]).length > 0) {
		await tx.query(
			`INSERT INTO repo_blobs (repo_type, repo_id, sha256)
			SELECT DISTINCT * FROM unnest($1::text[], $2::text[], $3::text[])
			ON CONFLICT DO NOTHING`,
			holdRows,
		);
	}
	await tx.query(
		`INSERT INTO refs (repo_type, repo_id, kind, name, commit_id)
		SELECT repo_type, repo_id, CASE WHEN name LIKE 'refs/pr/%' THEN 'pr' ELSE 'branch' END, name, commit_id
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
			AS r(repo_type, repo_id, name, commit_id)
		ON CONFLICT (repo_type, repo_id, kind, name) DO UPDATE SET commit_id = EXCLUDED.commit_id`,
		refRows,
	);
	// Made trees are kept parsed: the next commit to the branch starts from them.
	for (const { tree } of made.values()) cacheTree(tree);
	return written;
}
