import { REGION_BYTES } from "../storage/file-writer.js";
import { XetFormatError } from "./chunks.js";
import type { ShardFile, ShardTerm } from "./shard.js";
import type { StoredXorb } from "./store.js";
import { chunkKey } from "./zeros.js";

/**
 * How much a shard may make the hub write. A shard's terms may name the same chunks again and again
 * (a term is a chunk range of a xorb, and nothing stops a file from repeating one): 48 bytes of shard
 * can ask for a 64 KiB chunk, and an LZ4 chunk of zeros is about 1/255 of its size. So the bytes a
 * shard's files write to disk are bounded by the bytes of the distinct chunks they are built from.
 * Regions of zeros are not written (storage/file-writer.ts) and only cost their hashing (about 0.6 s
 * per GiB here): they have a bound of their own, so zero-filled files upload through Xet.
 */
export interface RebuildLimits {
	/** Largest file rebuilt (MODELHUB_MAX_FILE_BYTES). */
	maxFileBytes: number;
	/** Rebuilt bytes allowed per byte of distinct uploaded chunk data they come from (MODELHUB_XET_MAX_EXPANSION). */
	maxExpansion: number;
	/** Rebuilt bytes a shard may have beyond that ratio (MODELHUB_XET_ALLOWANCE_BYTES). */
	expansionAllowanceBytes: number;
	/** Bytes of zero regions (not written, hashed) a shard may rebuild (MODELHUB_XET_MAX_ZERO_BYTES). */
	maxZeroBytes: number;
}

export interface PlannedFile {
	file: ShardFile & { sha256: string };
	/** The size the file rebuilds into, as its terms add up (checked against the xorbs' chunk sizes). */
	size: number;
	/** The bytes of it written to disk: all but its REGION_BYTES regions made only of zero chunks. */
	written: number;
}

export interface RebuildPlan {
	files: PlannedFile[];
	/** The bytes the plan rebuilds: the sum of its files' sizes (the figure a storage quota checks). */
	rebuiltBytes: number;
	/** The bytes of them written to disk (zero regions are not). */
	writtenBytes: number;
	/** The stored (compressed) bytes of the distinct chunks the files are built from. */
	sourceBytes: number;
}

/** The uncompressed size a term covers, once its chunk range is checked against the xorb. */
function termSize(term: ShardTerm, xorb: StoredXorb | undefined): number {
	if (!xorb) throw new XetFormatError(`xorb ${term.xorb} was not uploaded by this account`);
	if (term.chunkEnd > xorb.chunkSizes.length) {
		throw new XetFormatError(
			`xorb ${term.xorb} has ${xorb.chunkSizes.length} chunks, a term asks for chunk ${term.chunkEnd - 1}`,
		);
	}
	let size = 0;
	for (let index = term.chunkStart; index < term.chunkEnd; index++) size += xorb.chunkSizes[index] as number;
	if (size !== term.size)
		throw new XetFormatError(
			`a term of xorb ${term.xorb} claims ${term.size} bytes, its chunks hold ${size}`,
		);
	return size;
}

/**
 * A file's size and the bytes of it written to disk: the REGION_BYTES regions (aligned in the file)
 * that any chunk outside `zero` touches. Terms are checked against their xorbs on the way.
 */
function fileExtent(
	file: ShardFile,
	xorbs: ReadonlyMap<string, StoredXorb>,
	zero: ReadonlySet<string>,
): { size: number; written: number } {
	let size = 0;
	/** Regions holding data so far, and the last of them. */
	let dataRegions = 0;
	let lastDataRegion = -1;
	for (const term of file.terms) {
		const xorb = xorbs.get(term.xorb);
		const termStart = size;
		size += termSize(term, xorb);
		if (zero.size === 0) {
			// No zero chunks: the term's bytes are all data.
			if (size > termStart) {
				const first = Math.max(Math.floor(termStart / REGION_BYTES), lastDataRegion + 1);
				const last = Math.floor((size - 1) / REGION_BYTES);
				if (last >= first) dataRegions += last - first + 1;
				lastDataRegion = Math.max(lastDataRegion, last);
			}
			continue;
		}
		let position = termStart;
		for (let index = term.chunkStart; index < term.chunkEnd; index++) {
			const chunkSize = (xorb as StoredXorb).chunkSizes[index] as number;
			if (chunkSize > 0 && !zero.has(chunkKey(term.xorb, index))) {
				const first = Math.max(Math.floor(position / REGION_BYTES), lastDataRegion + 1);
				const last = Math.floor((position + chunkSize - 1) / REGION_BYTES);
				if (last >= first) dataRegions += last - first + 1;
				lastDataRegion = Math.max(lastDataRegion, last);
			}
			position += chunkSize;
		}
	}
	// The last region is shorter when the file does not end on a region boundary.
	const lastRegion = Math.floor((size - 1) / REGION_BYTES);
	const shortBy = (lastRegion + 1) * REGION_BYTES - size;
	const written = dataRegions * REGION_BYTES - (size > 0 && lastDataRegion === lastRegion ? shortBy : 0);
	return { size, written };
}

