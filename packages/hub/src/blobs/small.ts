import type { Queryable } from "../db/types.js";

/**
 * Small blobs kept in the database (`small_blobs`) instead of one file each: a commit of 10,000 small
 * files wrote, flushed and renamed 10,000 files (19–24 s here, issue 21), where one multi-row INSERT per
 * batch is made durable by the transaction's one WAL flush. A row hangs off its `blobs` row (ON DELETE
 * CASCADE), so the collector's deletion of an unreferenced blob reclaims these bytes too, and a row can
 * never be an orphan. Blobs stored as files before (older hubs) stay files and are read from there.
 */

/** The largest MODELHUB_SMALL_BLOB_MAX_BYTES may be, and so the largest blob looked up in the table. */
export const SMALL_BLOB_LIMIT_BYTES = 1024 * 1024;

/**
 * Where a blob's bytes were found: in the database's table, in the file store, or in the xorbs of its
 * Xet recipe (src/xet/files.ts). A hint kept with a served file's cached entry (services/serving.ts) so
 * that its downloads skip the lookups; read with a fallback to the other places, since the collector may
 * reclaim a blob and an upload store it again elsewhere (say with another MODELHUB_SMALL_BLOB_MAX_BYTES).
 */
export type BlobLocation = "database" | "files" | "xet";

/** A small blob's bytes, to store with its row. */
export interface SmallBlob {
	sha256: string;
	bytes: Uint8Array;
}

/**
 * Stores small blobs' bytes (their `blobs` rows must exist: touchBlobs in the same transaction).
 * Bytes already stored are left as they are (the key is their SHA-256).
 */
export async function storeSmallBlobs(tx: Queryable, blobs: readonly SmallBlob[]): Promise<void> {
	const unique = [...new Map(blobs.map((blob) => [blob.sha256, blob.bytes])).entries()];
	// Up to 256 rows a statement (a commit's batch): 512 parameters, far below PostgreSQL's 65,535.
	for (let start = 0; start < unique.length; start += 256) {
		const rows = unique.slice(start, start + 256);
		await tx.query(
			`INSERT INTO small_blobs (sha256, bytes) VALUES ${rows
				.map((_, index) => `($${2 * index + 1}::text, $${2 * index + 2}::bytea)`)
				.join(", ")} ON CONFLICT (sha256) DO NOTHING`,
			rows.flatMap(([sha256, bytes]) => [sha256, bytes]),
		);
	}
}

/** The bytes of a blob kept in the table, or undefined when it is not there (a file, or absent). */
export async function smallBlobBytes(db: Queryable, sha256: string): Promise<Buffer | undefined> {
	const result = await db.query<{ bytes: Uint8Array }>(
		"SELECT bytes FROM small_blobs WHERE sha256 = $1",
		[sha256],
		{ prepare: true },
	);
	const bytes = result.rows[0]?.bytes;
	if (bytes === undefined) return undefined;
	// node-postgres answers a Buffer, PGlite a Uint8Array: one type for the callers, without a copy.
	return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
