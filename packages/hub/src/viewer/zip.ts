/**
 * The files inside a `.zip` archive of a folder dataset (`datasets` extracts an imagefolder's or audiofolder's
 * archives and reads their files as if they were the repository's), read without extracting it: the central
 * directory by range reads of the stored blob (yauzl parses it), an entry's bytes on demand. Hostile archives
 * get a `problem` sentence, never an exception: too many entries, too large (per entry or in all), a
 * compression ratio of a zip bomb, unsafe names (`..`, absolute paths, backslashes), encrypted entries,
 * compression methods other than stored and deflate, a central directory that lies or a truncated file.
 */

import { Readable } from "node:stream";
import yauzl from "yauzl";
import type { ReadBytes } from "./folder.js";

/** What the viewer reads of an archive at most. */
export interface ZipLimits {
	/** Entries of the central directory (directories included). */
	maxEntries: number;
	/** Uncompressed bytes of one entry. */
	maxEntryBytes: number;
	/** Uncompressed bytes of all entries. */
	maxTotalBytes: number;
	/** Uncompressed bytes per compressed byte of an entry (a zip bomb's is in the thousands). */
	maxRatio: number;
}

export const ZIP_LIMITS: Readonly<ZipLimits> = {
	maxEntries: 10_000,
	maxEntryBytes: 256 * 1024 * 1024,
	maxTotalBytes: 4 * 1024 * 1024 * 1024,
	maxRatio: 200,
};

/** An entry that is a file (directories are left out), as its central directory record describes it. */
export interface ZipEntry {
	name: string;
	compressedSize: number;
	uncompressedSize: number;
}

export type ZipListing = { entries: ZipEntry[] } | { problem: string };

/** Bytes fetched at once: the central directory's records are read in order, most from one block. */
const BLOCK_BYTES = 64 * 1024;

/** yauzl's reader over range reads of a blob, keeping the last block read. */
class RangeReader extends yauzl.RandomAccessReader {
	private block: { start: number; bytes: Buffer } | undefined;

	constructor(
		// Not `read`: yauzl's reader has a method of that name.
		private readonly readRange: ReadBytes,
		private readonly size: number,
	) {
		super();
	}

	private async bytes(start: number, end: number): Promise<Buffer> {
		const block = this.block;
		if (block !== undefined && start >= block.start && end <= block.start + block.bytes.length)
			return block.bytes.subarray(start - block.start, end - block.start);
		const length = Math.min(Math.max(end - start, BLOCK_BYTES), this.size - start);
		const bytes = await this.readRange(start, length);
		this.block = { start, bytes };
		return bytes.subarray(0, end - start);
	}

	// yauzl calls this for each range it reads; fewer bytes than asked make it report an unexpected end.
	override _readStreamForRange(start: number, end: number): Readable {
		const bytes = (): Promise<Buffer> => this.bytes(start, end);
		// Bytes, not objects: yauzl pipes them through its byte counters.
		return Readable.from(
			(async function* () {
				yield await bytes();
			})(),
			{ objectMode: false },
		);
	}
}

interface OpenedZip {
	zipfile: yauzl.ZipFile;
	next: () => Promise<yauzl.Entry | undefined>;
}

