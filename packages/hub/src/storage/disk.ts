import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import type { Dirent } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { link as hardLink, mkdir, open, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { DigestTracker } from "./digest.js";
import { FileWriter } from "./file-writer.js";
import {
	BlobDigestError,
	BlobNotFoundError,
	isSha256,
	type BlobGroup,
	type BlobReader,
	type BlobStore,
	type ByteRange,
	type ListedBlob,
	type PutOptions,
	type StoredBlob,
} from "./types.js";

/**
 * A group's file writes (and flushes) in flight at once, and the bytes they may hold in memory
 * (MODELHUB_DISK_WRITES_IN_FLIGHT, MODELHUB_DISK_WRITE_BYTES_IN_FLIGHT). Flushes that overlap are
 * committed to the disk together (one journal commit for many files on ext4), which is where a group
 * saves its time; each write holds one open file.
 */
export const DEFAULT_GROUP_WRITES = { files: 32, bytes: 64 * 1024 * 1024 };

/** Temporary files older than this are left over from a crash and removed at open. */
const STALE_TMP_MS = 60 * 60 * 1000;

export interface DiskBlobStoreOptions {
	/** Remove the whole folder at close (a store made for one process, e.g. with an in-memory database). */
	ephemeral?: boolean;
	/** Bounds of a group's writes in flight (DEFAULT_GROUP_WRITES). */
	groupWrites?: { files: number; bytes: number };
	/** Told of each folder a group flushes to disk (its entries made durable), after the flush. */
	onFolderFlushed?: (folder: string) => void;
}

/**
 * Blobs as files under `<root>/blobs/<2 hex>/<2 hex>/<sha256>`. A put writes to `<root>/tmp/`, flushes
 * the file to disk, then renames it into place: a blob path only ever holds complete, verified bytes.
 */
export async function openDiskBlobStore(
	root: string,
	options: DiskBlobStoreOptions = {},
): Promise<BlobStore> {
	const limits = options.groupWrites ?? DEFAULT_GROUP_WRITES;
	const blobsDir = join(root, "blobs");
	const tmpDir = join(root, "tmp");
	await mkdir(blobsDir, { recursive: true, mode: 0o700 });
	await mkdir(tmpDir, { recursive: true, mode: 0o700 });
	await sweepFolder(tmpDir, STALE_TMP_MS, false);

	const pathOf = (sha256: string): string => {
		if (!isSha256(sha256)) throw new BlobNotFoundError(sha256);
		return join(blobsDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
	};

	/** Writes a put's bytes to a new temporary file (not flushed): its path, open handle and digest. */
	const writeTemporary = async (
		source: AsyncIterable<Uint8Array>,
		putOptions: PutOptions | undefined,
	): Promise<{ tmp: string; file: FileHandle; digest: Omit<StoredBlob, "created"> }> => {
		const tracker = new DigestTracker(putOptions);
		const tmp = join(tmpDir, randomUUID());
		const file = await open(tmp, "wx", 0o600);
		const writer = new FileWriter(file);
		try {
			for await (const chunk of source) {
				tracker.update(chunk);
				await writer.write(chunk);
			}
			await writer.end();
			const digest = tracker.finish();
			await writer.release();
			return { tmp, file, digest };
		} catch (error) {
			await writer.release();
			await file.close().catch(() => {});
			await unlink(tmp).catch(() => {});
			throw error;
		}
	};

	const group = (): BlobGroup => {
		/** Puts not yet published: where each goes, and its write (a failure is kept for publish). */
		let staged: Array<{ tmp: string; target: string; written: Promise<unknown> }> = [];
		/** Writes running, and the bytes they hold in memory. */
		let running: Array<{ done: Promise<unknown>; bytes: number }> = [];
		let runningBytes = 0;
		/** Leaf folders this group found or made. */
		const folders = new Set<string>();
		/** Folders that gained entries since the group last flushed folders (each flushed once then). */
		const unflushed = new Set<string>();
		const flushFolders = async (): Promise<void> => {
			const pending = [...unflushed];
			unflushed.clear();
			await forEachLimited(pending, limits.files, async (folder) => {
				await syncFolder(folder);
				options.onFolderFlushed?.(folder);
			});
		};
		const waitForRoom = async (): Promise<void> => {
			while (running.length >= limits.files || runningBytes > limits.bytes) {
				const oldest = running.shift() as { done: Promise<unknown>; bytes: number };
				await oldest.done;
				runningBytes -= oldest.bytes;
			}
		};
		return {
			async put(source, putOptions) {
				if (source instanceof Uint8Array) {
					// Bytes in memory (a commit's inline file): the digest now, the write and its flush
					// in the background while the next files arrive, a bounded number at a time.
					const tracker = new DigestTracker(putOptions);
					tracker.update(source);
					const digest = tracker.finish();
					const tmp = join(tmpDir, randomUUID());
					await waitForRoom();
					const written = writeAndFlush(tmp, source).then(
						() => undefined,
						(error: unknown) => error ?? new Error("write failed"),
					);
					running.push({ done: written, bytes: source.byteLength });
					runningBytes += source.byteLength;
					staged.push({ tmp, target: pathOf(digest.sha256), written });
					return { ...digest, created: true };
				}
				const { tmp, file, digest } = await writeTemporary(source, putOptions);
				await waitForRoom();
				const written = file
					.datasync()
					.then(
						() => undefined,
						(error: unknown) => error ?? new Error("flush failed"),
					)
					.finally(() => file.close().catch(() => {}));
				running.push({ done: written, bytes: 0 });
				staged.push({ tmp, target: pathOf(digest.sha256), written });
				return { ...digest, created: true };
			},
			async publish(publishOptions) {
				const batch = staged;
				staged = [];
				running = [];
				runningBytes = 0;
				try {
					// 1. Every file's bytes on disk before any is visible under its digest.
					for (const { written } of batch) {
						const error = await written;
						if (error !== undefined) throw error;
					}
					// 2. Into place (a blob already there is replaced by the same bytes). A folder is made
					// only when the rename finds none: in a used store nearly all of the 65,536 exist.
					await forEachLimited(batch, limits.files, async ({ tmp, target }) => {
						const folder = dirname(target);
						unflushed.add(folder);
						if (folders.has(folder)) return rename(tmp, target);
						try {
							await rename(tmp, target);
						} catch (error) {
							if (!isMissing(error)) throw error;
							for (const made of await makeFolder(folder)) unflushed.add(made);
							await rename(tmp, target);
						}
						folders.add(folder);
					});
				} catch (error) {
					await Promise.all(batch.map(({ tmp }) => unlink(tmp).catch(() => {})));
					throw error;
				}
				// 3. Each folder that gained a name flushed once, so that the names survive a crash before
				// a commit refers to them (a batch that is not the last leaves this to the last).
				if (publishOptions?.final !== false) await flushFolders();
			},
			async discard() {
				const batch = staged;
				staged = [];
				running = [];
				runningBytes = 0;
				await Promise.all(batch.map(({ written }) => written));
				await Promise.all(batch.map(({ tmp }) => unlink(tmp).catch(() => {})));
			},
		};
	};

	return {
		kind: "disk",
		// Each piece is written or copied (FileWriter) before the next is asked for; the digest copies what it keeps.
		retainsNoPieces: true,
		group,
		async put(source: AsyncIterable<Uint8Array>, putOptions?: PutOptions): Promise<StoredBlob> {
			const tracker = new DigestTracker(putOptions);
			const tmp = join(tmpDir, randomUUID());
			const file = await open(tmp, "wx", 0o600);
			const writer = new FileWriter(file);
			let moved = false;
			try {
				for await (const chunk of source) {
					tracker.update(chunk);
					await writer.write(chunk);
				}
				await writer.end();
				await file.sync();
				await file.close();
				const digest = tracker.finish();
				const target = pathOf(digest.sha256);
				if (await exists(target)) return { ...digest, created: false };
				for (const made of await makeFolder(dirname(target))) await syncFolder(made);
				await rename(tmp, target);
				moved = true;
				// The new name on disk too: a commit made next must not outlive its file in a crash.
				await syncFolder(dirname(target));
				return { ...digest, created: true };
			} finally {
				await writer.release();
				await file.close().catch(() => {});
				if (!moved) await unlink(tmp).catch(() => {});
			}
		},
		async stat(sha256: string) {
			try {
				const info = await stat(pathOf(sha256));
				return { size: info.size };
			} catch (error) {
				if (isMissing(error)) return undefined;
				throw error;
			}
		},
		async read(sha256: string, range?: ByteRange): Promise<Readable> {
			const path = pathOf(sha256);
			if (range && range.end <= range.start) return Readable.from([]);
			const stream = createReadStream(path, range ? { start: range.start, end: range.end - 1 } : {});
			// Open errors surface here rather than in the middle of a response.
			await new Promise<void>((resolve, reject) => {
				stream.once("open", () => resolve());
				stream.once("error", (error) => reject(isMissing(error) ? new BlobNotFoundError(sha256) : error));
			});
			return stream;
		},
		localFile: (sha256: string): string => pathOf(sha256),
		spoolDir: tmpDir,
		async link(path: string, digest: Omit<StoredBlob, "created">): Promise<StoredBlob> {
			const file = await open(path, "r");
			try {
				const { size } = await file.stat();
				if (size !== digest.size) {
					throw new BlobDigestError(`the file has ${size} bytes, not the ${digest.size} of its digest`);
				}
				// The bytes on disk before they are visible under their digest, as a put's are.
				await file.datasync();
			} finally {
				await file.close();
			}
			const target = pathOf(digest.sha256);
			if (await exists(target)) return { ...digest, created: false };
			for (const made of await makeFolder(dirname(target))) await syncFolder(made);
			try {
				await hardLink(path, target);
			} catch (error) {
				// Another writer stored the same bytes meanwhile.
				if ((error as { code?: string }).code === "EEXIST") return { ...digest, created: false };
				throw error;
			}
			await syncFolder(dirname(target));
			return { ...digest, created: true };
		},
		async openReader(sha256: string): Promise<BlobReader> {
			const file = await open(pathOf(sha256), "r").catch((error: unknown) => {
				throw isMissing(error) ? new BlobNotFoundError(sha256) : error;
			});
			return {
				async read(target: Uint8Array, position: number): Promise<number> {
					let filled = 0;
					while (filled < target.length) {
						const { bytesRead } = await file.read(target, filled, target.length - filled, position + filled);
						if (bytesRead === 0) break;
						filled += bytesRead;
					}
					return filled;
				},
				close: () => file.close(),
			};
		},
		downloadUrl: async () => undefined,
		async delete(sha256: string) {
			await unlink(pathOf(sha256)).catch((error: unknown) => {
				if (!isMissing(error)) throw error;
			});
		},
		list: () => listBlobs(blobsDir),
		sweepTemporaries: (maxAgeMs, dryRun) => sweepFolder(tmpDir, maxAgeMs, dryRun),
		async close() {
			if (options.ephemeral) await rm(root, { recursive: true, force: true });
		},
	};
}

/** Writes bytes to a new file and flushes them to disk. */
async function writeAndFlush(path: string, bytes: Uint8Array): Promise<void> {
	const file = await open(path, "wx", 0o600);
	try {
		let offset = 0;
		while (offset < bytes.byteLength) offset += (await file.write(bytes, offset)).bytesWritten;
		await file.datasync();
	} finally {
		await file.close();
	}
}

/**
 * Makes a blob's folder when missing; returns the folders that gained an entry (to flush, so that the
 * new folders survive a crash).
 */
async function makeFolder(folder: string): Promise<string[]> {
	const first = await mkdir(folder, { recursive: true, mode: 0o700 });
	if (first === undefined) return [];
	// Every folder from the first one made down to `folder` is new: each one's parent gained an entry.
	const parents: string[] = [];
	for (let made = first; ; made = join(made, folder.slice(made.length + 1).split("/")[0] as string)) {
		parents.push(dirname(made));
		if (made === folder) break;
	}
	return parents;
}

/** Flushes a folder's entries (names made or renamed in it) to disk. */
async function syncFolder(folder: string): Promise<void> {
	const handle = await open(folder, "r");
	try {
		await handle.sync();
	} finally {
		await handle.close();
	}
}

/** Runs `task` on each item, at most `limit` at once. */
async function forEachLimited<T>(
	items: readonly T[],
	limit: number,
	task: (item: T) => Promise<void>,
): Promise<void> {
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < items.length) await task(items[next++] as T);
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function exists(path: string): Promise<boolean> {
	try {
		await stat(path);
		return true;
	} catch (error) {
		if (isMissing(error)) return false;
		throw error;
	}
}

function isMissing(error: unknown): boolean {
	return (error as { code?: string }).code === "ENOENT";
}

/** Files written under `<blobs>/<2 hex>/<2 hex>/`, named by their SHA-256. */
async function* listBlobs(blobsDir: string): AsyncIterable<ListedBlob> {
	const entries = (dir: string): Promise<Dirent[]> =>
		readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
			if (isMissing(error)) return [];
			throw error;
		});
	for (const first of await entries(blobsDir)) {
		if (!first.isDirectory()) continue;
		for (const second of await entries(join(blobsDir, first.name))) {
			if (!second.isDirectory()) continue;
			const dir = join(blobsDir, first.name, second.name);
			for (const file of await entries(dir)) {
				if (!file.isFile() || !isSha256(file.name)) continue;
				const info = await stat(join(dir, file.name)).catch(() => undefined);
				if (info) yield { sha256: file.name, size: info.size, modifiedAt: info.mtime };
			}
		}
	}
}

