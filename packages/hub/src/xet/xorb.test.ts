import { describe, expect, it } from "vitest";
import { XorbScanner } from "./xorb.js";

function chunk(data: Buffer, scheme = 0): Buffer {
	const header = Buffer.alloc(8);
	header.writeUIntLE(data.length, 1, 3);
	header[4] = scheme;
	header.writeUIntLE(scheme === 0 ? data.length : data.length * 2, 5, 3);
	return Buffer.concat([header, data]);
}

/** xet-core's footer, version 1, for `count` chunks (hashes and offsets zeroed: only its frame is read). */
function footer(count: number): Buffer {
	const body = Buffer.concat([
		Buffer.from("XETBLOB"),
		Buffer.from([1]),
		Buffer.alloc(32),
		Buffer.from("XBLBHSH"),
		Buffer.from([0]),
		Buffer.alloc(4 + 32 * count),
		Buffer.from("XBLBBND"),
		Buffer.from([1]),
		Buffer.alloc(4 + 8 * count),
	]);
	const toes = Buffer.alloc(12 + 16);
	toes.writeUInt32LE(count, 0);
	const info = Buffer.concat([body, toes]);
	const length = Buffer.alloc(4);
	length.writeUInt32LE(info.length);
	return Buffer.concat([info, length]);
}

function scan(parts: Buffer[]) {
	const scanner = new XorbScanner();
	for (const part of parts) scanner.update(part);
	return scanner.finish();
}

describe("xorb scanning", () => {
	const chunks = [
		chunk(Buffer.from("first chunk")),
		chunk(Buffer.from("xx"), 1),
		chunk(Buffer.from("third")),
	];
	const xorb = Buffer.concat([...chunks, footer(3)]);

	it("finds each chunk's offset and size, whatever the pieces the bytes arrive in", () => {
		const expected = {
			chunkOffsets: [0, 19, 29, 42],
			chunkSizes: [11, 4, 5],
			schemes: [2, 1, 0],
		};
		expect(scan([xorb])).toEqual(expected);
		expect(scan([...xorb].map((byte) => Buffer.from([byte])))).toEqual(expected);
		expect(scan([xorb.subarray(0, 3), xorb.subarray(3, 25), xorb.subarray(25)])).toEqual(expected);
		expect(scan([Buffer.concat(chunks)])).toEqual(expected);
	});

	it("refuses truncated xorbs, empty ones, and footers that do not describe the chunks", () => {
		expect(() => scan([xorb.subarray(0, 15)])).toThrow(/middle of a chunk/);
		expect(() => scan([])).toThrow(/holds no chunk/);
		expect(() => scan([Buffer.concat([...chunks, footer(2)])])).toThrow(/lists 2 chunks/);
		expect(() => scan([Buffer.concat([...chunks, Buffer.from("garbage!")])])).toThrow(
			/neither a chunk nor its footer/,
		);
		const badLength = Buffer.concat([...chunks, footer(3)]);
		badLength.writeUInt32LE(1, badLength.length - 4);
		expect(() => scan([badLength])).toThrow(/length does not match/);
	});
});