/** Stored bytes of the union of chunk ranges per xorb (overlapping and repeated ranges counted once). */
function distinctSourceBytes(terms: Iterable<ShardTerm>, xorbs: ReadonlyMap<string, StoredXorb>): number {
	const ranges = new Map<string, Array<[number, number]>>();
	for (const term of terms) {
		const list = ranges.get(term.xorb) ?? [];
		list.push([term.chunkStart, term.chunkEnd]);
		ranges.set(term.xorb, list);
	}
	let total = 0;
	for (const [hash, list] of ranges) {
		const offsets = (xorbs.get(hash) as StoredXorb).chunkOffsets;
		list.sort((a, b) => a[0] - b[0]);
		let [start, end] = list[0] as [number, number];
		for (const [nextStart, nextEnd] of list.slice(1)) {
			if (nextStart <= end) end = Math.max(end, nextEnd);
			else {
				total += (offsets[end] as number) - (offsets[start] as number);
				[start, end] = [nextStart, nextEnd];
			}
		}
		total += (offsets[end] as number) - (offsets[start] as number);
	}
	return total;
}

/**
 * Checks a shard against the account's xorbs before anything is read or written: every file carries
 * its SHA-256, every term names an uploaded xorb, a chunk range it has and the size those chunks hold;
 * no file is larger than the limit, and the files to rebuild (those in `skip` are already held) write
 * at most `maxExpansion` times the distinct chunk bytes they come from, plus the allowance, and hold
 * at most `maxZeroBytes` in regions made of the `zero` chunks (src/xet/zeros.ts), which are not written.
 */
export function planRebuild(
	files: readonly ShardFile[],
	xorbs: ReadonlyMap<string, StoredXorb>,
	skip: (sha256: string) => boolean,
	limits: RebuildLimits,
	zero: ReadonlySet<string> = new Set(),
): RebuildPlan {
	const planned: PlannedFile[] = [];
	const seen = new Set<string>();
	let rebuiltBytes = 0;
	let writtenBytes = 0;
	for (const file of files) {
		const sha256 = file.sha256;
		if (!sha256) throw new XetFormatError("each file of a shard must carry its SHA-256 (metadata extension)");
		const { size, written } = fileExtent(file, xorbs, zero);
		if (size > limits.maxFileBytes) {
			throw new XetFormatError(
				`a file of the shard rebuilds into ${size} bytes, more than the limit of ${limits.maxFileBytes} bytes (MODELHUB_MAX_FILE_BYTES)`,
			);
		}
		if (skip(sha256) || seen.has(sha256)) continue;
		seen.add(sha256);
		planned.push({ file: { ...file, sha256 }, size, written });
		rebuiltBytes += size;
		writtenBytes += written;
	}
	const sourceBytes = distinctSourceBytes(
		planned.flatMap((entry) => entry.file.terms),
		xorbs,
	);
	const allowed = limits.maxExpansion * sourceBytes + limits.expansionAllowanceBytes;
	if (writtenBytes > allowed) {
		throw new XetFormatError(
			`the shard's files rebuild into ${writtenBytes} bytes from ${sourceBytes} bytes of uploaded chunks (zero regions aside): ` +
				`at most ${limits.maxExpansion} times those plus ${limits.expansionAllowanceBytes} bytes are rebuilt ` +
				"per shard (MODELHUB_XET_MAX_EXPANSION, MODELHUB_XET_ALLOWANCE_BYTES); " +
				"upload files this repetitive through LFS (HF_HUB_DISABLE_XET=1)",
		);
	}
	const zeroBytes = rebuiltBytes - writtenBytes;
	if (zeroBytes > limits.maxZeroBytes) {
		throw new XetFormatError(
			`the shard's files hold ${zeroBytes} bytes of zero regions: at most ${limits.maxZeroBytes} are rebuilt ` +
				"per shard (MODELHUB_XET_MAX_ZERO_BYTES); upload them in several commits or through LFS (HF_HUB_DISABLE_XET=1)",
		);
	}
	return { files: planned, rebuiltBytes, writtenBytes, sourceBytes };
}
