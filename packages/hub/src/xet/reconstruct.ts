import type { BlobStore } from "../storage/types.js";
import {
	CHUNK_HEADER_BYTES,
	decodeChunkInto,
	MAX_CHUNK_BYTES,
	parseChunkHeader,
	XetFormatError,
	type ChunkHeader,
} from "./chunks.js";
import type { ShardTerm } from "./shard.js";
import type { StoredXorb } from "./store.js";
import { chunkKey } from "./zeros.js";

/**
 * The rebuilt bytes go on in blocks of this size. Chunks are 64 KiB on average: handing each one on by
 * itself cost a write, an await and (with the copies of reading) three allocations per chunk, and the
 * garbage collections those allocations set off were the largest cost of a Xet upload.
 */
export const REBUILD_BLOCK_BYTES = 4 * 1024 * 1024;

/** How much of a xorb one read takes, when the store reads into reused buffers. */
const READ_BYTES = 1024 * 1024;

/**
 * The bytes of a blob from `start` to `end`: read into the two `inputs` in turn (each piece valid until
 * the one after it is asked for) when the store can, streamed otherwise. The next read is in flight
 * while the caller decodes the current piece: the disk read (the thread pool) overlaps the decoding,
 * hashing and writing (the main thread) instead of adding to them.
 */
async function* xorbBytes(
	storage: BlobStore,
	sha256: string,
	start: number,
	end: number,
	inputs: readonly [Buffer, Buffer] | undefined,
): AsyncIterable<Uint8Array> {
	if (!inputs || !storage.openReader) {
		for await (const piece of await storage.read(sha256, { start, end })) yield piece as Uint8Array;
		return;
	}
	const reader = await storage.openReader(sha256);
	const readAt = (position: number, turn: number): Promise<Uint8Array> => {
		const target = inputs[turn % 2] as Buffer;
		return reader
			.read(target.subarray(0, Math.min(target.length, end - position)), position)
			.then((count) => target.subarray(0, count));
	};
	let pending: Promise<Uint8Array> | undefined;
	try {
		let turn = 0;
		let position = start;
		pending = position < end ? readAt(position, turn) : undefined;
		while (pending) {
			const piece = await pending;
			pending = undefined;
			if (piece.length === 0) return;
			position += piece.length;
			turn++;
			if (position < end) pending = readAt(position, turn);
			yield piece;
		}
	} finally {
		// A read still in flight (the caller stopped early) finishes before the file is closed.
		if (pending) await pending.catch(() => undefined);
		await reader.close();
	}
}

/**
 * Rebuilds a file from its terms (checked beforehand by planRebuild): each term's chunk range is read
 * from its xorb in storage (a range read), and each chunk is decompressed straight into the block being
 * filled, in place where the read gave it whole. Memory holds a block, two 1 MiB read buffers and two chunk-sized buffers,
 * whatever the file's size. Chunk sizes are checked against the xorb's layout; the caller checks the
 * SHA-256. When the consumer keeps no piece it is given (`reuseBlocks`; by default when the consumer
 * is a store that retainsNoPieces, the disk store), one block is refilled: each block handed on is
 * valid until the next one is asked for. A fresh 4 MiB
 * block per handover was external memory to V8, and set off about half of an upload's full garbage
 * collections (82-92 per GiB before, 40-47 after).
 */
