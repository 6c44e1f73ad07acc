import { createHash, type Hash } from "node:crypto";
import { EventEmitter } from "node:events";
import { createReadStream } from "node:fs";
import { mkdir, open, unlink, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { GIT_OID_MAX_BYTES, type BlobStore, type StoredBlob } from "../storage/types.js";

/**
 * One fetch of one upstream file, shared by every client that asks for it meanwhile. The bytes are
 * verified (SHA-256 of an LFS file, git blob id of a regular one) and written to a spool file as they
 * arrive, in one pass. Clients are sent the pieces as received, from memory (no copy, no read back),
 * while they keep up: the last MEMORY_WINDOW bytes stay in memory, shared by all; a client further
 * behind reads the spool from its own offset, so memory stays flat whatever the clients' speeds. The
 * last byte is held back from clients until the file is verified: a client never receives a whole file
 * with wrong bytes; on a failure its answer is cut off. Storing the verified file happens after the
 * clients have it all: it is not on their critical path (the mirror bench's miss figure). A disk store
 * takes the spool itself (a flush and a hard link: the spool lies in its folder), with the digests
 * computed here; S3 gets a put from the spool.
 */

/** What the bytes must be. */
export interface Expected {
	size: number;
	/** 64 hex: the SHA-256; 40 hex: the git blob id. */
	etag: string;
}

/** What the spool's bytes were found to be (a StoredBlob's digests). */
export type Digest = Omit<StoredBlob, "created">;

/** Bytes of a piece a client behind the memory window reads from the spool at once. */
const READ_PIECE = 1024 * 1024;
/** Bytes received and not yet written to the spool at most (reading the upstream waits past it). */
const SPOOL_BACKLOG = 8 * 1024 * 1024;
/** Bytes received last that stay in memory once written, for the clients keeping up. */
const MEMORY_WINDOW = 8 * 1024 * 1024;

/** A piece received and where in the file it starts. */
interface Piece {
	at: number;
	bytes: Uint8Array;
}

export class Transfer {
	private received = 0;
	private written = 0;
	/** The pieces of [pieces[0].at, received): all not yet written, and the last MEMORY_WINDOW bytes. */
	private pieces: Piece[] = [];
	private piecesBytes = 0;
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
		return Math.min(this.received, Math.max(0, this.expected.size - 1));
	}

	/** Where the pieces kept in memory start (what is before is in the spool). */
	private get memoryStart(): number {
		return this.pieces[0]?.at ?? this.received;
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
			this.settle();
			throw this.failure;
		}
		this.state = "verified";
		this.events.emit("progress");
		try {
			return await store(this.spoolPath, digest);
		} finally {
			this.storing = false;
			this.settle();
		}
	}

	/**
	 * Takes the upstream's bytes: checks their size and digests as they pass, keeps them for the
	 * followers and writes them to the spool. Pieces that arrive while a write is under way are written
	 * together in the next one (one writev), and the upstream is read meanwhile: a miss costs a write per
	 * batch, not per network piece, and reading and writing overlap. At most SPOOL_BACKLOG bytes wait to
	 * be written (then reading waits for the disk). Returns the digests the store keeps the bytes by,
	 * checked against the ETag.
	 */
	private async receive(spool: FileHandle, source: AsyncIterable<Uint8Array>): Promise<Digest> {
		let handle: FileHandle | undefined = spool;
		let waiting: Uint8Array[] = [];
		let waitingBytes = 0;
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
				this.forgetWritten();
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
				if (piece.length === 0) continue;
				if (this.received + piece.length > size) {
					throw new Error(`the upstream sent more than the ${size} bytes it announced`);
				}
				sha256.update(piece);
				gitOid?.update(piece);
				this.pieces.push({ at: this.received, bytes: piece });
				this.piecesBytes += piece.length;
				this.received += piece.length;
				this.events.emit("progress");
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
			if (this.written !== size) {
				throw new Error(`the upstream sent ${this.written} of the ${size} bytes it announced`);
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

	/** Drops the pieces in memory that are written and older than the last MEMORY_WINDOW bytes. */
	private forgetWritten(): void {
		let drop = 0;
		let bytes = this.piecesBytes;
		for (const piece of this.pieces) {
			if (piece.at + piece.bytes.length > this.written || bytes - piece.bytes.length < MEMORY_WINDOW) break;
			bytes -= piece.bytes.length;
			drop++;
		}
		if (drop === 0) return;
		this.pieces = this.pieces.slice(drop);
		this.piecesBytes = bytes;
	}

	/** Once over and unread: the pieces in memory are dropped and the spool removed (it is stored by then). */
	private settle(): void {
		if (this.state === "running" || this.followers > 0) return;
		this.pieces = [];
		this.piecesBytes = 0;
		if (this.storing || this.spoolGone) return;
		this.spoolGone = true;
		void unlink(this.spoolPath).catch(() => {});
	}

	/**
	 * The bytes [start, end) as they arrive, or undefined when the transfer is over and its spool gone
	 * (read the stored blob then). The stream fails when the fetch fails (the answer is then cut off).
	 */
	follow(start: number, end: number): Readable | undefined {
		if (this.state === "failed") throw this.failure ?? new Error("the upstream fetch failed");
		if (this.spoolGone) return undefined;
		// Counted now, not when the reading starts: the spool stays until this follower is done.
		this.followers++;
		return new Follower(
			{
				next: (at, until) => this.next(at, until),
				waitForBytes: (then) => {
					this.events.once("progress", then);
					return () => this.events.off("progress", then);
				},
				spoolPath: this.spoolPath,
				done: () => {
					this.followers--;
					this.settle();
				},
			},
			start,
			end,
		);
	}

	/**
	 * What a follower at `at` reads next, up to `until`: a piece in memory, the length to read from the
	 * spool, "wait" when nothing more is released yet, or the error that ended the transfer.
	 */
	private next(at: number, until: number): Uint8Array | number | "wait" | Error {
		if (this.state === "failed") return this.failure ?? new Error("the upstream fetch failed");
		const available = Math.min(this.released, until);
		if (at >= available) return "wait";
		const memoryStart = this.memoryStart;
		// Before the pieces in memory: written to the spool already (only written pieces are dropped).
		if (at < memoryStart) return Math.min(READ_PIECE, available - at, memoryStart - at);
		// The piece holding `at`: the last whose start is at or before it.
		let low = 0;
		let high = this.pieces.length - 1;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if (this.pieces[middle]!.at <= at) low = middle;
			else high = middle - 1;
		}
		const piece = this.pieces[low]!;
		const from = at - piece.at;
		return piece.bytes.subarray(from, Math.min(piece.bytes.length, available - piece.at));
	}
}

