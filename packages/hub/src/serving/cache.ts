import type { BlobLocation } from "../blobs/small.js";
import type { FileEntry, FoundRepo } from "../repos/read.js";
import { ByteBudgetLru } from "./lru.js";

/**
 * What serving a file (`/{id}/resolve/{revision}/{path}`) remembers between requests, so that the
 * metadata of a small file costs no database query and its bytes no storage read:
 * - revisions: (repository, revision) → the repository's identity, visibility and the commit the
 *   revision names. Branches move, so every change a reader could see clears them (services/serving.ts);
 * - files: (repository, commit, path) → the file's entry and where its bytes are kept, or that there is
 *   none. A commit's files never change (its id is the git hash of its tree), so these stay until the
 *   repository is deleted;
 * - blobs: the bytes of files of at most `maxBlobFileBytes`, by SHA-256 (content-addressed: never stale).
 * Each within its own byte budget (least recently used evicted first); a budget of 0 turns it off.
 */
export interface ServingCacheSettings {
	/** Byte budget of the revision and file entries (MODELHUB_RESOLVE_CACHE_BYTES). */
	metadataBytes: number;
	/** Byte budget of small files' bytes (MODELHUB_BLOB_CACHE_BYTES). */
	blobBytes: number;
	/** Largest file whose bytes are kept in memory (MODELHUB_BLOB_CACHE_FILE_BYTES). */
	maxBlobFileBytes: number;
}

export const DEFAULT_SERVING_CACHE_SETTINGS: ServingCacheSettings = {
	metadataBytes: 16 * 1024 * 1024,
	blobBytes: 64 * 1024 * 1024,
	maxBlobFileBytes: 64 * 1024,
};

/** Bytes an entry's fields cost besides its strings (object, numbers, booleans), roughly. */
const RECORD_OVERHEAD = 120;

/** A file's entry with where its bytes are kept (src/blobs/small.ts). */
export type CachedFile = FileEntry & { storedIn?: BlobLocation | undefined };

/** A revision as resolved: the repository (as stored, with its visibility) and the commit it names. */
export interface CachedRevision extends FoundRepo {
	commitId: string;
	libraryName: string | null;
}

function stringBytes(...values: Array<string | null | undefined>): number {
	let total = 0;
	for (const value of values) total += (value?.length ?? 0) * 2;
	return total;
}

export class ServingCache {
	private readonly revisions: ByteBudgetLru<CachedRevision>;
	private readonly files: ByteBudgetLru<CachedFile | null>;
	private readonly blobs: ByteBudgetLru<Buffer>;
	/** Reads of small files under way, by SHA-256: a burst of requests for one file reads it once. */
	private readonly reading = new Map<string, Promise<Buffer | undefined>>();
	private generation = 0;
	private enabled = true;

	constructor(readonly settings: ServingCacheSettings = DEFAULT_SERVING_CACHE_SETTINGS) {
		this.revisions = new ByteBudgetLru(
			settings.metadataBytes / 2,
			(r) => RECORD_OVERHEAD + stringBytes(r.type, r.id, r.namespace, r.commitId, r.libraryName),
		);
		this.files = new ByteBudgetLru(
			settings.metadataBytes / 2,
			(f) => RECORD_OVERHEAD + (f ? stringBytes(f.path, f.sha256, f.gitOid) : 0),
		);
		this.blobs = new ByteBudgetLru(settings.blobBytes, (bytes) => bytes.byteLength);
	}

	/** Taken before a database read and handed to `set…`: an entry read before a change is not kept. */
	get version(): number {
		return this.generation;
	}

	/** Entries kept: revisions, files, blobs (and the blobs' bytes). */
	get stats(): { revisions: number; files: number; blobs: number; blobBytes: number } {
		return {
			revisions: this.revisions.size,
			files: this.files.size,
			blobs: this.blobs.size,
			blobBytes: this.blobs.bytes,
		};
	}

	revision(key: string): CachedRevision | undefined {
		return this.enabled ? this.revisions.get(key) : undefined;
	}

	setRevision(key: string, value: CachedRevision, version: number): void {
		if (this.enabled && version === this.generation) this.revisions.set(key, value);
	}

	/** The file entry (null: the commit has no such file), or undefined when not known here. */
	file(key: string): CachedFile | null | undefined {
		return this.files.get(key);
	}

	setFile(key: string, value: CachedFile | null, version: number): void {
		if (version === this.generation) this.files.set(key, value);
	}

	blob(sha256: string): Buffer | undefined {
		return this.blobs.get(sha256);
	}

	/** Whether a file of this size may be kept in memory. */
	keepsBlob(size: number): boolean {
		return size <= this.settings.maxBlobFileBytes && size * 8 < this.settings.blobBytes;
	}

	setBlob(sha256: string, bytes: Buffer): void {
		if (this.keepsBlob(bytes.byteLength)) this.blobs.set(sha256, bytes);
	}

	/** The answer of `read` for this blob, shared by the callers asking while it runs. */
	readOnce(sha256: string, read: () => Promise<Buffer | undefined>): Promise<Buffer | undefined> {
		let pending = this.reading.get(sha256);
		if (pending === undefined) {
			pending = read().finally(() => this.reading.delete(sha256));
			this.reading.set(sha256, pending);
		}
		return pending;
	}

	/** Forgets what revisions name (a branch moved, visibility or rights changed). */
	clearRevisions(): void {
		this.generation++;
		this.revisions.clear();
	}

	/** Forgets every repository's revisions and file entries (repositories deleted or replaced). */
	clearMetadata(): void {
		this.clearRevisions();
		this.files.clear();
	}

	/**
	 * Turns the revision entries off (and clears them) while change notifications cannot be trusted
	 * (another hub process's commit could go unheard), and back on.
	 */
	setEnabled(enabled: boolean): void {
		this.clearRevisions();
		this.enabled = enabled;
	}
}
