import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import type { Dirent } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { DigestTracker } from "./digest.js";
import {
	BlobNotFoundError,
	isSha256,
	type BlobReader,
	type BlobStore,
	type ByteRange,
	type ListedBlob,
	type PutOptions,
	type StoredBlob,
} from "./types.js";

/** Temporary files older than this are left over from a crash and removed at open. */
const STALE_TMP_MS = 60 * 60 * 1000;

export interface DiskBlobStoreOptions {
	/** Remove the whole folder at close (a store made for one process, e.g. with an in-memory database). */
	ephemeral?: boolean;
}

/**
 * Blobs as files under `<root>/blobs/<2 hex>/<2 hex>/<sha256>`. A put writes to `<root>/tmp/`, flushes
 * the file to disk, then renames it into place: a blob path only ever holds complete, verified bytes.
 */
export async function openDiskBlobStore(
	root: string,
	options: DiskBlobStoreOptions = {},
): Promise<BlobStore> {
	const blobsDir = join(root, "blobs");
	const tmpDir = join(root, "tmp");
	await mkdir(blobsDir, { recursive: true, mode: 0o700 });
	await mkdir(tmpDir, { recursive: true, mode: 0o700 });
	await sweepFolder(tmpDir, STALE_TMP_MS, false);

	const pathOf = (sha256: string): string => {
		if (!isSha256(sha256)) throw new BlobNotFoundError(sha256);
		return join(blobsDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
	};

	return {
		kind: "disk",
		// Each piece is written (awaited) before the next is asked for; the digest copies what it keeps.
		retainsNoPieces: true,
		async put(source: AsyncIterable<Uint8Array>, putOptions?: PutOptions): Promise<StoredBlob> {
			const tracker = new DigestTracker(putOptions);
			const tmp = join(tmpDir, randomUUID());
			const file = await open(tmp, "wx", 0o600);
			let moved = false;
			try {
				for await (const chunk of source) {
					tracker.update(chunk);
					let offset = 0;
					while (offset < chunk.byteLength) {
						const { bytesWritten } = await file.write(chunk, offset);
						offset += bytesWritten;
					}
				}
				await file.sync();
				await file.close();
				const digest = tracker.finish();
				const target = pathOf(digest.sha256);
				if (await exists(target)) return { ...digest, created: false };
				await mkdir(join(target, ".."), { recursive: true, mode: 0o700 });
				await rename(tmp, target);
				moved = true;
				return { ...digest, created: true };
			} finally {
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
