import { HubError } from "../errors.js";

/**
 * LZ4 frame decompression (the frame format of lz4 1.9 and of lz4_flex, which xet-core compresses
 * chunks with). Decodes into a preallocated buffer of the size the caller expects (a Xet chunk header
 * gives it), so a hostile frame can neither grow memory nor write past it. Checksums are not
 * verified: the whole file's SHA-256 is, after it is rebuilt.
 */
export class Lz4Error extends HubError {
	override name = "Lz4Error";
	constructor(message: string) {
		super("Invalid", message);
	}
}

const FRAME_MAGIC = 0x184d2204;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;

function fail(message: string): never {
	throw new Lz4Error(`invalid LZ4 data: ${message}`);
}

/**
 * Decodes one LZ4 block into `out` at `outPos`, never writing at or past `outEnd` nor reading before
 * `outStart` (the frame's first byte); returns the new output position.
 */
function decodeBlock(
	input: Uint8Array,
	start: number,
	end: number,
	out: Uint8Array,
	outPos: number,
	outStart: number,
	outEnd: number,
): number {
	let ip = start;
	let op = outPos;
	while (ip < end) {
		const token = input[ip++] as number;
		let literals = token >>> 4;
		if (literals === 15) {
			let byte: number;
			do {
				if (ip >= end) fail("truncated literal length");
				byte = input[ip++] as number;
				literals += byte;
			} while (byte === 255);
		}
		if (ip + literals > end) fail("literals run past the block");
		if (op + literals > outEnd) fail("output is larger than announced");
		out.set(input.subarray(ip, ip + literals), op);
		ip += literals;
		op += literals;
		// The last sequence of a block has literals only.
		if (ip >= end) break;
		if (ip + 2 > end) fail("truncated match offset");
		const offset = (input[ip] as number) | ((input[ip + 1] as number) << 8);
		ip += 2;
		if (offset === 0 || offset > op - outStart) fail("match offset out of range");
		let length = (token & 15) + 4;
		if ((token & 15) === 15) {
			let byte: number;
			do {
				if (ip >= end) fail("truncated match length");
				byte = input[ip++] as number;
				length += byte;
			} while (byte === 255);
		}
		if (op + length > outEnd) fail("output is larger than announced");
		let from = op - offset;
		if (offset >= length) {
			out.copyWithin(op, from, from + length);
			op += length;
		} else {
			// Overlapping match: a repeating pattern, copied byte by byte.
			for (let i = 0; i < length; i++) out[op++] = out[from++] as number;
		}
	}
	return op;
}

function u32(input: Uint8Array, at: number): number {
	if (at + 4 > input.length) fail("truncated");
	return (
		((input[at] as number) |
			((input[at + 1] as number) << 8) |
			((input[at + 2] as number) << 16) |
			((input[at + 3] as number) << 24)) >>>
		0
	);
}

/**
 * Decompresses one or more concatenated LZ4 frames whose content is exactly `size` bytes. Blocks may
 * be linked (a match may reach into earlier blocks): they decode into one buffer.
 */
export function lz4FrameDecompress(input: Uint8Array, size: number): Uint8Array {
	const out = new Uint8Array(size);
	lz4FrameDecompressInto(input, out, 0, size);
	return out;
}

/** Decompresses frames whose content is exactly `size` bytes into `out` at `at` (no allocation). */
export function lz4FrameDecompressInto(input: Uint8Array, out: Uint8Array, at: number, size: number): void {
	if (at + size > out.length) throw new RangeError("the output buffer is too small");
	const outEnd = at + size;
	let op = at;
	let ip = 0;
	while (ip < input.length) {
		const magic = u32(input, ip);
		if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
			ip += 8 + u32(input, ip + 4);
			continue;
		}
		if (magic !== FRAME_MAGIC) fail("not an LZ4 frame");
		ip += 4;
		if (ip + 2 > input.length) fail("truncated frame header");
		const flags = input[ip] as number;
		if (flags >>> 6 !== 1) fail("unsupported frame version");
		const blockChecksum = (flags & 0x10) !== 0;
		const contentSize = (flags & 0x08) !== 0;
		const contentChecksum = (flags & 0x04) !== 0;
		const dictionary = (flags & 0x01) !== 0;
		if (dictionary) fail("dictionaries are not supported");
		ip += 2 + (contentSize ? 8 : 0) + 1; // FLG, BD, content size, header checksum
		for (;;) {
			const word = u32(input, ip);
			ip += 4;
			if (word === 0) break;
			const length = word & 0x7fffffff;
			if (ip + length > input.length) fail("block runs past the frame");
			if (word & 0x80000000) {
				if (op + length > outEnd) fail("output is larger than announced");
				out.set(input.subarray(ip, ip + length), op);
				op += length;
			} else {
				op = decodeBlock(input, ip, ip + length, out, op, at, outEnd);
			}
			ip += length + (blockChecksum ? 4 : 0);
		}
		ip += contentChecksum ? 4 : 0;
	}
	if (op !== outEnd) fail(`decompressed to ${op - at} bytes, ${size} were announced`);
}
