import { XetFormatError } from "./chunks.js";
import type { ShardFile, ShardTerm } from "./shard.js";
import type { StoredXorb } from "./store.js";

/**
 * How much a shard may make the hub write. A shard's terms may name the same chunks again and again
 * (a term is a chunk range of a xorb, and nothing stops a file from repeating one): 48 bytes of shard
 * can ask for a 64 KiB chunk, and an LZ4 chunk of zeros is about 1/255 of its size. So the bytes a
 * shard's files rebuild into are bounded by the bytes of the distinct chunks they are built from.
 */
export interface RebuildLimits {
	/** Largest file rebuilt (MODELHUB_MAX_FILE_BYTES). */
	maxFileBytes: number;
	/** Rebuilt bytes allowed per byte of distinct uploaded chunk data they come from (MODELHUB_XET_MAX_EXPANSION). */
	maxExpansion: number;
	/** Rebuilt bytes a shard may have beyond that ratio (MODELHUB_XET_ALLOWANCE_BYTES). */
	expansionAllowanceBytes: number;
}

export interface PlannedFile {
	file: ShardFile & { sha256: string };
	/** The size the file rebuilds into, as its terms add up (checked against the xorbs' chunk sizes). */
	size: number;
}

export interface RebuildPlan {
	files: PlannedFile[];
	/** The bytes the plan writes: the sum of its files' sizes (the figure a storage quota checks). */
	rebuiltBytes: number;
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
 * no file is larger than the limit, and the files to rebuild (those in `skip` are already held) add up
 * to at most `maxExpansion` times the distinct chunk bytes they come from, plus the allowance.
 */
export function planRebuild(
	files: readonly ShardFile[],
	xorbs: ReadonlyMap<string, StoredXorb>,
	skip: (sha256: string) => boolean,
	limits: RebuildLimits,
): RebuildPlan {
	const planned: PlannedFile[] = [];
	const seen = new Set<string>();
	let rebuiltBytes = 0;
	for (const file of files) {
		const sha256 = file.sha256;
		if (!sha256) throw new XetFormatError("each file of a shard must carry its SHA-256 (metadata extension)");
		let size = 0;
		for (const term of file.terms) size += termSize(term, xorbs.get(term.xorb));
		if (size > limits.maxFileBytes) {
			throw new XetFormatError(
				`a file of the shard rebuilds into ${size} bytes, more than the limit of ${limits.maxFileBytes} bytes (MODELHUB_MAX_FILE_BYTES)`,
			);
		}
		if (skip(sha256) || seen.has(sha256)) continue;
		seen.add(sha256);
		planned.push({ file: { ...file, sha256 }, size });
		rebuiltBytes += size;
	}
	const sourceBytes = distinctSourceBytes(
		planned.flatMap((entry) => entry.file.terms),
		xorbs,
	);
	const allowed = limits.maxExpansion * sourceBytes + limits.expansionAllowanceBytes;
	if (rebuiltBytes > allowed) {
		throw new XetFormatError(
			`the shard's files rebuild into ${rebuiltBytes} bytes from ${sourceBytes} bytes of uploaded chunks: ` +
				`at most ${limits.maxExpansion} times those plus ${limits.expansionAllowanceBytes} bytes are rebuilt ` +
				"per shard (MODELHUB_XET_MAX_EXPANSION, MODELHUB_XET_ALLOWANCE_BYTES); " +
				"upload files this repetitive through LFS (HF_HUB_DISABLE_XET=1)",
		);
	}
	return { files: planned, rebuiltBytes, sourceBytes };
}
