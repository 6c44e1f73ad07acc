import { createWriteStream } from "node:fs";
import { link, mkdtemp, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { viewerError } from "./errors.js";

/**
 * Local copies of data files for the engine, which reads local paths (DuckDB reads a Parquet file by
 * ranges: the footer, then the row groups and columns a query needs, so a 1 GB file is never in memory).
 * Files are stored by SHA-256 (a commit's file never changes), copied once by streaming from the hub's
 * storage, kept within a byte budget (least recently used first out, never one in use), and live in a
 * folder of this process's own, removed at close.
 */

interface Copy {
	path: string;
	size: number;
	users: number;
	lastUsed: number;
	ready: Promise<void>;
}

export interface SpoolFile {
	sha256: string;
	size: number;
}

/** Where a file's bytes come from: a stream from storage, and a local file to link when the store has one. */
export interface SpoolSource {
	read(file: SpoolFile): Promise<Readable>;
	localFile?(file: SpoolFile): string | undefined;
}

export class Spool {
	private readonly copies = new Map<string, Copy>();
	private used = 0;
	private clock = 0;

	private constructor(
		readonly dir: string,
		private readonly budgetBytes: number,
	) {}

	static async open(parent: string | undefined, budgetBytes: number): Promise<Spool> {
		const dir = await mkdtemp(join(parent ?? tmpdir(), "modelhub-viewer-"));
		return new Spool(dir, budgetBytes);
	}

	/**
	 * The local paths of these files, copied first when needed (`read` streams one from storage), held
	 * until `release` is called.
	 */
	async acquire(
		files: readonly SpoolFile[],
		source: SpoolSource,
	): Promise<{ paths: string[]; release: () => void }> {
		const held: Copy[] = [];
		const release = (): void => {
			for (const copy of held.splice(0)) copy.users -= 1;
		};
		try {
			for (const file of files) {
				const copy = this.copies.get(file.sha256) ?? this.start(file, source);
				copy.users += 1;
				copy.lastUsed = ++this.clock;
				held.push(copy);
			}
			await Promise.all(held.map((copy) => copy.ready));
			return { paths: held.map((copy) => copy.path), release };
		} catch (error) {
			release();
			throw error;
		}
	}

	private start(file: SpoolFile, source: SpoolSource): Copy {
		this.makeRoom(file.size);
		const path = join(this.dir, file.sha256);
		const copy: Copy = { path, size: file.size, users: 0, lastUsed: this.clock, ready: Promise.resolve() };
		copy.ready = this.copy(file, path, source).catch((error: unknown) => {
			this.forget(file.sha256, copy);
			throw error;
		});
		this.copies.set(file.sha256, copy);
		this.used += file.size;
		return copy;
	}

	private async copy(file: SpoolFile, path: string, source: SpoolSource): Promise<void> {
		const partial = `${path}.part`;
		const local = source.localFile?.(file);
		// A hard link costs nothing whatever the size (a 1 GB file is there at once); on another file
		// system, or for a blob that is not a file of its own, the bytes are copied instead.
		const linked =
			local !== undefined &&
			(await link(local, partial).then(
				() => true,
				() => false,
			));
		if (!linked) await pipeline(await source.read(file), createWriteStream(partial, { flags: "wx" }));
		// The store's bytes must be the entry's (a short or long blob is not handed to the engine).
		const { size } = await stat(partial);
		if (size !== file.size) {
			await rm(partial, { force: true });
			throw new Error(`stored file ${file.sha256} has ${size} bytes, not ${file.size}`);
		}
		await rename(partial, path);
	}

	private forget(sha256: string, copy: Copy): void {
		if (this.copies.get(sha256) !== copy) return;
		this.copies.delete(sha256);
		this.used -= copy.size;
		void rm(copy.path, { force: true }).catch(() => {});
	}

	/** Drops unused copies, oldest first, until `bytes` more fit; refuses when copies in use leave no room. */
	private makeRoom(bytes: number): void {
		if (bytes > this.budgetBytes) {
			throw viewerError(
				"TooLarge",
				"ComputationError",
				`the file is larger than the viewer's local copies may be (MODELHUB_VIEWER_SPOOL_BYTES=${this.budgetBytes})`,
			);
		}
		if (this.used + bytes <= this.budgetBytes) return;
		const idle = [...this.copies.entries()]
			.filter(([, copy]) => copy.users === 0)
			.sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
		for (const [sha256, copy] of idle) {
			if (this.used + bytes <= this.budgetBytes) break;
			this.forget(sha256, copy);
		}
		if (this.used + bytes > this.budgetBytes) {
			throw viewerError(
				"Unavailable",
				"ResponseNotReady",
				"the viewer's local copies are all in use (MODELHUB_VIEWER_SPOOL_BYTES); retry in a few seconds",
			);
		}
	}

	async close(): Promise<void> {
		this.copies.clear();
		await rm(this.dir, { recursive: true, force: true });
	}
}
