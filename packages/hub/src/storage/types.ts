import type { Readable } from "node:stream";
import { HubError } from "../errors.js";

/** Where a blob's bytes start and end: `start` inclusive, `end` exclusive. */
export interface ByteRange {
	start: number;
	end: number;
}

export interface PutOptions {
	/** Refuse (BlobTooLargeError) as soon as more than this many bytes have arrived. */
	maxBytes?: number;
	/** The SHA-256 the bytes must have (lowercase hex): the blob is not kept otherwise (BlobDigestError). */
	expectedSha256?: string;
	/** The size the bytes must have (BlobDigestError otherwise). */
	expectedSize?: number;
	/**
	 * False when the bytes will never be a file of a commit (a Xet xorb): no git object id is computed,
	 * so the first GIT_OID_MAX_BYTES are not copied aside on the way.
	 */
	gitOid?: boolean;
}

/** A blob as stored: addressed by the SHA-256 of its bytes. */
export interface StoredBlob {
	sha256: string;
	size: number;
	/**
	 * Git's object id of the bytes (`sha1("blob <size>\0" + bytes)`), for blobs of at most
	 * GIT_OID_MAX_BYTES; larger blobs are always stored through Git LFS, whose object id is that of the
	 * pointer, so their own is never needed.
	 */
	gitOid: string | undefined;
	/** False when the store already held these bytes (nothing was written). */
	created: boolean;
}

/**
 * Content-addressed storage of file bytes (model files, LFS objects). Bytes never enter the database:
 * it records only sha256, size and which commit holds which path.
 *
 * `put` streams: it never holds a whole file in memory (at most one upload part, plus the first
 * GIT_OID_MAX_BYTES while it may still need them for the git object id), refuses a stream as soon as it
 * exceeds `maxBytes`, and publishes the blob only once its digest is known (and checked, when given),
 * so a reader never sees partial or wrong bytes under a digest. A source hands over each piece for good
 * (the store may keep it until it is written), unless the store `retainsNoPieces`.
 */
export interface BlobStore {
	readonly kind: "disk" | "s3";
	/**
	 * True when `put` is done with each piece once it asks for the next (it copies what it keeps): the
	 * source may then refill one buffer instead of allocating a new one per piece. Fresh buffers are
	 * external memory to V8, and a steady flow of them sets off full garbage collections.
	 */
	readonly retainsNoPieces?: boolean;
	put(source: AsyncIterable<Uint8Array>, options?: PutOptions): Promise<StoredBlob>;
	/**
	 * Starts a group of puts made durable together, for a writer storing many files at once (a commit's):
	 * the group's `put` checks and digests as `put` does, but its bytes are not readable under their
	 * digest until `publish`, which makes all of them durable and then visible (the disk store flushes
	 * them together instead of one file at a time). What was not published is removed by `discard`.
	 */
	group(): BlobGroup;
	/** The stored size, or undefined when the store does not hold the blob. */
	stat(sha256: string): Promise<{ size: number } | undefined>;
	/** The blob's bytes (or a range of them). Rejects with BlobNotFoundError when absent. */
	read(sha256: string, range?: ByteRange): Promise<Readable>;
	/**
	 * Reads into buffers the caller owns and reuses (stores that can: the disk store). A stream's
	 * fresh buffer per read is external memory to V8, and a steady flow of it sets off full garbage
	 * collections; rebuilding Xet files reads through this when offered.
	 */
	openReader?(sha256: string): Promise<BlobReader>;
	/**
	 * The path of the file holding exactly the blob's bytes, for stores that keep blobs as local files
	 * (the disk store), so a reader may hard-link it instead of copying it (the dataset viewer). Stored
	 * blobs are never rewritten in place: a link keeps the bytes even if the blob is collected.
	 */
	localFile?(sha256: string): string;
	/**
	 * Stores that keep blobs as local files (the disk store): a folder on the store's own filesystem for
	 * a writer's temporary files that `link` may take in. Swept with the store's other temporaries.
	 */
	readonly spoolDir?: string;
	/**
	 * Stores the file at `path` (under `spoolDir`) as a blob without copying it: flushed to disk, then
	 * hard-linked into place. `digest` is the caller's, computed from the bytes as it wrote them and
	 * checked: the store does not read them again (only their size). The file stays the caller's to
	 * remove; stored blobs are never rewritten in place, so it may still be read meanwhile.
	 */
	link?(path: string, digest: Omit<StoredBlob, "created">): Promise<StoredBlob>;
	/**
	 * A URL from which a client may fetch the bytes directly, valid for `expiresInSeconds`
	 * (S3 presigned GET), or undefined when downloads go through the hub. A promise: the SDK signs
	 * asynchronously. The store's answer carries `cacheControl` when given (blobs are shared between
	 * repositories, so the repository's policy travels with the URL).
	 */
	downloadUrl(
		sha256: string,
		options: { filename: string; expiresInSeconds: number; cacheControl?: string },
	): Promise<string | undefined>;
	delete(sha256: string): Promise<void>;
	/**
	 * Every blob the store holds, in no particular order, with when its bytes were written (for the
	 * garbage collector: stored bytes that no database row knows of).
	 */
	list(): AsyncIterable<ListedBlob>;
	/**
	 * Removes what crashed or abandoned writes left (temporary files, spools, unfinished multipart
	 * uploads) that is older than `maxAgeMs`; with `dryRun` only counts them.
	 */
	sweepTemporaries(maxAgeMs: number, dryRun: boolean): Promise<{ count: number; bytes: number }>;
	/** Releases what the store holds (temporary folders of an ephemeral store). */
	close(): Promise<void>;
}

