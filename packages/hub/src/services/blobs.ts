import { holdAgainstCollection, missingBlobs, touchBlobs } from "../blobs/references.js";
import type { Database, Queryable } from "../db/types.js";
import { HubError } from "../errors.js";
import type { BlobStore, PutOptions, StoredBlob } from "../storage/types.js";

/** What storing a blob for a writer needs. */
export interface BlobContext {
	db: Database;
	storage: BlobStore;
}

/** A blob the collector reclaimed between its storing and its use (rare: the client sends it again). */
export function blobCollected(): HubError {
	return new HubError(
		"Unavailable",
		"a file of this upload was reclaimed by the garbage collector while it was being stored or before its commit: send it again",
		{ headers: { "retry-after": "1" } },
	);
}

/**
 * Stores bytes for a writer that will refer to them (a commit, an upload): `storage.put`, then
 * keepStored: the blob's row is touched (inserted, or its `touched_at` set to now) under the collection
 * lock, and the bytes are checked to be still there. From then on the collector spares the blob for its grace period
 * (MODELHUB_GC_GRACE_SECONDS), so the commit or upload registration that follows finds it; see the
 * protocol in src/gc/collect.ts.
 */
export async function storeBlob(
	context: BlobContext,
	source: AsyncIterable<Uint8Array>,
	options?: PutOptions,
): Promise<StoredBlob> {
	const stored = await context.storage.put(source, options);
	await keepStored(context, [stored]);
	return stored;
}

/**
 * Touches the rows of blobs just stored (one transaction for all, under the collection lock) and checks
 * their bytes are still there: a collection batch may have run between a put (which may have found the
 * bytes already stored, or completed an upload whose S3 object carries its start time) and the touch.
 * Writers storing many files (a commit's) call it once per batch of them.
 */
export async function keepStored(context: BlobContext, blobs: readonly StoredBlob[]): Promise<void> {
	if (blobs.length === 0) return;
	await context.db.transaction(async (tx) => {
		await holdAgainstCollection(tx);
		await touchBlobs(tx, blobs);
	});
	// All at once (a writer's batch, 256 for a commit's files): one after the other, 10,000 of them took
	// 2 s against 0.3 s on a loaded 2-core machine.
	const found = await Promise.all(blobs.map((blob) => context.storage.stat(blob.sha256)));
	if (found.includes(undefined)) throw blobCollected();
}

/**
 * In a writer's transaction, before it makes blobs referenced: holds the collection lock (shared) and
 * refuses when one of them was collected since it was stored (a commit that came after the grace
 * period).
 */
export async function requireBlobs(tx: Queryable, sha256s: readonly string[]): Promise<void> {
	await holdAgainstCollection(tx);
	if ((await missingBlobs(tx, sha256s)).length > 0) throw blobCollected();
}
