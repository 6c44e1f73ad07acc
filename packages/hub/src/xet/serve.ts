import type { BlobReader, BlobStore } from "../storage/types.js";
import {
	CHUNK_HEADER_BYTES,
	type ChunkHeader,
	decodeChunkInto,
	parseChunkHeader,
	XetFormatError,
} from "./chunks.js";
import type { RecipeTerm, XorbLayouts } from "./files.js";

/**
 * A download reads its xorbs a group of whole chunks at a time, about this many stored bytes (a chunk
 * larger than that is a group by itself): chunks are never cut by a read, so no chunk is gathered from
 * two reads, and a download holds about three groups (one read ahead, one decoded, one the response is
 * writing), whatever the file's size. It held ~5 MiB before (a 1 MiB block, two 1 MiB read buffers, a
 * 1 MiB buffer for cut chunks and a 1 MiB scratch buffer), allocated for every download. 256 KiB groups
 * cost about half as much CPU again per byte here (a read and a write per group); 1 MiB saved little more.
 */
export const SERVE_READ_BYTES = 512 * 1024;

/** decodeChunkInto's scratch for chunks that need none (all but byte-grouped ones). */
const NO_SCRATCH = new Uint8Array(0);

/** A run of whole chunks of one xorb to read and decode: chunks `first` ≤ index < `last`. */
interface ChunkGroup {
	xorbSha256: string;
	layout: { chunkOffsets: number[]; chunkSizes: number[] };
	first: number;
	last: number;
}

/** The groups of a term's chunks `first` ≤ index < `last`, each at most SERVE_READ_BYTES stored bytes. */
function* groupsOf(
	xorbSha256: string,
	layout: ChunkGroup["layout"],
	first: number,
	last: number,
): Iterable<ChunkGroup> {
	const offsets = layout.chunkOffsets;
	for (let start = first; start < last;) {
		let end = start + 1;
		while (end < last && (offsets[end + 1] as number) - (offsets[start] as number) <= SERVE_READ_BYTES) end++;
		yield { xorbSha256, layout, first: start, last: end };
		start = end;
	}
}

/** The stored bytes of a group, from `offsets[first]` to `offsets[last]` of its xorb. */
function storedSpan(group: ChunkGroup): { start: number; end: number } {
	return {
		start: group.layout.chunkOffsets[group.first] as number,
		end: group.layout.chunkOffsets[group.last] as number,
	};
}

/**
 * Each group's stored bytes, in a buffer of its own (handed on, never refilled). With positioned reads
 * (the disk store) the next group's read is in flight while the caller decodes and sends this one; one
 * reader stays open while consecutive groups come from the same xorb. Otherwise (S3) each term's chunk
 * range is one ranged read, cut into the groups as it streams.
 */
async function* groupBytes(
	storage: BlobStore,
	groups: Iterable<ChunkGroup>,
): AsyncIterable<{ group: ChunkGroup; bytes: Buffer }> {
	if (!storage.openReader) {
		yield* streamedGroupBytes(storage, groups);
		return;
	}
	const openReader = storage.openReader.bind(storage);
	let open: { sha256: string; reader: BlobReader } | undefined;
	const readGroup = async (group: ChunkGroup): Promise<{ group: ChunkGroup; bytes: Buffer }> => {
		if (open?.sha256 !== group.xorbSha256) {
			// The previous group's read has finished: only one read is in flight at a time.
			const previous = open;
			open = undefined;
			await previous?.reader.close();
			open = { sha256: group.xorbSha256, reader: await openReader(group.xorbSha256) };
		}
		const { start, end } = storedSpan(group);
		const bytes = Buffer.allocUnsafe(end - start);
		const count = await open.reader.read(bytes, start);
		if (count !== bytes.length) throw new XetFormatError(`xorb ${group.xorbSha256} is truncated`);
		return { group, bytes };
	};
	const iterator = groups[Symbol.iterator]();
	let pending: Promise<{ group: ChunkGroup; bytes: Buffer }> | undefined;
	const next = (): Promise<{ group: ChunkGroup; bytes: Buffer }> | undefined => {
		const step = iterator.next();
		if (step.done) return undefined;
		const read = readGroup(step.value);
		// Awaited below or in `finally`; never an unhandled rejection meanwhile.
		read.catch(() => undefined);
		return read;
	};
	try {
		pending = next();
		while (pending) {
			const current = await pending;
			pending = next();
			yield current;
		}
	} finally {
		// A read still in flight (the response stopped early) finishes before its file is closed.
		if (pending) await pending.catch(() => undefined);
		await open?.reader.close();
	}
}

