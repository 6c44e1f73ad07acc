import {
	blobReferencedSql,
	holdAgainstCollection,
	lockForCollection,
	touchBlobs,
} from "../blobs/references.js";
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

/** Records the library a repository's info names (null: none), for counting its downloads. */
export async function saveLibraryName(
	db: Queryable,
	repo: MirrorRepo,
	library: string | null,
): Promise<void> {
	await db.query("UPDATE mirror_repos SET library_name = $3 WHERE repo_type = $1 AND repo_id = $2", [
		...key(repo),
		library,
	]);
}

/** The library a repository's info named last, in either scope (it only decides what counts). */
export async function loadLibraryName(
	db: Queryable,
	repo: { type: string; id: string },
): Promise<string | undefined> {
	const result = await db.query<{ library_name: string }>(
		`SELECT library_name FROM mirror_repos
		WHERE repo_type IN ($1, $1 || '@token') AND repo_id = $2 AND library_name IS NOT NULL
		ORDER BY repo_type LIMIT 1`,
		key(repo),
	);
	return result.rows[0]?.library_name;
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
			`UPDATE mirror_files SET sha256 = $5, last_used_at = now()
			WHERE repo_type = $1 AND repo_id = $2 AND commit_id = $3 AND path = $4`,
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

/** Records that a file's bytes were served now (least-recently-used eviction reads it). */
export async function touchFile(
	db: Queryable,
	repo: MirrorRepo,
	file: Pick<MirroredFile, "commitId" | "path">,
): Promise<void> {
	await db.query(
		`UPDATE mirror_files SET last_used_at = now()
		WHERE repo_type = $1 AND repo_id = $2 AND commit_id = $3 AND path = $4`,
		[...key(repo), file.commitId, file.path],
	);
}

/** What the mirror's cache holds: distinct stored blobs (bytes counted once), files and repositories. */
export interface CacheUsage {
	bytes: number;
	blobs: number;
	files: number;
	repos: number;
}

export async function cacheUsage(db: Queryable): Promise<CacheUsage> {
	const result = await db.query<{
		bytes: string | number | null;
		blobs: string | number;
		files: string | number;
		repos: string | number;
	}>(
		`SELECT
			(SELECT COALESCE(sum(b.size), 0) FROM blobs b
				WHERE b.sha256 IN (SELECT sha256 FROM mirror_files WHERE sha256 IS NOT NULL)) AS bytes,
			(SELECT count(DISTINCT sha256) FROM mirror_files WHERE sha256 IS NOT NULL) AS blobs,
			(SELECT count(*) FROM mirror_files WHERE sha256 IS NOT NULL) AS files,
			(SELECT count(DISTINCT (split_part(repo_type, '@', 1), repo_id)) FROM mirror_files
				WHERE sha256 IS NOT NULL) AS repos`,
	);
	const row = result.rows[0];
	return {
		bytes: Number(row?.bytes ?? 0),
		blobs: Number(row?.blobs ?? 0),
		files: Number(row?.files ?? 0),
		repos: Number(row?.repos ?? 0),
	};
}

/** A stored blob of the mirror's files, with the repositories (`type id`, scope dropped) whose files use it. */
export interface CachedBlob {
	sha256: string;
	size: number;
	repos: string[];
	/** A repository using it is pinned in the database. */
	pinned: boolean;
}

/**
 * Stored blobs of the mirror's files, the one served longest ago first (a blob shared by several files
 * counts as used when any of them was), `limit` of them from `offset` on.
 */
export async function leastRecentlyUsed(db: Queryable, limit: number, offset: number): Promise<CachedBlob[]> {
	const result = await db.query<{ sha256: string; size: string | number; repos: string[]; pinned: boolean }>(
		`SELECT f.sha256, b.size,
			array_agg(DISTINCT split_part(f.repo_type, '@', 1) || ' ' || f.repo_id) AS repos,
			bool_or(COALESCE(r.pinned, false)) AS pinned
		FROM mirror_files f
		JOIN blobs b ON b.sha256 = f.sha256
		LEFT JOIN mirror_repos r ON r.repo_type = split_part(f.repo_type, '@', 1) AND r.repo_id = f.repo_id
		WHERE f.sha256 IS NOT NULL
		GROUP BY f.sha256, b.size
		ORDER BY max(f.last_used_at) ASC NULLS FIRST, f.sha256
		LIMIT $1 OFFSET $2`,
		[limit, offset],
	);
	return result.rows.map((row) => ({
		sha256: row.sha256,
		size: Number(row.size),
		repos: row.repos,
		pinned: row.pinned,
	}));
}

/**
 * Drops a blob from the mirror's cache: its files forget their stored bytes (the next request fetches
 * them again), and when nothing else refers to the blob (a local repository's file, an upload, a xorb),
 * its row and bytes are deleted, holding the collection lock exclusively as the collector does (so no
 * writer makes it referenced meanwhile: src/services/gc.ts). Unless a pinned repository's file took it
 * since it was chosen. Returns the bytes freed (0 when they are still another's).
 */
export async function evictBlob(
	db: Database,
	sha256: string,
	deleteBytes: (sha256: string) => Promise<void>,
): Promise<{ evicted: boolean; freedBytes: number }> {
	return db.transaction(async (tx) => {
		await lockForCollection(tx);
		const pinned = await tx.query(
			`SELECT 1 FROM mirror_files f JOIN mirror_repos r
				ON r.repo_type = split_part(f.repo_type, '@', 1) AND r.repo_id = f.repo_id
			WHERE f.sha256 = $1 AND r.pinned LIMIT 1`,
			[sha256],
		);
		if (pinned.rows.length > 0) return { evicted: false, freedBytes: 0 };
		const forgotten = await tx.query("UPDATE mirror_files SET sha256 = NULL WHERE sha256 = $1", [sha256]);
		if (forgotten.rowCount === 0) return { evicted: false, freedBytes: 0 };
		const deleted = await tx.query<{ size: string | number }>(
			`DELETE FROM blobs WHERE sha256 = $1 AND NOT ${blobReferencedSql("$1")} RETURNING size`,
			[sha256],
		);
		const row = deleted.rows[0];
		if (!row) return { evicted: true, freedBytes: 0 };
		// Deleted inside the transaction, as the collector does: should it fail after, the row comes back
		// without bytes, which a read answers as missing (the file is fetched again).
		await deleteBytes(sha256);
		return { evicted: true, freedBytes: Number(row.size) };
	});
}

/** Pins (or unpins) a repository: its files are never evicted. */
export async function setPinned(db: Queryable, repo: MirrorRepo, pinned: boolean): Promise<void> {
	await db.query(
		`INSERT INTO mirror_repos (repo_type, repo_id, pinned) VALUES ($1, $2, $3)
		ON CONFLICT (repo_type, repo_id) DO UPDATE SET pinned = EXCLUDED.pinned`,
		[...key(repo), pinned],
	);
}

/** The repositories pinned in the database (`type id`). */
export async function pinnedRepos(db: Queryable): Promise<Array<{ type: string; id: string }>> {
	const result = await db.query<{ repo_type: string; repo_id: string }>(
		"SELECT repo_type, repo_id FROM mirror_repos WHERE pinned ORDER BY repo_type, repo_id",
	);
	return result.rows.map((row) => ({ type: row.repo_type, id: row.repo_id }));
}

/**
 * A stored blob with a file's bytes: another file (another scope, commit or repository, a local
 * repository's file too) has them already. An LFS file's by its SHA-256 (the upstream's ETag), a regular
 * file's by its git blob id and size (blobs_git_oid, migration 28).
 */
export async function findStoredBlob(
	db: Queryable,
	file: Pick<MirroredFile, "etag" | "lfs" | "size">,
): Promise<{ sha256: string; size: number; gitOid: string | undefined } | undefined> {
	const result = await db.query<{ sha256: string; size: string | number; git_oid: string | null }>(
		file.lfs
			? "SELECT sha256, size, git_oid FROM blobs WHERE sha256 = $1 AND size = $2"
			: "SELECT sha256, size, git_oid FROM blobs WHERE git_oid = $1 AND size = $2 LIMIT 1",
		[file.etag, file.size],
	);
	const row = result.rows[0];
	return row ? { sha256: row.sha256, size: Number(row.size), gitOid: row.git_oid ?? undefined } : undefined;
}
