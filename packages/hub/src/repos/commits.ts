import type { Queryable } from "../db/types.js";
import { HubError } from "../errors.js";
import { repoKeyText, type RepoKey } from "../repo-identity.js";
import { buildTrees, commitOid, fileOid } from "./git.js";
import { isLfsFile } from "./lfs.js";
import { repoPathProblem } from "./paths.js";

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

export interface CommitInput {
	repo: RepoKey;
	/** Branch to move to the new commit ("main" by default); created when absent. */
	branch?: string;
	/** The complete file list of the new commit (a snapshot, not a diff: see applyChanges). */
	files: readonly CommitFile[];
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
}

export interface WrittenCommit {
	repo: RepoKey;
	commitId: string;
	treeId: string;
}

/** A commit that cannot be written; the message says why. */
function invalidCommit(message: string): HubError {
	return new HubError("Invalid", message);
}

interface PreparedFile {
	path: string;
	sha256: string;
	size: number;
	gitOid: string | null;
	lfs: boolean;
	oid: string;
}

function prepareFiles(input: CommitInput): PreparedFile[] {
	const seen = new Set<string>();
	const files = input.files.map((file): PreparedFile => {
		const problem = repoPathProblem(file.path);
		if (problem) throw invalidCommit(`${JSON.stringify(file.path.slice(0, 200))}: ${problem}`);
		if (seen.has(file.path)) throw invalidCommit(`${file.path} is listed twice`);
		seen.add(file.path);
		const gitOid = file.gitOid ?? null;
		const lfs = file.lfs ?? (isLfsFile(file.path, file.size) || gitOid === null);
		const prepared = { path: file.path, sha256: file.sha256, size: file.size, gitOid, lfs, oid: "" };
		prepared.oid = fileOid(prepared);
		return prepared;
	});
	// A path cannot be both a file and a folder.
	for (const path of seen) {
		let slash = path.indexOf("/");
		while (slash >= 0) {
			const folder = path.slice(0, slash);
			if (seen.has(folder)) throw invalidCommit(`${folder} is both a file and a folder`);
			slash = path.indexOf("/", slash + 1);
		}
	}
	return files;
}

/**
 * Writes commits (one per input, any number of repositories) inside the caller's transaction, in a fixed
 * number of statements whatever their count: blobs, commits, files, folders, refs. Each input is a
 * full snapshot; ids are git's (see git.ts). Writing the very same commit again changes nothing.
 */
export async function writeCommits(tx: Queryable, inputs: readonly CommitInput[]): Promise<WrittenCommit[]> {
	if (inputs.length === 0) return [];
	const prepared = inputs.map((input) => ({
		input,
		files: prepareFiles(input),
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
			WHERE r.kind = 'branch'`,
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
	// Column arrays for unnest: each row starts with the repository's type and id.
	const commitRows: unknown[][] = [[], [], [], [], [], [], [], [], []];
	const fileRows: unknown[][] = [[], [], [], [], [], []];
	const folderRows: unknown[][] = [[], [], [], [], []];
	const refRows: unknown[][] = [[], [], [], []];
	for (const { input, files, branch } of prepared) {
		const head = input.parent === undefined ? heads.get(`${repoKeyText(input.repo)}\n${branch}`) : undefined;
		const parent = input.parent === undefined ? (head?.commitId ?? null) : input.parent;
		const trees = buildTrees(new Map(files.map((file) => [file.path, file.oid])));
		// Nothing changed since the branch's head: no empty commit.
		if (head && head.treeId === trees.root) {
			written.push({ repo: input.repo, commitId: head.commitId, treeId: head.treeId });
			continue;
		}
		const date = new Date(Math.floor(input.date.getTime() / 1000) * 1000);
		const commitId = commitOid({
			tree: trees.root,
			parent,
			authorName: input.authorName,
			authorEmail: input.authorEmail,
			date,
			title: input.title,
			...(input.message ? { message: input.message } : {}),
		});
		written.push({ repo: input.repo, commitId, treeId: trees.root });
		const { type, id } = input.repo;
		for (const file of files) {
			const known = blobs.get(file.sha256);
			if (!known || (known.gitOid === null && file.gitOid !== null))
				blobs.set(file.sha256, { size: file.size, gitOid: file.gitOid });
			[type, id, commitId, file.path, file.sha256, file.lfs].forEach((value, index) =>
				fileRows[index]!.push(value),
			);
		}
		for (const [path, treeId] of trees.folders) {
			[type, id, commitId, path, treeId].forEach((value, index) => folderRows[index]!.push(value));
		}
		const row = [
			type,
			id,
			commitId,
			parent,
			trees.root,
			input.title,
			input.message ?? "",
			`${input.authorName} <${input.authorEmail}>`,
			date.toISOString(),
		];
		row.forEach((value, index) => commitRows[index]!.push(value));
		[type, id, branch, commitId].forEach((value, index) => refRows[index]!.push(value));
	}

	await tx.query(
		`INSERT INTO blobs (sha256, size, git_oid)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])
		ON CONFLICT (sha256) DO UPDATE SET git_oid = EXCLUDED.git_oid
			WHERE blobs.git_oid IS NULL AND EXCLUDED.git_oid IS NOT NULL`,
		[[...blobs.keys()], [...blobs.values()].map((b) => b.size), [...blobs.values()].map((b) => b.gitOid)],
	);
	const inserted = await tx.query<{ repo_type: string; repo_id: string; id: string }>(
		`INSERT INTO commits (repo_type, repo_id, id, parent_id, tree_id, title, message, author, created_at)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
			$8::text[], $9::timestamptz[])
		ON CONFLICT (repo_type, repo_id, id) DO NOTHING
		RETURNING repo_type, repo_id, id`,
		commitRows,
	);
	// Files and folders only for commits that are new (an identical commit already has them).
	const fresh = new Set(inserted.rows.map((row) => `${row.repo_type}:${row.repo_id}\n${row.id}`));
	const keep = (rows: unknown[][]): unknown[][] => {
		const indexes = (rows[0] as string[])
			.map((type, index) =>
				fresh.has(`${type}:${rows[1]![index] as string}\n${rows[2]![index] as string}`) ? index : -1,
			)
			.filter((index) => index >= 0);
		return rows.map((column) => indexes.map((index) => column[index]));
	};
	await tx.query(
		`INSERT INTO commit_files (repo_type, repo_id, commit_id, path, sha256, lfs)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[])`,
		keep(fileRows),
	);
	const folders = keep(folderRows);
	if ((folders[0] as unknown[]).length > 0) {
		await tx.query(
			`INSERT INTO commit_folders (repo_type, repo_id, commit_id, path, tree_id)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])`,
			folders,
		);
	}
	await tx.query(
		`INSERT INTO refs (repo_type, repo_id, kind, name, commit_id)
		SELECT repo_type, repo_id, 'branch', name, commit_id FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
			AS r(repo_type, repo_id, name, commit_id)
		ON CONFLICT (repo_type, repo_id, kind, name) DO UPDATE SET commit_id = EXCLUDED.commit_id`,
		refRows,
	);
	return written;
}