function open(read: ReadBytes, size: number): Promise<OpenedZip> {
	return new Promise((resolve, reject) => {
		yauzl.fromRandomAccessReader(
			new RangeReader(read, size),
			size,
			// Names are checked (yauzl refuses `..`, absolute paths and, strict, backslashes); sizes of stored
			// entries must agree.
			{ lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
			(error, zipfile) => {
				if (error !== null || zipfile === undefined) return reject(error ?? new Error("not a zip file"));
				let waiting:
					{ resolve: (entry: yauzl.Entry | undefined) => void; reject: (e: Error) => void } | undefined;
				zipfile.on("entry", (entry: yauzl.Entry) => waiting?.resolve(entry));
				zipfile.on("end", () => waiting?.resolve(undefined));
				zipfile.on("error", (failure: Error) => waiting?.reject(failure));
				resolve({
					zipfile,
					next: () =>
						new Promise((resolveEntry, rejectEntry) => {
							waiting = { resolve: resolveEntry, reject: rejectEntry };
							zipfile.readEntry();
						}),
				});
			},
		);
	});
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** What is wrong with one entry for the limits, or undefined. */
function entryProblem(entry: yauzl.Entry, limits: ZipLimits, size: number): string | undefined {
	const name = entry.fileName;
	if (entry.isEncrypted()) return `its entry ${name} is encrypted`;
	if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
		return `its entry ${name} is compressed with method ${entry.compressionMethod} (only stored and deflate are read)`;
	if (entry.uncompressedSize > limits.maxEntryBytes)
		return `its entry ${name} is ${entry.uncompressedSize} bytes uncompressed, more than the ${limits.maxEntryBytes} read`;
	if (entry.uncompressedSize > Math.max(entry.compressedSize, 1) * limits.maxRatio)
		return `its entry ${name} would grow ${entry.compressedSize} bytes to ${entry.uncompressedSize} (more than ${limits.maxRatio} times: a zip bomb)`;
	if (entry.relativeOffsetOfLocalHeader + 30 + entry.compressedSize > size)
		return `its entry ${name} lies beyond the end of the file (truncated, or a lying central directory)`;
	return undefined;
}

/**
 * The archive opened, or why not: unreadable, or more entries than `limits` allow — counted before any
 * record is read, as the end of central directory record says how many there are.
 */
async function openWithinLimits(
	read: ReadBytes,
	size: number,
	limits: ZipLimits,
): Promise<OpenedZip | { problem: string }> {
	let opened: OpenedZip;
	try {
		opened = await open(read, size);
	} catch (error) {
		return { problem: `it is not a readable zip archive: ${messageOf(error)}` };
	}
	if (opened.zipfile.entryCount > limits.maxEntries) {
		opened.zipfile.close();
		return {
			problem: `it has ${opened.zipfile.entryCount} entries, more than the ${limits.maxEntries} read`,
		};
	}
	return opened;
}

/** The files of an archive of `size` bytes read by `read`, in the central directory's order, or its problem. */
export async function listZip(
	read: ReadBytes,
	size: number,
	limits: ZipLimits = ZIP_LIMITS,
): Promise<ZipListing> {
	const opened = await openWithinLimits(read, size, limits);
	if ("problem" in opened) return opened;
	const { zipfile, next } = opened;
	try {
		const entries: ZipEntry[] = [];
		let total = 0;
		for (let entry = await next(); entry !== undefined; entry = await next()) {
			if (entry.fileName.endsWith("/")) continue;
			const problem = entryProblem(entry, limits, size);
			if (problem !== undefined) return { problem };
			total += entry.uncompressedSize;
			if (total > limits.maxTotalBytes)
				return { problem: `its entries hold more than the ${limits.maxTotalBytes} bytes read uncompressed` };
			entries.push({
				name: entry.fileName,
				compressedSize: entry.compressedSize,
				uncompressedSize: entry.uncompressedSize,
			});
		}
		return { entries };
	} catch (error) {
		return { problem: `its central directory cannot be read: ${messageOf(error)}` };
	} finally {
		zipfile.close();
	}
}

/** What reading one entry gave: its bytes (all of them, or the first `maxBytes`) and its size, or its problem. */
export type ZipRead = { bytes: Buffer; size: number } | { problem: string };

/** One entry's bytes, at most `maxBytes` of them (inflated; never more than the central directory declares). */
function entryBytes(zipfile: yauzl.ZipFile, entry: yauzl.Entry, maxBytes: number): Promise<Buffer> {
	return new Promise<Buffer>((resolve, reject) => {
		zipfile.openReadStream(entry, (error, stream) => {
			if (error !== null || stream === undefined) return reject(error ?? new Error("no stream"));
			const chunks: Buffer[] = [];
			let length = 0;
			let done = false;
			const finish = (): void => {
				if (done) return;
				done = true;
				resolve(Buffer.concat(chunks).subarray(0, maxBytes));
			};
			stream.on("data", (chunk: Buffer) => {
				if (done) return;
				length += chunk.length;
				// yauzl stops at the declared size too; this bounds memory whatever happens.
				if (length > entry.uncompressedSize) {
					done = true;
					stream.destroy();
					reject(new Error("more bytes than declared"));
					return;
				}
				chunks.push(chunk);
				if (length >= maxBytes) {
					finish();
					stream.destroy();
				}
			});
			stream.on("error", (failure: Error) => {
				if (!done) {
					done = true;
					reject(failure);
				}
			});
			stream.on("end", finish);
		});
	});
}

/**
 * The bytes of several of the archive's files (`names`), in one pass over its central directory: each one's
 * first `maxBytes` (all of it by default), or what keeps it from being read; a name the archive lacks is a
 * problem of its own. The archive is listed again, so its limits hold for this read too.
 */
export async function readZipEntries(
	read: ReadBytes,
	size: number,
	names: ReadonlySet<string>,
	options: { limits?: ZipLimits; maxBytes?: number } = {},
): Promise<{ entries: Map<string, ZipRead> } | { problem: string }> {
	const limits = options.limits ?? ZIP_LIMITS;
	const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
	const opened = await openWithinLimits(read, size, limits);
	if ("problem" in opened) return opened;
	const { zipfile, next } = opened;
	const entries = new Map<string, ZipRead>();
	try {
		for (let entry = await next(); entry !== undefined && entries.size < names.size; entry = await next()) {
			const name = entry.fileName;
			if (!names.has(name) || entries.has(name)) continue;
			const problem = entryProblem(entry, limits, size);
			if (problem !== undefined) {
				entries.set(name, { problem });
				continue;
			}
			try {
				entries.set(name, {
					bytes: await entryBytes(zipfile, entry, maxBytes),
					size: entry.uncompressedSize,
				});
			} catch (error) {
				entries.set(name, { problem: `its entry ${name} cannot be read: ${messageOf(error)}` });
			}
		}
	} catch (error) {
		return { problem: `its central directory cannot be read: ${messageOf(error)}` };
	} finally {
		zipfile.close();
	}
	for (const name of names) if (!entries.has(name)) entries.set(name, { problem: `it has no file ${name}` });
	return { entries };
}

/**
 * The bytes of the archive's file `name` (inflated, their length checked against the central directory), or
 * what keeps them from being read. The archive is listed again, so its limits hold for this read too.
 */
export async function readZipEntry(
	read: ReadBytes,
	size: number,
	name: string,
	limits: ZipLimits = ZIP_LIMITS,
): Promise<{ bytes: Buffer } | { problem: string }> {
	const found = await readZipEntries(read, size, new Set([name]), { limits });
	if ("problem" in found) return found;
	const entry = found.entries.get(name) ?? { problem: `it has no file ${name}` };
	return "problem" in entry ? entry : { bytes: entry.bytes };
}

/**
 * A stream of the archive's file `name` (inflated, at most its declared size: yauzl checks the length) and its
 * size, or what keeps it from being read. The archive is closed when the stream ends or is destroyed.
 */
export async function openZipEntry(
	read: ReadBytes,
	size: number,
	name: string,
	limits: ZipLimits = ZIP_LIMITS,
): Promise<{ stream: Readable; size: number } | { problem: string }> {
	const opened = await openWithinLimits(read, size, limits);
	if ("problem" in opened) return opened;
	const { zipfile, next } = opened;
	let handed = false;
	try {
		for (let entry = await next(); entry !== undefined; entry = await next()) {
			if (entry.fileName !== name) continue;
			const problem = entryProblem(entry, limits, size);
			if (problem !== undefined) return { problem };
			const found = entry;
			const stream = await new Promise<Readable>((resolve, reject) => {
				zipfile.openReadStream(found, (error, opened) => {
					if (error !== null || opened === undefined) reject(error ?? new Error("no stream"));
					else resolve(opened);
				});
			});
			handed = true;
			stream.once("close", () => zipfile.close());
			return { stream, size: found.uncompressedSize };
		}
		return { problem: `it has no file ${name}` };
	} catch (error) {
		return { problem: `its entry ${name} cannot be read: ${messageOf(error)}` };
	} finally {
		if (!handed) zipfile.close();
	}
}
