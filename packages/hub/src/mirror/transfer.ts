import { createHash, type Hash } from "node:crypto";
import { EventEmitter } from "node:events";
import { createReadStream } from "node:fs";
import { mkdir, open, unlink, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { GIT_OID_MAX_BYTES, type BlobStore, type StoredBlob } from "../storage/types.js";

/**
 * One fetch of one upstream file, shared by every client that asks for it meanwhile: the bytes go to a
 * spool file as they arrive, each client reads the spool from its own offset (so memory stays flat
 * whatever the clients' speeds), and the file is verified (SHA-256 of an LFS file, git blob id of a
 * regular one) as it arrives, in the same pass. The last byte is held back from clients until the file
 * is verified: a client never receives a whole file with wrong bytes; on a failure its answer is cut
 * off. Storing the verified file happens after the clients have it all: it is not on their critical
 * path (the mirror bench's miss figure). A disk store takes the spool itself (a flush and a hard link:
 * the spool lies in its folder), with the digests computed here; S3 gets a put from the spool.
 */

/** What the bytes must be. */
export interface Expected {
	size: number;
	/** 64 hex: the SHA-256; 40 hex: the git blob id. */
	etag: string;
}

/** What the spool's bytes were found to be (a StoredBlob's digests). */
export type Digest = Omit<StoredBlob, "created">;

/** Bytes of a piece a follower reads from the spool at once. */
const READ_PIECE = 1024 * 1024;
/** Bytes received and not yet written to the spool at most (reading the upstream waits past it). */
const SPOOL_BACKLOG = 8 * 1024 * 1024;

export class Transfer {
	private written = 0;
	/** running: bytes arriving; verified: all arrived and checked (being stored); failed: cut off. */
	private state: "running" | "verified" | "failed" = "running";
	private storing = true;
	private failure: Error | undefined;
	private readonly events = new EventEmitter();
	private followers = 0;
	private spoolGone = false;
	/** Resolves with the stored blob once the bytes are verified and stored, rejects otherwise. */
	readonly done: Promise<StoredBlob>;

	/** `spool` is the spool file, made and open for writing (followers may open it at once). */
	constructor(
		readonly expected: Expected,
		private readonly spoolPath: string,
		spool: FileHandle,
		source: AsyncIterable<Uint8Array>,
		store: (path: string, digest: Digest) => Promise<StoredBlob>,
	) {
		this.events.setMaxListeners(0);
		this.done = this.run(spool, source, store);
		// Followers learn the outcome from the events; this promise's rejection is theirs to report.
		this.done.catch(() => {});
	}

	/** Bytes followers may read now: all once verified, all but the last until then. */
	private get released(): number {
		if (this.state === "verified") return this.expected.size;
		return Math.min(this.written, Math.max(0, this.expected.size - 1));
	}

	private async run(
		spool: FileHandle,
		source: AsyncIterable<Uint8Array>,
		store: (path: string, digest: Digest) => Promise<StoredBlob>,
	): Promise<StoredBlob> {
		let digest: Digest;
		try {
			digest = await this.receive(spool, source);
		} catch (error) {
			this.state = "failed";
			this.failure = error instanceof Error ? error : new Error(String(error));
			this.storing = false;
			this.events.emit("progress");
			this.removeSpoolWhenUnread();
			throw this.failure;
		}
		this.state = "verified";
		this.events.emit("progress");
		try {
			return await store(this.spoolPath, digest);
		} finally {
			this.storing = false;
			this.removeSpoolWhenUnread();
		}
	}

	/**
	 * Writes the upstream's bytes to the spool, checking their size and digest as they pass. Pieces that
	 * arrive while a write is under way are written together in the next one (one writev), and the
	 * upstream is read meanwhile: a miss costs a write per batch, not per network piece, and reading
	 * and writing overlap. At most SPOOL_BACKLOG bytes wait in memory (then reading waits for the disk).
	 * Returns the digests the store keeps the bytes by, checked against the ETag.
	 */
	private async receive(spool: FileHandle, source: AsyncIterable<Uint8Array>): Promise<Digest> {
		let handle: FileHandle | undefined = spool;
		let waiting: Uint8Array[] = [];
		let waitingBytes = 0;
		let received = 0;
		let writing: Promise<void> | undefined;
		let writeFailure: Error | undefined;
		const drain = async (into: FileHandle): Promise<void> => {
			while (waiting.length > 0) {
				const batch = waiting;
				const bytes = waitingBytes;
				waiting = [];
				waitingBytes = 0;
				await writevAll(into, batch, this.written);
				this.written += bytes;
				this.events.emit("progress");
			}
		};
		try {
			// The SHA-256 the store keeps the bytes by, and the git blob id when the ETag is one or the
			// store would compute it (small files): the disk store takes them without reading the bytes again.
			const { size, etag } = this.expected;
			const lfs = etag.length === 64;
			const sha256: Hash = createHash("sha256");
			const gitOid: Hash | undefined =
				!lfs || size <= GIT_OID_MAX_BYTES ? createHash("sha1").update(`blob ${size}\0`) : undefined;
			for await (const piece of source) {
				if (writeFailure) throw writeFailure;
				if (received + piece.length > this.expected.size) {
					throw new Error(`the upstream sent more than the ${this.expected.size} bytes it announced`);
				}
				received += piece.length;
				sha256.update(piece);
				gitOid?.update(piece);
				waiting.push(piece);
				waitingBytes += piece.length;
				if (writing === undefined) {
					const into = handle;
					// A failed write stops the transfer at the next piece or at the end.
					writing = drain(into)
						.catch((error: unknown) => {
							writeFailure ??= error instanceof Error ? error : new Error(String(error));
						})
						.finally(() => (writing = undefined));
				}
				if (waitingBytes >= SPOOL_BACKLOG) await writing;
			}
			await writing;
			if (writeFailure) throw writeFailure;
			await drain(handle);
			await handle.close();
			handle = undefined;
			if (this.written !== this.expected.size) {
				throw new Error(`the upstream sent ${this.written} of the ${this.expected.size} bytes it announced`);
			}
			const digest = { sha256: sha256.digest("hex"), size, gitOid: gitOid?.digest("hex") };
			if ((lfs ? digest.sha256 : digest.gitOid) !== etag) {
				throw new Error(`the upstream's bytes do not match their ETag ${etag}`);
			}
			// The store's rule: no git blob id past GIT_OID_MAX_BYTES (such files are LFS in a commit).
			return size <= GIT_OID_MAX_BYTES ? digest : { ...digest, gitOid: undefined };
		} finally {
			// A write still under way (the source failed) ends before the spool is closed.
			await writing;
			await handle?.close().catch(() => {});
		}
	}

	private removeSpoolWhenUnread(): void {
		if (this.state === "running" || this.storing || this.followers > 0 || this.spoolGone) return;
		this.spoolGone = true;
		void unlink(this.spoolPath).catch(() => {});
	}

	/**
	 * The bytes [start, end) as they arrive, or undefined when the transfer is over and its spool gone
	 * (read the stored blob then). The iterable throws when the fetch fails (the answer is then cut off).
	 */
	follow(start: number, end: number): AsyncIterable<Uint8Array> | undefined {
		if (this.state === "failed") throw this.failure ?? new Error("the upstream fetch failed");
		if (this.spoolGone) return undefined;
		// Counted now, not when the reading starts: the spool stays until this follower is done.
		this.followers++;
		return this.read(start, end);
	}

	private async *read(start: number, end: number): AsyncIterable<Uint8Array> {
		let handle: FileHandle | undefined;
		try {
			handle = await open(this.spoolPath, "r");
			let offset = start;
			while (offset < end) {
				if (this.state === "failed") throw this.failure ?? new Error("the upstream fetch failed");
				const available = Math.min(this.released, end);
				if (offset >= available) {
					await new Promise<void>((resolve) => this.events.once("progress", resolve));
					continue;
				}
				const length = Math.min(READ_PIECE, available - offset);
				const buffer = Buffer.allocUnsafe(length);
				const { bytesRead } = await handle.read(buffer, 0, length, offset);
				if (bytesRead <= 0) throw new Error("the spool file ended early");
				offset += bytesRead;
				yield buffer.subarray(0, bytesRead);
			}
		} finally {
			await handle?.close().catch(() => {});
			this.followers--;
			this.removeSpoolWhenUnread();
		}
	}
}

/** Writes all of `pieces` at `position`, in order (a positioned write may write less than asked). */
async function writevAll(handle: FileHandle, pieces: Uint8Array[], position: number): Promise<void> {
	let rest = pieces;
	let at = position;
	while (rest.length > 0) {
		const { bytesWritten } = await handle.writev(rest, at);
		at += bytesWritten;
		let skipped = bytesWritten;
		let index = 0;
		while (index < rest.length && skipped >= rest[index]!.length) skipped -= rest[index++]!.length;
		rest = rest.slice(index);
		if (skipped > 0) rest[0] = rest[0]!.subarray(skipped);
	}
}

/** The transfers under way, one per file: the second client of a file follows the first one's fetch. */
export class Transfers {
	private readonly transfers = new Map<string, Promise<Transfer>>();
	private next = 0;

	constructor(private readonly spoolDir: string) {}

	/** Transfers being started or under way. */
	get size(): number {
		return this.transfers.size;
	}

	/**
	 * The transfer of `key`: the one under way, or a new one whose bytes `start` opens. It stores the
	 * verified bytes in `storage` and then calls `record`.
	 */
	get(
		key: string,
		expected: Expected,
		start: () => Promise<AsyncIterable<Uint8Array>>,
		storage: BlobStore,
		record: (blob: StoredBlob) => Promise<void>,
	): Promise<Transfer> {
		const existing = this.transfers.get(key);
		if (existing) return existing;
		const forget = (): void => {
			if (this.transfers.get(key) === started) this.transfers.delete(key);
		};
		const started = (async (): Promise<Transfer> => {
			const source = await start();
			const spool = join(this.spoolDir, `${process.pid}-${++this.next}.part`);
			// Made again when gone: the collector removes an old, empty folder of temporaries.
			await mkdir(this.spoolDir, { recursive: true, mode: 0o700 });
			// Private, as the store's own files: on disk the spool becomes the stored blob.
			const handle = await open(spool, "wx", 0o600);
			const transfer = new Transfer(expected, spool, handle, source, async (path, digest) => {
				const blob = storage.link
					? await storage.link(path, digest)
					: await storage.put(createReadStream(path), {
							expectedSize: digest.size,
							expectedSha256: digest.sha256,
						});
				await record(blob);
				return blob;
			});
			transfer.done.then(forget, forget);
			return transfer;
		})();
		this.transfers.set(key, started);
		started.catch(forget);
		return started;
	}
}
