import { HubError } from "../errors.js";
import { lz4FrameDecompress, lz4FrameDecompressInto } from "./lz4.js";

/**
 * Xet chunks as xorbs hold them: an 8-byte header (version 0, compressed size as 3 bytes LE, the
 * compression scheme, uncompressed size as 3 bytes LE), then the compressed bytes. Schemes: 0 none,
 * 1 LZ4 (frame format), 2 "byte grouping 4" then LZ4 (bytes regrouped by their position in 4-byte
 * words, which compresses floating-point weights better).
 */
export const CHUNK_HEADER_BYTES = 8;
/** A chunk holds at most 128 KiB (Xet's chunking bound); a little slack for other writers. */
export const MAX_CHUNK_BYTES = 1024 * 1024;

/** Xet data (chunk, xorb, shard) that is not well formed. */
export class XetFormatError extends HubError {
	override name = "XetFormatError";
	constructor(message: string) {
		super("Invalid", message);
	}
}

export interface ChunkHeader {
	compressedSize: number;
	scheme: number;
	size: number;
}

export function parseChunkHeader(bytes: Uint8Array, at = 0): ChunkHeader {
	if (bytes[at] !== 0) throw new XetFormatError(`unknown chunk header version ${bytes[at]}`);
	const compressedSize =
		(bytes[at + 1] as number) | ((bytes[at + 2] as number) << 8) | ((bytes[at + 3] as number) << 16);
	const scheme = bytes[at + 4] as number;
	const size =
		(bytes[at + 5] as number) | ((bytes[at + 6] as number) << 8) | ((bytes[at + 7] as number) << 16);
	if (scheme > 2) throw new XetFormatError(`unknown chunk compression scheme ${scheme}`);
	if (size > MAX_CHUNK_BYTES || compressedSize > MAX_CHUNK_BYTES) {
		throw new XetFormatError(`a chunk is larger than ${MAX_CHUNK_BYTES} bytes`);
	}
	if (scheme === 0 && compressedSize !== size) {
		throw new XetFormatError("an uncompressed chunk's two sizes differ");
	}
	return { compressedSize, scheme, size };
}

/** Undoes byte grouping: group g holds byte g of every 4-byte word, the first groups one more when the length is not a multiple of 4. */
export function bg4Regroup(
	grouped: Uint8Array,
	out: Uint8Array = new Uint8Array(grouped.length),
	at = 0,
): Uint8Array {
	const n = grouped.length;
	const split = Math.floor(n / 4);
	const rem = n % 4;
	const starts = [0, 0, 0, 0];
	for (let g = 1; g < 4; g++) starts[g] = (starts[g - 1] as number) + split + (g - 1 < rem ? 1 : 0);
	const [s0, s1, s2, s3] = starts as [number, number, number, number];
	for (let i = 0; i < split; i++) {
		const o = at + 4 * i;
		out[o] = grouped[s0 + i] as number;
		out[o + 1] = grouped[s1 + i] as number;
		out[o + 2] = grouped[s2 + i] as number;
		out[o + 3] = grouped[s3 + i] as number;
	}
	for (let g = 0; g < rem; g++) out[at + 4 * split + g] = grouped[(starts[g] as number) + split] as number;
	return out;
}

/** The uncompressed bytes of one chunk's data. */
export function decodeChunk(header: ChunkHeader, data: Uint8Array): Uint8Array {
	if (data.length !== header.compressedSize) throw new XetFormatError("truncated chunk");
	switch (header.scheme) {
		case 0:
			return data;
		case 1:
			return lz4FrameDecompress(data, header.size);
		default:
			return bg4Regroup(lz4FrameDecompress(data, header.size));
	}
}

/**
 * Decodes one chunk's data into `out` at `at` (header.size bytes). `scratch` (at least header.size
 * bytes) holds byte-grouped data between its two steps.
 */
export function decodeChunkInto(
	header: ChunkHeader,
	data: Uint8Array,
	out: Uint8Array,
	at: number,
	scratch: Uint8Array,
): void {
	if (data.length !== header.compressedSize) throw new XetFormatError("truncated chunk");
	switch (header.scheme) {
		case 0:
			out.set(data, at);
			return;
		case 1:
			lz4FrameDecompressInto(data, out, at, header.size);
			return;
		default: {
			const grouped = scratch.subarray(0, header.size);
			lz4FrameDecompressInto(data, grouped, 0, header.size);
			bg4Regroup(grouped, out, at);
		}
	}
}