/** Puts made durable and visible together (BlobStore.group). */
export interface BlobGroup {
	/** As BlobStore.put; bytes already in memory may be written while the caller goes on. */
	put(source: AsyncIterable<Uint8Array> | Uint8Array, options?: PutOptions): Promise<StoredBlob>;
	/**
	 * Makes every blob put since the last publish durable, then readable; rejects if one cannot be.
	 * `{ final: false }` publishes a batch that is not the group's last: its bytes are durable and it is
	 * readable, but the names made in each folder are flushed once, by the next publish without it
	 * (one folder flush per distinct folder of the group, however many batches wrote into it). Until
	 * then a crash may lose such a name (never leave wrong bytes under one), so nothing may refer to
	 * these blobs for good before that last publish.
	 */
	publish(options?: { final?: boolean }): Promise<void>;
	/** Removes the bytes of puts not published (the writer failed). */
	discard(): Promise<void>;
}

async function* bytesOnce(bytes: Uint8Array): AsyncIterable<Uint8Array> {
	yield bytes;
}

/** A group whose puts are durable and visible as each is answered (stores whose puts are). */
export function immediateGroup(store: Pick<BlobStore, "put">): BlobGroup {
	return {
		put: (source, options) => store.put(source instanceof Uint8Array ? bytesOnce(source) : source, options),
		publish: async () => {},
		discard: async () => {},
	};
}

/** A blob open for positioned reads (BlobStore.openReader). */
export interface BlobReader {
	/** Fills `target` from `position` on, as far as the blob goes; the number of bytes read. */
	read(target: Uint8Array, position: number): Promise<number>;
	close(): Promise<void>;
}

/** A stored blob as listed. */
export interface ListedBlob {
	sha256: string;
	size: number;
	/** When the bytes were written (S3: when the upload of the object started). */
	modifiedAt: Date;
}

/** Blobs of at most this size get their git object id computed; larger ones are always LFS. */
export const GIT_OID_MAX_BYTES = 10 * 1024 * 1024;

/** Bytes past the `maxBytes` of a put (callers that know which limit it was say so in their words). */
export class BlobTooLargeError extends HubError {
	override name = "BlobTooLargeError";
	constructor(readonly limit: number) {
		super("TooLarge", `file is larger than the limit of ${limit} bytes`);
	}
}

/** Bytes that are not what the put expected (SHA-256 or size). */
export class BlobDigestError extends HubError {
	override name = "BlobDigestError";
	constructor(message: string) {
		super("Invalid", message);
	}
}

export class BlobNotFoundError extends Error {
	override name = "BlobNotFoundError";
	constructor(readonly sha256: string) {
		super(`blob ${sha256} is not in the store`);
	}
}

/** The storage cannot be reached or answered with an error (a 503 for the client). */
export class StorageUnavailableError extends Error {
	override name = "StorageUnavailableError";
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isSha256(value: string): boolean {
	return SHA256_HEX.test(value);
}
