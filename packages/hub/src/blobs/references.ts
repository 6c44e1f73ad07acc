import type { Queryable } from "../db/types.js";

/**
 * What refers to a stored blob, written once: the collector (src/gc/) asks "is this blob referenced?"
 * and quotas (src/quota/) ask "which blobs does a namespace hold?" through these functions only, so a
 * change to how commits keep their files is made here and nowhere else. Commits keep their files in
 * shared trees (src/repos/trees.ts); `repo_blobs` records every blob any commit of a repository holds.
 */

/**
 * The advisory lock between the collector and writers (see src/gc/collect.ts for the protocol): the
 * collector holds it exclusively while it checks and deletes a batch; every transaction that makes a
 * blob referenced, or touches it for a writer, holds it shared. An arbitrary constant.
 */
export const COLLECTION_LOCK = 7_261_950_433;

/** Taken by writers: their transaction runs wholly before or after a collection batch. */
export async function holdAgainstCollection(tx: Queryable): Promise<void> {
	await tx.query("SELECT pg_advisory_xact_lock_shared($1)", [COLLECTION_LOCK]);
}

/** Taken by the collector for one batch (check and delete). */
export async function lockForCollection(tx: Queryable): Promise<void> {
	await tx.query("SELECT pg_advisory_xact_lock($1)", [COLLECTION_LOCK]);
}

/**
 * SQL that is true when the blob whose SHA-256 is the expression `sha256` is referenced: by a file of
 * any commit (any branch, tag or older commit of any repository), by an uploaded object not yet
 * committed, by a Xet xorb (its stored bytes), or by a file fetched from a mirrored upstream. Each lookup is an index scan.
 */
export function blobReferencedSql(sha256: string): string {
	return `(EXISTS (SELECT 1 FROM repo_blobs rf WHERE rf.sha256 = ${sha256})
		OR EXISTS (SELECT 1 FROM upload_objects ro WHERE ro.sha256 = ${sha256})
		OR EXISTS (SELECT 1 FROM xet_xorbs rx WHERE rx.blob_sha256 = ${sha256})
		OR EXISTS (SELECT 1 FROM mirror_files rm WHERE rm.sha256 = ${sha256}))`;
}

/**
 * SQL that is true when a commit of the repository (`repoType`, `repoId` expressions) refers to the blob
 * `sha256`: an uploaded object it took is no longer a pending upload.
 */
export function committedInRepoSql(sha256: string, repoType: string, repoId: string): string {
	return `EXISTS (SELECT 1 FROM repo_blobs cf
		WHERE cf.repo_type = ${repoType} AND cf.repo_id = ${repoId} AND cf.sha256 = ${sha256})`;
}

/**
 * Bytes a namespace holds: the sizes of the distinct blobs its repositories refer to — the files of
 * every commit of every repository named `namespace/…` (all branches, tags and history), and the
 * objects uploaded to them that no commit uses yet. A blob counts once however many files, commits or
 * repositories of the namespace share it; blobs shared with other namespaces count for each of them.
 */
export async function namespaceUsage(db: Queryable, namespace: string): Promise<number> {
	const result = await db.query<{ used: string | number | null }>(
		`WITH owned AS (
			SELECT id, type FROM repos WHERE type IN ('model', 'dataset', 'space') AND lower(namespace) = lower($1)
		)
		SELECT COALESCE(sum(b.size), 0) AS used FROM blobs b WHERE b.sha256 IN (
			SELECT f.sha256 FROM repo_blobs f JOIN owned r ON f.repo_type = r.type AND f.repo_id = r.id
			UNION
			SELECT o.sha256 FROM upload_objects o JOIN owned r ON o.repo_type = r.type AND o.repo_id = r.id)`,
		[namespace],
	);
	return Number(result.rows[0]?.used ?? 0);
}

/**
 * Records that a writer holds these blobs (stored, or found stored) now: the collector spares them for
 * its grace period. Inserts the rows of new blobs. Runs in the writer's transaction, which holds the
 * collection lock shared (holdAgainstCollection).
 */
export async function touchBlobs(
	tx: Queryable,
	blobs: ReadonlyArray<{ sha256: string; size: number; gitOid: string | null | undefined }>,
): Promise<void> {
	if (blobs.length === 0) return;
	// One row per blob: ON CONFLICT may not touch a row twice in one statement.
	const unique = [...new Map(blobs.map((blob) => [blob.sha256, blob])).values()];
	await tx.query(
		`INSERT INTO blobs (sha256, size, git_oid, touched_at)
		SELECT s, z, g, now() FROM unnest($1::text[], $2::bigint[], $3::text[]) AS t(s, z, g)
		ON CONFLICT (sha256) DO UPDATE SET touched_at = now(),
			git_oid = COALESCE(blobs.git_oid, EXCLUDED.git_oid)`,
		[unique.map((b) => b.sha256), unique.map((b) => b.size), unique.map((b) => b.gitOid ?? null)],
	);
}

/** The SHA-256s among `sha256s` that have no row (collected, or never recorded). */
export async function missingBlobs(tx: Queryable, sha256s: readonly string[]): Promise<string[]> {
	if (sha256s.length === 0) return [];
	const result = await tx.query<{ sha256: string }>(
		`SELECT s AS sha256 FROM unnest($1::text[]) AS s WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.sha256 = s)`,
		[[...new Set(sha256s)]],
	);
	return result.rows.map((row) => row.sha256);
}
