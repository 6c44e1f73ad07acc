import { blobReferencedSql, committedInRepoSql } from "../blobs/references.js";
import type { Queryable } from "../db/types.js";

/** What the collector found of one kind: how many, and their bytes. */
export interface Tally {
	count: number;
	bytes: number;
}

interface TallyRow {
	count: string | number;
	bytes: string | number | null;
}

function tallyOf(row: TallyRow | undefined): Tally {
	return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/**
 * Drops uploaded objects (LFS, Xet) older than `maxAgeMs` that no commit of their repository took:
 * a commit can no longer name them, and their blobs become unreferenced unless something else
 * refers to them.
 */
export async function dropStaleUploads(tx: Queryable, maxAgeMs: number): Promise<Tally> {
	const result = await tx.query<TallyRow>(
		`WITH dropped AS (
			DELETE FROM upload_objects o
			WHERE o.created_at < now() - $1 * interval '1 millisecond'
				AND NOT ${committedInRepoSql("o.sha256", "o.repo_type", "o.repo_id")}
			RETURNING o.sha256
		)
		SELECT count(*) AS count, sum(b.size) AS bytes FROM dropped d JOIN blobs b ON b.sha256 = d.sha256`,
		[maxAgeMs],
	);
	return tallyOf(result.rows[0]);
}

/**
 * Drops Xet xorbs older than `maxAgeMs` (a shard naming one later is refused: the client uploads it
 * again), but never one a file's recipe reads (src/xet/files.ts): its row keeps its bytes referenced and
 * its chunk layout known while the file is.
 */
export async function dropExpiredXorbs(tx: Queryable, maxAgeMs: number): Promise<Tally> {
	const result = await tx.query<TallyRow>(
		`WITH dropped AS (
			DELETE FROM xet_xorbs x WHERE x.created_at < now() - $1 * interval '1 millisecond'
				AND NOT EXISTS (SELECT 1 FROM xet_file_terms t WHERE t.xorb_sha256 = x.blob_sha256)
			RETURNING x.size
		)
		SELECT count(*) AS count, sum(size) AS bytes FROM dropped`,
		[maxAgeMs],
	);
	return tallyOf(result.rows[0]);
}

/** The condition on blob rows the collector may take: unreferenced, and not touched within the grace period. */
const COLLECTABLE = `b.touched_at < now() - $1 * interval '1 millisecond' AND NOT ${blobReferencedSql("b.sha256")}`;

/** How many blob rows are collectable now, and their bytes (the dry run's answer). */
export async function countCollectableBlobs(tx: Queryable, graceMs: number): Promise<Tally> {
	const result = await tx.query<TallyRow>(
		`SELECT count(*) AS count, sum(b.size) AS bytes FROM blobs b WHERE ${COLLECTABLE}`,
		[graceMs],
	);
	return tallyOf(result.rows[0]);
}

/**
 * Deletes up to `limit` collectable blob rows and returns them: the caller deletes their bytes in the
 * same transaction (which holds the collection lock exclusively).
 */
export async function takeCollectableBlobs(
	tx: Queryable,
	graceMs: number,
	limit: number,
): Promise<Array<{ sha256: string; size: number }>> {
	const result = await tx.query<{ sha256: string; size: string | number }>(
		`DELETE FROM blobs WHERE sha256 IN (SELECT b.sha256 FROM blobs b WHERE ${COLLECTABLE} LIMIT $2)
		RETURNING sha256, size`,
		[graceMs, limit],
	);
	return result.rows.map((row) => ({ sha256: row.sha256, size: Number(row.size) }));
}

/**
 * Among stored blobs, those no row knows of and nothing refers to (bytes left by a crash between
 * storing and recording, or by an older hub's xorbs once they expired).
 */
export async function unknownBlobs(tx: Queryable, sha256s: readonly string[]): Promise<Set<string>> {
	if (sha256s.length === 0) return new Set();
	const result = await tx.query<{ sha256: string }>(
		`SELECT s AS sha256 FROM unnest($1::text[]) AS s
		WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.sha256 = s) AND NOT ${blobReferencedSql("s")}`,
		[[...new Set(sha256s)]],
	);
	return new Set(result.rows.map((row) => row.sha256));
}
