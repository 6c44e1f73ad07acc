import { holdAgainstCollection, touchBlobs } from "../blobs/references.js";
import type { Database, Queryable } from "../db/types.js";

/**
 * What mirror mode keeps in the database (migration 20): the upstream's answers, where its branches
 * pointed, and its files (their metadata, and the SHA-256 of their stored bytes once fetched and
 * verified). Ids are keyed lowercased.
 */

export interface MirrorRepo {
	type: string;
	id: string;
}

export interface StoredAnswer {
	body: string;
	nextPath: string | null;
	/** Seconds since the upstream gave it. */
	ageSeconds: number;
}

export interface MirroredFile {
	commitId: string;
	path: string;
	size: number;
	/** The upstream's ETag: the git blob id (40 hex) of a regular file, the SHA-256 (64 hex) of an LFS file. */
	etag: string;
	lfs: boolean;
	/** Set once the bytes are stored and verified. */
	sha256: string | null;
}

const key = (repo: MirrorRepo): [string, string] => [repo.type, repo.id.toLowerCase()];

const AGE = "extract(epoch FROM now() - fetched_at)";

export async function loadAnswer(
	db: Queryable,
	repo: MirrorRepo,
	requestKey: string,
): Promise<StoredAnswer | undefined> {
	const result = await db.query<{ body: string; next_path: string | null; age: string | number }>(
		`SELECT body, next_path, ${AGE} AS age FROM mirror_answers
		WHERE repo_type = $1 AND repo_id = $2 AND request_key = $3`,
		[...key(repo), requestKey],
	);
	const row = result.rows[0];
	return row
		? { body: row.body, nextPath: row.next_path, ageSeconds: Math.max(0, Number(row.age)) }
		: undefined;
}

export async function saveAnswer(
	db: Database,
	repo: MirrorRepo,
	requestKey: string,
	body: string,
	nextPath: string | undefined,
): Promise<void> {
	await db.transaction(async (tx) => {
		await touchRepo(tx, repo);
		await tx.query(
			`INSERT INTO mirror_answers (repo_type, repo_id, request_key, body, next_path, fetched_at)
			VALUES ($1, $2, $3, $4, $5, now())
			ON CONFLICT (repo_type, repo_id, request_key)
			DO UPDATE SET body = EXCLUDED.body, next_path = EXCLUDED.next_path, fetched_at = now()`,
			[...key(repo), requestKey, body, nextPath ?? null],
		);
	});
}

async function touchRepo(tx: Queryable, repo: MirrorRepo): Promise<void> {
	await tx.query(
		`INSERT INTO mirror_repos (repo_type, repo_id) VALUES ($1, $2)
		ON CONFLICT (repo_type, repo_id) DO UPDATE SET last_used_at = now()`,
		key(repo),
	);
}

/** Whether the upstream was ever seen to have this repository. */
export async function knownRepo(db: Queryable, repo: MirrorRepo): Promise<boolean> {
	const result = await db.query(
		"SELECT 1 FROM mirror_repos WHERE repo_type = $1 AND repo_id = $2",
		key(repo),
	);
	return result.rows.length > 0;
}

export async function loadRevision(
	db: Queryable,
	repo: MirrorRepo,
	revision: string,
): Promise<{ commitId: string; ageSeconds: number } | undefined> {
	const result = await db.query<{ commit_id: string; age: string | number }>(
		`SELECT commit_id, ${AGE} AS age FROM mirror_revisions WHERE repo_type = $1 AND repo_id = $2 AND revision = $3`,
		[...key(repo), revision],
	);
	const row = result.rows[0];
	return row ? { commitId: row.commit_id, ageSeconds: Math.max(0, Number(row.age)) } : undefined;
}

/** Records where a revision points and what the upstream said of one of its files. */
export async function saveFileMetadata(
	db: Database,
	repo: MirrorRepo,
	revision: string,
	file: Omit<MirroredFile, "sha256">,
): Promise<void> {
	await db.transaction(async (tx) => {
		await touchRepo(tx, repo);
		if (revision !== file.commitId) {
			await tx.query(
				`INSERT INTO mirror_revisions (repo_type, repo_id, revision, commit_id, fetched_at)
				VALUES ($1, $2, $3, $4, now())
				ON CONFLICT (repo_type, repo_id, revision) DO UPDATE SET commit_id = EXCLUDED.commit_id, fetched_at = now()`,
				[...key(repo), revision, file.commitId],
			);
		}
		// A commit's file never changes: what was said of it first stays (with its stored bytes).
		await tx.query(
			`INSERT INTO mirror_files (repo_type, repo_id, commit_id, path, size, etag, lfs)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
			[...key(repo), file.commitId, file.path, file.size, file.etag, file.lfs],
		);
	});
}

export async function loadFile(
	db: Queryable,
	repo: MirrorRepo,
	commitId: string,
	path: string,
): Promise<MirroredFile | undefined> {
	const result = await db.query<{ size: string | number; etag: string; lfs: boolean; sha256: string | null }>(
		`SELECT size, etag, lfs, sha256 FROM mirror_files
		WHERE repo_type = $1 AND repo_id = $2 AND commit_id = $3 AND path = $4`,
		[...key(repo), commitId, path],
	);
	const row = result.rows[0];
	if (!row) return undefined;
	return { commitId, path, size: Number(row.size), etag: row.etag, lfs: row.lfs, sha256: row.sha256 };
}

/** Records a file's verified, stored bytes (the blob row first: the collector then keeps them). */
export async function saveFileBytes(
	db: Database,
	repo: MirrorRepo,
	file: Pick<MirroredFile, "commitId" | "path">,
	blob: { sha256: string; size: number; gitOid: string | undefined },
): Promise<void> {
	await db.transaction(async (tx) => {
		await holdAgainstCollection(tx);
		await touchBlobs(tx, [blob]);
		await tx.query(
			`UPDATE mirror_files SET sha256 = $5 WHERE repo_type = $1 AND repo_id = $2 AND commit_id = $3 AND path = $4`,
			[...key(repo), file.commitId, file.path, blob.sha256],
		);
	});
}

/** Records a commit's file paths and, when the answer named one, where a revision pointed. */
export async function saveCommit(
	db: Database,
	repo: MirrorRepo,
	commitId: string,
	paths: readonly string[],
	revision: string | undefined,
): Promise<void> {
	await db.transaction(async (tx) => {
		await tx.query(
			`INSERT INTO mirror_commits (repo_type, repo_id, commit_id, paths) VALUES ($1, $2, $3, $4)
			ON CONFLICT DO NOTHING`,
			[...key(repo), commitId, [...paths]],
		);
		if (revision !== undefined && revision !== commitId) {
			await tx.query(
				`INSERT INTO mirror_revisions (repo_type, repo_id, revision, commit_id, fetched_at)
				VALUES ($1, $2, $3, $4, now())
				ON CONFLICT (repo_type, repo_id, revision) DO UPDATE SET commit_id = EXCLUDED.commit_id, fetched_at = now()`,
				[...key(repo), revision, commitId],
			);
		}
	});
}

/** A commit's file paths, when an info answer of it was kept. */
export async function loadCommitPaths(
	db: Queryable,
	repo: MirrorRepo,
	commitId: string,
): Promise<string[] | undefined> {
	const result = await db.query<{ paths: string[] }>(
		"SELECT paths FROM mirror_commits WHERE repo_type = $1 AND repo_id = $2 AND commit_id = $3",
		[...key(repo), commitId],
	);
	return result.rows[0]?.paths;
}
