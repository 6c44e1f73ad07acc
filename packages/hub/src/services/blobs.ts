import { Readable } from "node:stream";
import { holdAgainstCollection, missingBlobs, touchBlobs } from "../blobs/references.js";
import {
	SMALL_BLOB_LIMIT_BYTES,
	type BlobLocation,
	smallBlobBytes,
	storeSmallBlobs,
	type SmallBlob,
} from "../blobs/small.js";
import type { Database, Queryable } from "../db/types.js";
import { holdsRecipe, recipeTerms } from "../xet/files.js";
import { RecipeStream } from "../xet/serve.js";
import { HubError } from "../errors.js";
import {
	BlobNotFoundError,
	type BlobStore,
	type ByteRange,
	type PutOptions,
	type StoredBlob,
} from "../storage/types.js";

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
export async function keepStored(
	context: BlobContext,
	blobs: readonly StoredBlob[],
	small: readonly SmallBlob[] = [],
): Promise<void> {
	if (blobs.length === 0) return;
	await context.db.transaction(async (tx) => {
		await holdAgainstCollection(tx);
		await touchBlobs(tx, blobs);
		// Small blobs' bytes go in with their rows: durable when this transaction is, and never apart
		// from their row (src/blobs/small.ts), so they need no check that they are still there.
		await storeSmallBlobs(tx, small);
	});
	const inTable = new Set(small.map((blob) => blob.sha256));
	const files = blobs.filter((blob) => !inTable.has(blob.sha256));
	// All at once (a writer's batch, 256 for a commit's files): one after the other, 10,000 of them took
	// 2 s against 0.3 s on a loaded 2-core machine.
	const found = await Promise.all(files.map((blob) => context.storage.stat(blob.sha256)));
	if (found.includes(undefined)) throw blobCollected();
}

/**
 * A stored blob's bytes (or the range `start` ≤ byte < `end`): from the database's small blobs when
 * it is small enough to be there (src/blobs/small.ts), else (and for small blobs stored as files by
 * older hubs) from the file store, else from the xorbs of its Xet recipe (src/xet/files.ts).
 * BlobNotFoundError when none holds it.
 *
 * `storedIn` (blobLocation's answer, kept by the caller) says where to look first: a download of a file
 * in the file store then costs no database query. The other places are still tried when the first does
 * not hold the blob, so a stale hint costs a lookup, never a wrong answer.
 */
export async function readBlob(
	// A transaction when the caller holds one (the embedded database answers nothing else meanwhile).
	context: { db: Queryable; storage: BlobStore },
	blob: { sha256: string; size: number; storedIn?: BlobLocation | undefined },
	range?: ByteRange,
): Promise<Readable> {
	return (await readBlobLocated(context, blob, range)).stream;
}

/**
 * readBlob, also saying where the bytes were found: a caller reading the same blob again (ranges of one
 * file) passes that as `storedIn`, so only its first read looks in the wrong places.
 */
export async function readBlobLocated(
	context: { db: Queryable; storage: BlobStore },
	blob: { sha256: string; size: number; storedIn?: BlobLocation | undefined },
	range?: ByteRange,
): Promise<{ stream: Readable; storedIn: BlobLocation }> {
	if (blob.storedIn === "xet") {
		const fromRecipe = await recipeStream(context, blob, range);
		if (fromRecipe) return { stream: fromRecipe, storedIn: "xet" };
		return readStored(context, { ...blob, storedIn: undefined }, range);
	}
	try {
		return await readStored(context, blob, range);
	} catch (error) {
		if (!(error instanceof BlobNotFoundError)) throw error;
		const fromRecipe = await recipeStream(context, blob, range);
		if (fromRecipe) return { stream: fromRecipe, storedIn: "xet" };
		throw error;
	}
}

