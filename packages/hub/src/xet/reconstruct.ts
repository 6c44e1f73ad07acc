import type { BlobStore } from "../storage/types.js";
import { CHUNK_HEADER_BYTES, decodeChunk, parseChunkHeader, XetFormatError } from "./chunks.js";
import { StreamReader } from "./reader.js";
import type { ShardTerm } from "./shard.js";
import type { StoredXorb } from "./store.js";
import { MAX_XORB_BYTES } from "./xorb.js";

/**
 * Rebuilds a file from its terms: each term's chunk range is read from its xorb in storage (a range
 * read), decompressed one chunk at a time and passed on, so memory holds one chunk whatever the file's
 * size. The sizes the shard claims are checked against the chunks; the caller checks the SHA-256.
 */
export async function* reconstruct(
	storage: BlobStore,
	xorbs: ReadonlyMap<string, StoredXorb>,
	terms: readonly ShardTerm[],
): AsyncIterable<Uint8Array> {
	for (const term of terms) {
		const xorb = xorbs.get(term.xorb);
		if (!xorb) throw new XetFormatError(`xorb ${term.xorb} was not uploaded by this account`);
		if (term.chunkEnd > xorb.chunkSizes.length) {
			throw new XetFormatError(
				`xorb ${term.xorb} has ${xorb.chunkSizes.length} chunks, a term asks for chunk ${term.chunkEnd - 1}`,
			);
		}
		const expected = xorb.chunkSizes
			.slice(term.chunkStart, term.chunkEnd)
			.reduce((sum, size) => sum + size, 0);
		if (expected !== term.size)
			throw new XetFormatError(
				`a term of xorb ${term.xorb} claims ${term.size} bytes, its chunks hold ${expected}`,
			);
		const start = xorb.chunkOffsets[term.chunkStart] as number;
		const end = xorb.chunkOffsets[term.chunkEnd] as number;
		const reader = new StreamReader(
			await storage.read(xorb.blobSha256, { start, end }),
			MAX_XORB_BYTES,
			"a xorb",
		);
		for (let index = term.chunkStart; index < term.chunkEnd; index++) {
			const header = parseChunkHeader(await need(reader));
			const data = header.compressedSize === 0 ? new Uint8Array(0) : await reader.read(header.compressedSize);
			if (!data) throw new XetFormatError(`xorb ${term.xorb} is truncated`);
			const bytes = decodeChunk(header, data);
			if (bytes.length !== xorb.chunkSizes[index])
				throw new XetFormatError(`a chunk of xorb ${term.xorb} changed size`);
			yield bytes;
		}
	}
}

async function need(reader: StreamReader): Promise<Buffer> {
	const header = await reader.read(CHUNK_HEADER_BYTES);
	if (!header) throw new XetFormatError("a xorb is truncated");
	return header;
}
