import { createWriteStream } from "node:fs";
import { link, mkdtemp, open, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { viewerError } from "./errors.js";

/**
 * Local copies of data files for the engine, which reads local paths (DuckDB reads a Parquet file by
 * ranges: the footer, then the row groups and columns a query needs, so a 1 GB file is never in memory).
 * Files are stored by SHA-256 (a commit's file never changes), copied once by streaming from the hub's
 * storage, kept within a byte budget (least recently used first out, never one in use or still arriving),
 * and live in a folder of this process's own, removed at close. A copy is made sparse at its full size
 * and filled in order, so the ranges an early answer needs (a Parquet file's footer and first row groups)
 * can be fetched into it first: the first rows of a 1 GB file on S3 need not wait for the whole file.
 */

interface Copy {
	path: string;
	size: number;
	users: number;
	lastUsed: number;
	/** Resolves once the file is at `path` at its full size: linked whole, or sparse while its bytes arrive. */
	created: Promise<void>;
	/** Resolves once every byte is there. */
	ready: Promise<void>;
	complete: boolean;
	/** Ranges written into the copy before it was whole, by `start-end` (each fetched once). */
	filled: Map<string, Promise<void>>;
	/** Early fills under way: the whole-file stream waits for them, so the first answer has the bandwidth. */
	early: number;
	/** Called when `early` drops to 0. */
	earlyDone?: () => void;
}

export interface SpoolFile {
	sha256: string;
	size: number;
}

/** A range of a file's bytes: `start` inclusive, `end` exclusive. */
export interface ByteSpan {
	start: number;
	end: number;
}

/** Where a file's bytes come from: a stream from storage, and a local file to link when the store has one. */
export interface SpoolSource {
	read(file: SpoolFile, span?: ByteSpan): Promise<Readable>;
	localFile?(file: SpoolFile): string | undefined;
}

/** One file of an early answer: whether its copy is whole, and a reader of its ranges (kept in the copy). */
export interface EarlyFile {
	file: SpoolFile;
	complete: boolean;
	/** The bytes of `span` (at most MAX_EARLY_READ_BYTES), fetched from storage and written where they belong in the copy. */
	read(span: ByteSpan): Promise<Buffer>;
	/** As `read`, streamed into the copy and not kept (a row group of any size). */
	fetch(span: ByteSpan): Promise<void>;
}

/**
 * Fetches the ranges an answer needs before the whole copies are there (a Parquet file's footer and its
 * first row groups, for its first rows); true when it did, false when the answer must wait for whole files.
 */
export type EarlyFill = (files: readonly EarlyFile[]) => Promise<boolean>;

export interface HeldCopies {
	paths: string[];
	release: () => void;
	/** False while some copy is sparse (only the ranges the early fill fetched are sure to be there). */
	complete: boolean;
	/** Resolves once every copy is whole. */
	completed: () => Promise<void>;
}

/** The most bytes an early fill reads into memory at once (a Parquet footer beyond this waits for the whole file). */
export const MAX_EARLY_READ_BYTES = 64 * 1024 * 1024;

export class Spool {
	private readonly copies = new Map<string, Copy>();
	private used = 0;
	private clock = 0;
	/** Numbers each copy's file name: a dropped copy's file may still be being removed when its next copy starts. */
	private made = 0;

	private constructor(
		readonly dir: string,
		private readonly budgetBytes: number,
	) {}

	static async open(parent: string | undefined, budgetBytes: number): Promise<Spool> {
		const dir = await mkdtemp(join(parent ?? tmpdir(), "modelhub-viewer-"));
		return new Spool(dir, budgetBytes);
	}

	/**
	 * The local paths of these files, held until `release` is called. Each is copied first when needed
	 * (`read` streams it from storage). With `early`, a copy still under way is handed over as soon as
	 * `early` has fetched the ranges the answer needs: the rest arrives meanwhile, where it belongs.
	 */
	async acquire(files: readonly SpoolFile[], source: SpoolSource, early?: EarlyFill): Promise<HeldCopies> {
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
			const copies = [...held];
			const whole = (): Promise<void> => Promise.all(copies.map((copy) => copy.ready)).then(() => {});
			let complete = true;
			if (early !== undefined && copies.some((copy) => !copy.complete)) {
				for (const copy of copies) copy.early += 1;
				let filled: boolean;
				try {
					await Promise.all(copies.map((copy) => copy.created));
					filled = await early(
						copies.map((copy, index) => ({
							file: files[index] as SpoolFile,
							complete: copy.complete,
							read: (span) => this.fill(copy, files[index] as SpoolFile, span, source, true),
							fetch: (span) => this.fill(copy, files[index] as SpoolFile, span, source, false).then(() => {}),
						})),
					);
				} finally {
					for (const copy of copies) {
						copy.early -= 1;
						if (copy.early === 0) copy.earlyDone?.();
					}
				}
				complete = copies.every((copy) => copy.complete);
				if (!filled) {
					await whole();
					complete = true;
				}
			} else await whole();
			return { paths: copies.map((copy) => copy.path), release, complete, completed: whole };
		} catch (error) {
			release();
			throw error;
		}
	}

	private start(file: SpoolFile, source: SpoolSource): Copy {
		this.makeRoom(file.size);
		const path = join(this.dir, `${file.sha256}.${++this.made}`);
		let created: () => void = () => {};
		const copy: Copy = {
			path,
			size: file.size,
			users: 0,
			lastUsed: this.clock,
			created: new Promise<void>((resolve) => {
				created = resolve;
			}),
			ready: Promise.resolve(),
			complete: false,
			filled: new Map(),
			early: 0,
		};
		copy.ready = this.copy(file, copy, source, created).then(
			() => {
				copy.complete = true;
			},
			(error: unknown) => {
				this.forget(file.sha256, copy);
				throw error;
			},
		);
		// A failed copy also fails `created` (its waiters see the copy's error), and nobody need wait for
		// either: a copy an early answer left running may fail with no one listening.
		copy.created = Promise.race([copy.created, copy.ready]);
		copy.ready.catch(() => {});
		copy.created.catch(() => {});
		this.copies.set(file.sha256, copy);
		this.used += file.size;
		return copy;
	}

	private async copy(file: SpoolFile, copy: Copy, source: SpoolSource, created: () => void): Promise<void> {
		const path = copy.path;
		const local = source.localFile?.(file);
		// A hard link costs nothing whatever the size (a 1 GB file is there at once); on another file
		// system, or for a blob that is not a file of its own, the bytes are copied instead.
		if (local !== undefined) {
			const partial = `${path}.part`;
			const linked = await link(local, partial).then(
				() => true,
				() => false,
			);
			if (linked) {
				const { size } = await stat(partial);
				if (size !== file.size) {
					await rm(partial, { force: true });
					throw new Error(`stored file ${file.sha256} has ${size} bytes, not ${file.size}`);
				}
				await rename(partial, path);
				created();
				return;
			}
		}
		// A sparse file of the full size: early ranges are written into it while the stream fills it in order
		// (the same bytes where both write, so a reader never sees anything but the file's own bytes or holes).
		const handle = await open(path, "wx");
		try {
			await handle.truncate(file.size);
		} finally {
			await handle.close();
		}
		created();
		// An early fill started with this copy goes first (on one event loop and one storage connection,
		// the whole file's stream would otherwise slow the first answer down).
		await Promise.resolve();
		if (copy.early > 0) {
			await new Promise<void>((resolve) => {
				copy.earlyDone = resolve;
			});
		}
		const out = createWriteStream(path, { flags: "r+", start: 0 });
		await pipeline(await source.read(file), out);
		if (out.bytesWritten !== file.size)
			throw new Error(`stored file ${file.sha256} has ${out.bytesWritten} bytes, not ${file.size}`);
	}

	/**
	 * Makes sure `span` of a copy is there (fetched from storage into place once, however many answers
	 * ask for it), then its bytes when `keep`, read from the copy.
	 */
	private async fill(
		copy: Copy,
		file: SpoolFile,
		span: ByteSpan,
		source: SpoolSource,
		keep: boolean,
	): Promise<Buffer> {
		const start = Math.max(0, span.start);
		const end = Math.min(file.size, span.end);
		if (end <= start) return Buffer.alloc(0);
		if (keep && end - start > MAX_EARLY_READ_BYTES)
			throw new Error(
				`a range of ${end - start} bytes is more than the ${MAX_EARLY_READ_BYTES} read at once`,
			);
		if (!copy.complete) {
			const key = `${start}-${end}`;
			let written = copy.filled.get(key);
			if (written === undefined) {
				written = this.fetchInto(copy, file, start, end, source);
				copy.filled.set(key, written);
				written.catch(() => copy.filled.delete(key));
			}
			await written;
		}
		if (!keep) return Buffer.alloc(0);
		const handle = await open(copy.path, "r");
		try {
			const bytes = Buffer.alloc(end - start);
			const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
			if (bytesRead !== bytes.length) throw new Error(`the copy of ${file.sha256} ends early`);
			return bytes;
		} finally {
			await handle.close();
		}
	}

	/** Streams `start` ≤ byte < `end` of a file from storage into its place in the copy. */
	private async fetchInto(
		copy: Copy,
		file: SpoolFile,
		start: number,
		end: number,
		source: SpoolSource,
	): Promise<void> {
		const handle = await open(copy.path, "r+");
		try {
			let at = start;
			for await (const chunk of await source.read(file, { start, end })) {
				const bytes = chunk as Buffer;
				if (at + bytes.length > end)
					throw new Error(`stored file ${file.sha256} sent more than the range asked for`);
				await handle.write(bytes, 0, bytes.length, at);
				at += bytes.length;
			}
			if (at !== end)
				throw new Error(`stored file ${file.sha256} sent ${at - start} bytes of a ${end - start}-byte range`);
		} finally {
			await handle.close();
		}
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
			.filter(([, copy]) => copy.users === 0 && copy.complete)
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