/** The blob's bytes from the database's table or the file store (readBlob without recipes), and which. */
async function readStored(
	context: { db: Queryable; storage: BlobStore },
	blob: { sha256: string; size: number; storedIn?: BlobLocation | undefined },
	range: ByteRange | undefined,
): Promise<{ stream: Readable; storedIn: BlobLocation }> {
	const fromFiles = async (): Promise<{ stream: Readable; storedIn: BlobLocation }> => ({
		stream: await context.storage.read(blob.sha256, range),
		storedIn: "files",
	});
	if (blob.size > SMALL_BLOB_LIMIT_BYTES) return fromFiles();
	if (blob.storedIn === "files") {
		try {
			return await fromFiles();
		} catch (error) {
			if (!(error instanceof BlobNotFoundError)) throw error;
			const bytes = await smallBlobBytes(context.db, blob.sha256);
			if (bytes === undefined) throw error;
			return { stream: bytesStream(bytes, range), storedIn: "database" };
		}
	}
	const bytes = await smallBlobBytes(context.db, blob.sha256);
	if (bytes !== undefined) return { stream: bytesStream(bytes, range), storedIn: "database" };
	return fromFiles();
}

/**
 * The bytes of a blob kept as a Xet recipe, streamed from its xorbs (src/xet/serve.ts: a group of chunks
 * at a time, a range starting at the chunk that holds it; piped to an HTTP response, from buffers it
 * reuses), or undefined when the blob has no recipe.
 */
async function recipeStream(
	context: { db: Queryable; storage: BlobStore },
	blob: { sha256: string; size: number },
	range: ByteRange | undefined,
): Promise<Readable | undefined> {
	const start = Math.min(range?.start ?? 0, blob.size);
	const end = Math.max(start, Math.min(range?.end ?? blob.size, blob.size));
	const recipe = await recipeTerms(context.db, blob.sha256, { start, end });
	if (!recipe) return undefined;
	return new RecipeStream(context.storage, recipe.terms, recipe.layouts, start, end);
}

function bytesStream(bytes: Buffer, range: ByteRange | undefined): Readable {
	const piece = range ? bytes.subarray(range.start, Math.max(range.start, range.end)) : bytes;
	return Readable.from(piece.byteLength === 0 ? [] : [piece]);
}

/**
 * Where a blob is kept: one primary-key lookup (the database's small blobs, src/blobs/small.ts, for a
 * blob small enough to be there, and Xet recipes, src/xet/files.ts). A hint for readBlob and
 * blobDownloadUrl.
 */
export async function blobLocation(
	db: Queryable,
	blob: { sha256: string; size: number },
): Promise<BlobLocation> {
	if (blob.size > SMALL_BLOB_LIMIT_BYTES) return (await holdsRecipe(db, blob.sha256)) ? "xet" : "files";
	const result = await db.query<{ small: number | null; xet: number | null }>(
		`SELECT (SELECT 1 FROM small_blobs WHERE sha256 = $1) AS small,
			(SELECT 1 FROM xet_file_terms WHERE file_sha256 = $1 LIMIT 1) AS xet`,
		[blob.sha256],
		{ prepare: true },
	);
	const row = result.rows[0];
	return row?.small != null ? "database" : row?.xet != null ? "xet" : "files";
}

/**
 * Whether a blob's bytes are kept, in the database's table, as a Xet recipe or in the file store: a
 * small file a commit stored in the table is as held as one in the file store (the LFS batch API asked
 * for it again).
 */
export async function blobKept(
	context: { db: Queryable; storage: BlobStore },
	blob: { sha256: string; size: number },
): Promise<boolean> {
	if ((await blobLocation(context.db, blob)) !== "files") return true;
	return (await context.storage.stat(blob.sha256)) !== undefined;
}

/**
 * A URL to fetch a blob from the storage directly (S3 presigned), or undefined when the bytes come
 * through the hub: always for a blob kept in the database or as a Xet recipe (`storedIn`, when known,
 * saves the lookup).
 */
export async function blobDownloadUrl(
	context: BlobContext,
	blob: { sha256: string; size: number; storedIn?: BlobLocation | undefined },
	options: Parameters<BlobStore["downloadUrl"]>[1],
): Promise<string | undefined> {
	const storedIn = blob.storedIn ?? (await blobLocation(context.db, blob));
	if (storedIn !== "files") return undefined;
	return context.storage.downloadUrl(blob.sha256, options);
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
