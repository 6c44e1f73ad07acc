import type { BlobStore } from "../storage/types.js";
import { XetFormatError } from "./chunks.js";
import type { RecipeTerm, XorbLayouts } from "./files.js";
import { reconstruct } from "./reconstruct.js";
import type { ShardTerm } from "./shard.js";
import type { StoredXorb } from "./store.js";

/**
 * A download's bytes are decoded in blocks of this size (a chunk is at most MAX_CHUNK_BYTES, 1 MiB): each
 * block is handed to the response as it is, so a download holds a few of them, whatever the file's size.
 */
const SERVE_BLOCK_BYTES = 1024 * 1024;

/**
 * The bytes `start` ≤ byte < `end` of a file kept as its recipe (src/xet/files.ts), given the terms that
 * cover them (recipeTerms): the chunks are read from their xorbs and decoded a block at a time, starting
 * at the chunk that holds `start` (a range read seeks, it does not decode what comes before) and ending
 * with the one that holds `end - 1`.
 */
export async function* recipeBytes(
	storage: BlobStore,
	terms: readonly RecipeTerm[],
	layouts: XorbLayouts,
	start: number,
	end: number,
): AsyncIterable<Uint8Array> {
	if (end <= start || terms.length === 0) return;
	const xorbs = new Map<string, StoredXorb>();
	const shardTerms: ShardTerm[] = [];
	/** Bytes of the first chunk read that come before `start`. */
	let skip = 0;
	for (const [index, term] of terms.entries()) {
		const layout = layouts.get(term.xorbSha256);
		if (!layout || term.chunkEnd > layout.chunkSizes.length)
			throw new XetFormatError(`the layout of xorb ${term.xorbSha256} is not recorded`);
		xorbs.set(term.xorbSha256, { blobSha256: term.xorbSha256, ...layout });
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
		let size = 0;
		// Stops after the chunk holding `end - 1`.
		while (chunkEnd < term.chunkEnd && position < end) {
			const chunkSize = layout.chunkSizes[chunkEnd] as number;
			position += chunkSize;
			size += chunkSize;
			chunkEnd++;
		}
		shardTerms.push({ xorb: term.xorbSha256, chunkStart, chunkEnd, size });
		if (position >= end) break;
	}
	let left = end - start;
	for await (const block of reconstruct(storage, xorbs, shardTerms, undefined, {
		blockBytes: SERVE_BLOCK_BYTES,
		reuseBlocks: false,
	})) {
		let piece = block;
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