/** What a follower reads through (a Transfer's, kept apart so the stream sees no more of it). */
interface FollowerSource {
	next(at: number, until: number): Uint8Array | number | "wait" | Error;
	/** Calls `then` once when more bytes are released (or the transfer fails); returns the cancel. */
	waitForBytes(then: () => void): () => void;
	spoolPath: string;
	/** Called once when the follower ends, however it ends. */
	done(): void;
}

/** Reads a spool at a follower's offsets, the file opened on first use. */
class SpoolReader {
	private handle: Promise<FileHandle> | undefined;
	constructor(private readonly path: string) {}

	async read(at: number, length: number): Promise<Uint8Array> {
		this.handle ??= open(this.path, "r");
		const buffer = Buffer.allocUnsafe(length);
		const { bytesRead } = await (await this.handle).read(buffer, 0, length, at);
		if (bytesRead <= 0) throw new Error("the spool file ended early");
		return buffer.subarray(0, bytesRead);
	}

	/** Closes the file once opened (a read under way ends first: FileHandle.close waits for it). */
	close(): void {
		void this.handle?.then((handle) => handle.close()).catch(() => {});
		this.handle = undefined;
	}
}

/**
 * One client's bytes [start, end) of a transfer: the pieces in memory pushed as they are (shared with
 * the other clients and the spool's writes, never copied), the spool read when the client is behind.
 * Pushed only as the client takes them (Readable's backpressure).
 */
class Follower extends Readable {
	private at: number;
	/** A spool read or a wait for bytes is under way: _read has nothing to do. */
	private busy = false;
	private cancelWait: (() => void) | undefined;
	private readonly spool: SpoolReader;

	constructor(
		private readonly source: FollowerSource,
		start: number,
		private readonly end: number,
	) {
		super();
		this.at = start;
		this.spool = new SpoolReader(source.spoolPath);
	}

	override _read(): void {
		if (this.busy) return;
		for (;;) {
			if (this.at >= this.end) {
				this.push(null);
				return;
			}
			const next = this.source.next(this.at, this.end);
			if (next instanceof Error) {
				this.destroy(next);
				return;
			}
			if (next === "wait") {
				this.busy = true;
				this.cancelWait = this.source.waitForBytes(() => {
					this.cancelWait = undefined;
					this.busy = false;
					this._read();
				});
				return;
			}
			if (typeof next === "number") {
				this.busy = true;
				this.spool.read(this.at, next).then(
					(bytes) => {
						this.busy = false;
						if (this.destroyed) return;
						this.at += bytes.length;
						if (this.push(bytes)) this._read();
					},
					(error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
				);
				return;
			}
			this.at += next.length;
			if (!this.push(next)) return;
		}
	}

	override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
		this.cancelWait?.();
		this.cancelWait = undefined;
		this.spool.close();
		this.source.done();
		callback(error);
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