/**
 * Removes the entries of a folder of temporaries not written for `maxAgeMs` (a put in progress writes
 * at least every MODELHUB_UPLOAD_IDLE_TIMEOUT_MS, so an older one belongs to a crashed process);
 * returns how many and their bytes. With `dryRun` only counts.
 */
export async function sweepFolder(
	dir: string,
	maxAgeMs: number,
	dryRun: boolean,
): Promise<{ count: number; bytes: number }> {
	const now = Date.now();
	const swept = { count: 0, bytes: 0 };
	const names = await readdir(dir).catch((error: unknown) => {
		if (isMissing(error)) return [];
		throw error;
	});
	for (const name of names) {
		const path = join(dir, name);
		const info = await stat(path).catch(() => undefined);
		if (!info) continue;
		if (info.isDirectory()) {
			// A folder of spools (S3): its old files, then the folder itself once it is old and empty.
			const inner = await sweepFolder(path, maxAgeMs, dryRun);
			swept.count += inner.count;
			swept.bytes += inner.bytes;
			if (!dryRun && now - info.mtimeMs > maxAgeMs && (await readdir(path).catch(() => [""])).length === 0) {
				await rm(path, { recursive: true, force: true });
			}
			continue;
		}
		if (now - info.mtimeMs <= maxAgeMs) continue;
		swept.count++;
		swept.bytes += info.size;
		if (!dryRun) await rm(path, { force: true });
	}
	return swept;
}
