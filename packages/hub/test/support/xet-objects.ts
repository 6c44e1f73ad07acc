/** Xet objects built in tests from the protocol's description (the hub's parsers are checked against them). */

/** A 32-byte hash as Xet writes it: each 8-byte group of the hex string's bytes reversed. */
export function xetBytes(hex: string): Buffer {
	const raw = Buffer.from(hex, "hex");
	const out = Buffer.alloc(32);
	for (let group = 0; group < 32; group += 8) {
		for (let i = 0; i < 8; i++) out[group + i] = raw[group + 7 - i] as number;
	}
	return out;
}

/** A xorb of uncompressed chunks (scheme 0), without xet-core's footer. */
export function xorbOf(chunks: Buffer[]): Buffer {
	return Buffer.concat(
		chunks.flatMap((chunk) => {
			const header = Buffer.alloc(8);
			header[0] = 0;
			header.writeUIntLE(chunk.length, 1, 3);
			header[4] = 0;
			header.writeUIntLE(chunk.length, 5, 3);
			return [header, chunk];
		}),
	);
}

export const SHARD_TAG = Buffer.from([
	0x48, 0x46, 0x52, 0x65, 0x70, 0x6f, 0x4d, 0x65, 0x74, 0x61, 0x44, 0x61, 0x74, 0x61, 0, 85, 105, 103, 69,
	106, 123, 129, 87, 131, 165, 189, 217, 92, 205, 209, 74, 169,
]);

export interface ShardFileSpec {
	sha256: string;
	terms: Array<{ xorb: string; size: number; start: number; end: number }>;
}

/** A shard registering one file made of the given terms (the MDB shard format, without footer). */
export function shardOf(file: ShardFileSpec): Buffer {
	return shardOfFiles([file]);
}

/** A shard registering several files, in order. */
export function shardOfFiles(files: ShardFileSpec[]): Buffer {
	const header = Buffer.alloc(48);
	SHARD_TAG.copy(header);
	header.writeBigUInt64LE(2n, 32);
	const blocks = files.flatMap((file) => {
		const fileHeader = Buffer.alloc(48);
		fileHeader.fill(7, 0, 32);
		fileHeader.writeUInt32LE(0x40000000, 32);
		fileHeader.writeUInt32LE(file.terms.length, 36);
		const terms = file.terms.map((term) => {
			const entry = Buffer.alloc(48);
			xetBytes(term.xorb).copy(entry);
			entry.writeUInt32LE(term.size, 36);
			entry.writeUInt32LE(term.start, 40);
			entry.writeUInt32LE(term.end, 44);
			return entry;
		});
		const metadata = Buffer.alloc(48);
		xetBytes(file.sha256).copy(metadata);
		return [fileHeader, ...terms, metadata];
	});
	const bookend = Buffer.alloc(48);
	bookend.fill(0xff, 0, 32);
	return Buffer.concat([header, ...blocks, bookend, bookend]);
}

/**
 * An LZ4 frame (lz4 frame format 1.6.x) of `size` bytes all equal to `byte` (at least 13): one
 * literal, one long match at offset 1 repeating it, and the five literals a block must end with.
 * About size / 255 bytes.
 */
export function lz4FrameOfByte(size: number, byte: number): Buffer {
	const match = size - 1 - 5;
	const lengthBytes: number[] = [];
	for (let rest = match - 4 - 15; ; rest -= 255) {
		if (rest < 255) {
			lengthBytes.push(rest);
			break;
		}
		lengthBytes.push(255);
	}
	const block = Buffer.from([0x1f, byte, 1, 0, ...lengthBytes, 0x50, byte, byte, byte, byte, byte]);
	const blockSize = Buffer.alloc(4);
	blockSize.writeUInt32LE(block.length);
	// Magic, FLG (version 01, independent blocks), BD (4 MiB blocks), header checksum; then the end mark.
	return Buffer.concat([
		Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x60, 0x70, 0x73]),
		blockSize,
		block,
		Buffer.alloc(4),
	]);
}

/** An LZ4 frame of `size` zero bytes (lz4FrameOfByte). */
export function lz4FrameOfZeros(size: number): Buffer {
	return lz4FrameOfByte(size, 0);
}

/** A xorb of LZ4-compressed chunks (scheme 1), each given as its uncompressed size and its frame. */
export function lz4XorbOf(chunks: Array<{ size: number; frame: Buffer }>): Buffer {
	return Buffer.concat(
		chunks.flatMap(({ size, frame }) => {
			const header = Buffer.alloc(8);
			header.writeUIntLE(frame.length, 1, 3);
			header[4] = 1;
			header.writeUIntLE(size, 5, 3);
			return [header, frame];
		}),
	);
}
