import { CHUNK_HEADER_BYTES, parseChunkHeader, XetFormatError } from "./chunks.js";

/** The largest serialized xorb accepted (64 MiB of chunks, the protocol's bound, and its footer). */
export const MAX_XORB_BYTES = 80 * 1024 * 1024;
const MAX_FOOTER_BYTES = 16 * 1024 * 1024;
const FOOTER_IDENT = Buffer.from("XETBLOB", "latin1");

export interface XorbLayout {
	/** Where each chunk starts (its header), then where the last one ends: numChunks + 1 entries. */
	chunkOffsets: number[];
	/** The uncompressed size of each chunk. */
	chunkSizes: number[];
	/** How many chunks use each compression scheme (none, LZ4, byte-grouped LZ4). */
	schemes: [number, number, number];
}

/**
 * Follows a xorb as it streams in (to storage, at the same time): its chunks one header at a time, then
 * xet-core's footer ("XETBLOB", chunk hashes and boundaries, its length in the last 4 bytes), which is
 * checked to describe as many chunks as were found. Holds a header's 8 bytes and the footer only.
 */
export class XorbScanner {
	private offset = 0;
	/** Bytes of the current chunk's data still to skip. */
	private skip = 0;
	private header: number[] = [];
	private footer: Buffer[] | undefined;
	private footerBytes = 0;
	private readonly layout: XorbLayout = { chunkOffsets: [], chunkSizes: [], schemes: [0, 0, 0] };

	update(bytes: Uint8Array): void {
		let at = 0;
		while (at < bytes.length) {
			if (this.footer) {
				const rest = bytes.subarray(at);
				this.footerBytes += rest.length;
				if (this.footerBytes > MAX_FOOTER_BYTES) throw new XetFormatError("the xorb footer is too large");
				this.footer.push(Buffer.from(rest));
				this.offset += rest.length;
				return;
			}
			if (this.skip > 0) {
				const take = Math.min(this.skip, bytes.length - at);
				this.skip -= take;
				at += take;
				this.offset += take;
				continue;
			}
			if (this.header.length === 0 && bytes[at] !== 0) {
				// Not a chunk (its version byte would be 0): xet-core's footer begins.
				this.footer = [];
				continue;
			}
			this.header.push(bytes[at] as number);
			at++;
			this.offset++;
			if (this.header.length === CHUNK_HEADER_BYTES) {
				const parsed = parseChunkHeader(Uint8Array.from(this.header));
				this.layout.chunkOffsets.push(this.offset - CHUNK_HEADER_BYTES);
				this.layout.chunkSizes.push(parsed.size);
				this.layout.schemes[parsed.scheme as 0 | 1 | 2]++;
				this.skip = parsed.compressedSize;
				this.header = [];
			}
		}
	}

	finish(): XorbLayout {
		if (this.skip > 0 || this.header.length > 0)
			throw new XetFormatError("the xorb ends in the middle of a chunk");
		const chunksEnd = this.offset - this.footerBytes;
		if (this.layout.chunkSizes.length === 0) throw new XetFormatError("the xorb holds no chunk");
		if (this.footer) {
			const footer = Buffer.concat(this.footer);
			if (footer.length < 12 || !footer.subarray(0, 7).equals(FOOTER_IDENT)) {
				throw new XetFormatError(
					"the xorb's data is followed by something that is neither a chunk nor its footer",
				);
			}
			const infoLength = footer.readUInt32LE(footer.length - 4);
			if (infoLength !== footer.length - 4)
				throw new XetFormatError("the xorb footer's length does not match");
			// Footer version 1 ends with: chunk count, two section offsets, a 16-byte reserved area, length.
			if (footer[7] === 1 && footer.length >= 36) {
				const count = footer.readUInt32LE(footer.length - 4 - 16 - 12);
				if (count !== this.layout.chunkSizes.length) {
					throw new XetFormatError(
						`the xorb footer lists ${count} chunks, the xorb holds ${this.layout.chunkSizes.length}`,
					);
				}
			}
		}
		this.layout.chunkOffsets.push(chunksEnd);
		return this.layout;
	}
}

/** Little-endian u32s, as the database keeps a xorb's offsets and sizes. */
export function packU32(values: readonly number[]): Buffer {
	const out = Buffer.alloc(values.length * 4);
	values.forEach((value, index) => out.writeUInt32LE(value, index * 4));
	return out;
}

export function unpackU32(bytes: Uint8Array): number[] {
	const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const out: number[] = [];
	for (let at = 0; at + 4 <= buffer.length; at += 4) out.push(buffer.readUInt32LE(at));
	return out;
}
