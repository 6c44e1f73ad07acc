import type { BlobStore } from "../storage/types.js";
import { CHUNK_HEADER_BYTES, decodeChunk, MAX_CHUNK_BYTES, parseChunkHeader } from "./chunks.js";
import type { ShardFile } from "./shard.js";
import type { StoredXorb } from "./store.js";

/**
 * A chunk compressing less than this many times is not examined: it cannot be all zeros (LZ4 shrinks
 * a 64-128 KiB chunk of zeros about 250 times, and hf_xet keeps the smaller of a chunk's encodings).
 */
const ZERO_CANDIDATE_RATIO = 16;

/**
 * Chunk bytes a shard's check may decode looking for chunks of zeros (a few tens of milliseconds),
 * each chunk counted as at least 4 KiB (so at most 16,384 reads). A zero-filled file repeats one or
 * two distinct chunks; chunks beyond this are taken for data.
 */
export const MAX_ZERO_PROBE_BYTES = 64 * 1024 * 1024;

const ZEROS = Buffer.alloc(MAX_CHUNK_BYTES);

/** How a chunk of a xorb is named in the set of zero chunks. */
export function chunkKey(xorb: string, index: number): string {
	return `${xorb}:${index}`;
}

async function readRange(storage: BlobStore, sha256: string, start: number, end: number): Promise<Buffer> {
	const pieces: Buffer[] = [];
	for await (const piece of await storage.read(sha256, { start, end })) pieces.push(piece as Buffer);
	return Buffer.concat(pieces);
}

/**
 * The chunks of the shard's files that hold only zeros (as chunkKey): each distinct chunk that
 * compresses well enough to be one is read and decoded once, within MAX_ZERO_PROBE_BYTES. Terms that
 * do not fit their xorb are left for planRebuild to refuse. The rebuild writes no zero region
 * (storage/file-writer.ts), so these bytes cost hashing, not disk (src/xet/plan.ts).
 */
export async function zeroChunks(
	storage: BlobStore,
	files: readonly ShardFile[],
	xorbs: ReadonlyMap<string, StoredXorb>,
): Promise<Set<string>> {
	const zero = new Set<string>();
	const examined = new Set<string>();
	let probed = 0;
	for (const file of files) {
		for (const term of file.terms) {
			const xorb = xorbs.get(term.xorb);
			if (!xorb) continue;
			const last = Math.min(term.chunkEnd, xorb.chunkSizes.length);
			for (let index = term.chunkStart; index < last; index++) {
				const size = xorb.chunkSizes[index] as number;
				const start = xorb.chunkOffsets[index] as number;
				const end = xorb.chunkOffsets[index + 1] as number;
				if (size < ZERO_CANDIDATE_RATIO * (end - start - CHUNK_HEADER_BYTES)) continue;
				const key = chunkKey(term.xorb, index);
				if (examined.has(key)) continue;
				probed += Math.max(size, 4096);
				if (probed > MAX_ZERO_PROBE_BYTES) return zero;
				examined.add(key);
				const bytes = await readRange(storage, xorb.blobSha256, start, end);
				try {
					const header = parseChunkHeader(bytes, 0);
					if (header.size !== size) continue;
					const data = decodeChunk(header, bytes.subarray(CHUNK_HEADER_BYTES));
					if (Buffer.from(data.buffer, data.byteOffset, data.byteLength).equals(ZEROS.subarray(0, size)))
						zero.add(key);
				} catch {
					// Not a well-formed chunk: taken for data; the rebuild refuses it with its reason.
				}
			}
		}
	}
	return zero;
}