export async function* reconstruct(
	storage: BlobStore,
	xorbs: ReadonlyMap<string, StoredXorb>,
	terms: readonly ShardTerm[],
	zero: ReadonlySet<string> = new Set(),
	options: {
		/** Whether a block handed on may be refilled once the next is asked for (the consumer keeps none). */
		reuseBlocks?: boolean;
	} = {},
): AsyncIterable<Uint8Array> {
	const blockBytes = REBUILD_BLOCK_BYTES;
	const reuseBlocks = options.reuseBlocks ?? storage.retainsNoPieces === true;
	let block: Buffer = Buffer.allocUnsafe(blockBytes);
	/** The block to fill after one is handed on: the same one when the consumer keeps no piece it is given. */
	const nextBlock = (handedOn: Buffer): Buffer => (reuseBlocks ? handedOn : Buffer.allocUnsafe(blockBytes));
	let filled = 0;
	/** A chunk (header and data) that the reads cut in two, gathered. */
	const split = Buffer.allocUnsafe(CHUNK_HEADER_BYTES + MAX_CHUNK_BYTES);
	/** Byte-grouped chunks between LZ4 and regrouping. */
	const scratch = new Uint8Array(MAX_CHUNK_BYTES);
	/** Where xorb bytes are read to (in turn), when the store reads into the caller's buffers. */
	const inputs: readonly [Buffer, Buffer] | undefined = storage.openReader
		? [Buffer.allocUnsafe(READ_BYTES), Buffer.allocUnsafe(READ_BYTES)]
		: undefined;

	for (const term of terms) {
		const xorb = xorbs.get(term.xorb);
		if (!xorb) throw new XetFormatError(`xorb ${term.xorb} was not uploaded by this account`);
		if (term.chunkEnd > xorb.chunkSizes.length)
			throw new XetFormatError(`xorb ${term.xorb} has ${xorb.chunkSizes.length} chunks`);
		const start = xorb.chunkOffsets[term.chunkStart] as number;
		const end = xorb.chunkOffsets[term.chunkEnd] as number;
		let index = term.chunkStart;
		let received = 0;
		let gathered = 0;
		let header: ChunkHeader | undefined;

		/** Makes room for the chunk, then decodes it into the block (a full block is handed on first). */
		const place = (chunk: ChunkHeader, data: Uint8Array): boolean => {
			if (index >= term.chunkEnd || chunk.size !== xorb.chunkSizes[index])
				throw new XetFormatError(`a chunk of xorb ${term.xorb} changed size`);
			if (filled + chunk.size > blockBytes) return false;
			// A chunk known to hold only zeros (src/xet/zeros.ts) is filled, not decoded: LZ4 decoding
			// a run of zeros byte by byte cost more than hashing it.
			if (zero.size > 0 && zero.has(chunkKey(term.xorb, index))) {
				if (data.length !== chunk.compressedSize) throw new XetFormatError("truncated chunk");
				block.fill(0, filled, filled + chunk.size);
			} else decodeChunkInto(chunk, data, block, filled, scratch);
			filled += chunk.size;
			index++;
			return true;
		};

		for await (const piece of xorbBytes(storage, xorb.blobSha256, start, end, inputs)) {
			received += piece.length;
			if (received > end - start) throw new XetFormatError(`xorb ${term.xorb} is longer than recorded`);
			let at = 0;
			while (at < piece.length) {
				if (gathered === 0 && piece.length - at >= CHUNK_HEADER_BYTES) {
					// The usual case: the whole chunk is in this read, decoded from where it lies.
					const whole = parseChunkHeader(piece, at);
					const total = CHUNK_HEADER_BYTES + whole.compressedSize;
					if (piece.length - at >= total) {
						const data = piece.subarray(at + CHUNK_HEADER_BYTES, at + total);
						if (!place(whole, data)) {
							yield block.subarray(0, filled);
							block = nextBlock(block);
							filled = 0;
							place(whole, data);
						}
						at += total;
						continue;
					}
				}
				// A chunk cut by the end of this read: gathered in `split`, header first.
				if (gathered < CHUNK_HEADER_BYTES) {
					const take = Math.min(CHUNK_HEADER_BYTES - gathered, piece.length - at);
					split.set(piece.subarray(at, at + take), gathered);
					gathered += take;
					at += take;
					if (gathered < CHUNK_HEADER_BYTES) continue;
					header = parseChunkHeader(split, 0);
				}
				const chunk = header as ChunkHeader;
				const total = CHUNK_HEADER_BYTES + chunk.compressedSize;
				const take = Math.min(total - gathered, piece.length - at);
				split.set(piece.subarray(at, at + take), gathered);
				gathered += take;
				at += take;
				if (gathered === total) {
					const data = split.subarray(CHUNK_HEADER_BYTES, total);
					if (!place(chunk, data)) {
						yield block.subarray(0, filled);
						block = nextBlock(block);
						filled = 0;
						place(chunk, data);
					}
					gathered = 0;
				}
			}
		}
		if (gathered !== 0 || index !== term.chunkEnd || received !== end - start)
			throw new XetFormatError(`xorb ${term.xorb} is truncated`);
	}
	if (filled > 0) yield block.subarray(0, filled);
}