/** groupBytes for stores without positioned reads: a term's groups cut from one ranged read. */
async function* streamedGroupBytes(
	storage: BlobStore,
	groups: Iterable<ChunkGroup>,
): AsyncIterable<{ group: ChunkGroup; bytes: Buffer }> {
	/** Groups of the same xorb whose stored bytes follow each other, read as one range. */
	let run: ChunkGroup[] = [];
	async function* readRun(): AsyncIterable<{ group: ChunkGroup; bytes: Buffer }> {
		const first = run[0] as ChunkGroup;
		const last = run[run.length - 1] as ChunkGroup;
		const range = { start: storedSpan(first).start, end: storedSpan(last).end };
		let index = 0;
		let span = storedSpan(first);
		let bytes = Buffer.allocUnsafe(span.end - span.start);
		let filled = 0;
		for await (const piece of await storage.read(first.xorbSha256, range)) {
			let data = piece as Buffer;
			while (data.length > 0) {
				if (index >= run.length) throw new XetFormatError(`xorb ${first.xorbSha256} is longer than recorded`);
				const take = Math.min(bytes.length - filled, data.length);
				data.copy(bytes, filled, 0, take);
				filled += take;
				data = data.subarray(take);
				if (filled === bytes.length) {
					yield { group: run[index] as ChunkGroup, bytes };
					index++;
					if (index < run.length) {
						span = storedSpan(run[index] as ChunkGroup);
						bytes = Buffer.allocUnsafe(span.end - span.start);
						filled = 0;
					}
				}
			}
		}
		if (index < run.length) throw new XetFormatError(`xorb ${first.xorbSha256} is truncated`);
	}
	for (const group of groups) {
		const previous = run[run.length - 1];
		if (previous && (previous.xorbSha256 !== group.xorbSha256 || previous.last !== group.first)) {
			yield* readRun();
			run = [];
		}
		run.push(group);
	}
	if (run.length > 0) yield* readRun();
}

/**
 * A group's chunks decoded: checked against the xorb's recorded layout (each header's sizes), then,
 * when all are stored uncompressed (what hf_xet does with incompressible data such as most weights),
 * moved together in place over their headers, with no second buffer; else decoded into a buffer of
 * their size.
 */
function decodeGroup(group: ChunkGroup, bytes: Buffer): Buffer {
	const { chunkOffsets, chunkSizes } = group.layout;
	const base = chunkOffsets[group.first] as number;
	const headers: ChunkHeader[] = [];
	let size = 0;
	let compressed = false;
	for (let index = group.first; index < group.last; index++) {
		const at = (chunkOffsets[index] as number) - base;
		const header = parseChunkHeader(bytes, at);
		if (
			header.size !== chunkSizes[index] ||
			CHUNK_HEADER_BYTES + header.compressedSize !== (chunkOffsets[index + 1] as number) - base - at
		)
			throw new XetFormatError(`a chunk of xorb ${group.xorbSha256} changed size`);
		headers.push(header);
		size += header.size;
		if (header.scheme !== 0) compressed = true;
	}
	const out = compressed ? Buffer.allocUnsafe(size) : bytes;
	/** Byte-grouped chunks between LZ4 and regrouping, made when one is met. */
	let scratch = NO_SCRATCH;
	let written = 0;
	for (const [n, header] of headers.entries()) {
		const at = (chunkOffsets[group.first + n] as number) - base + CHUNK_HEADER_BYTES;
		if (header.scheme === 0) {
			// In place, over the headers before it, when the whole group is uncompressed.
			if (compressed) bytes.copy(out, written, at, at + header.size);
			else bytes.copyWithin(written, at, at + header.size);
		} else {
			if (header.scheme === 2 && scratch.length < header.size) scratch = new Uint8Array(header.size);
			decodeChunkInto(header, bytes.subarray(at, at + header.compressedSize), out, written, scratch);
		}
		written += header.size;
	}
	return out.subarray(0, written);
}

/**
 * The bytes `start` ≤ byte < `end` of a file kept as its recipe (src/xet/files.ts), given the terms that
 * cover them (recipeTerms): the chunks are read from their xorbs a group at a time (SERVE_READ_BYTES)
 * and decoded, starting at the chunk that holds `start` (a range read seeks, it does not decode what
 * comes before) and ending with the one that holds `end - 1`. Each piece handed on is a buffer of its
 * own: the response may keep it until it is written.
 */
export async function* recipeBytes(
	storage: BlobStore,
	terms: readonly RecipeTerm[],
	layouts: XorbLayouts,
	start: number,
	end: number,
): AsyncIterable<Uint8Array> {
	if (end <= start || terms.length === 0) return;
	/** Bytes of the first chunk read that come before `start`. */
	let skip = 0;
	function* groups(): Iterable<ChunkGroup> {
		for (const [index, term] of terms.entries()) {
			const layout = layouts.get(term.xorbSha256);
			if (!layout || term.chunkEnd > layout.chunkSizes.length)
				throw new XetFormatError(`the layout of xorb ${term.xorbSha256} is not recorded`);
			let chunkStart = term.chunkStart;
			let position = term.fileOffset;
			if (index === 0) {
				// Seeks to the chunk holding `start`.
				while (
					chunkStart < term.chunkEnd - 1 &&
					position + (layout.chunkSizes[chunkStart] as number) <= start
				) {
					position += layout.chunkSizes[chunkStart] as number;
					chunkStart++;
				}
				skip = Math.max(0, start - position);
			}
			let chunkEnd = chunkStart;
			// Stops after the chunk holding `end - 1`.
			while (chunkEnd < term.chunkEnd && position < end) {
				position += layout.chunkSizes[chunkEnd] as number;
				chunkEnd++;
			}
			yield* groupsOf(term.xorbSha256, layout, chunkStart, chunkEnd);
			if (position >= end) return;
		}
	}
	let left = end - start;
	for await (const { group, bytes } of groupBytes(storage, groups())) {
		let piece = decodeGroup(group, bytes);
		if (skip > 0) {
			const dropped = Math.min(skip, piece.length);
			piece = piece.subarray(dropped);
			skip -= dropped;
		}
		if (piece.length > left) piece = piece.subarray(0, left);
		if (piece.length > 0) {
			left -= piece.length;
			yield piece;
		}
		if (left === 0) return;
	}
	if (left > 0) throw new XetFormatError("a file's recipe holds fewer bytes than its size");
}
