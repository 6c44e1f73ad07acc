import { describe, expect, it } from "vitest";
import { bg4Regroup, decodeChunk, parseChunkHeader, XetFormatError } from "./chunks.js";

/** Byte grouping as the Xet specification describes it: byte k of every 4-byte word into group k. */
function bg4Split(data: Uint8Array): Uint8Array {
	const groups: number[][] = [[], [], [], []];
	data.forEach((byte, index) => groups[index % 4]!.push(byte));
	return Uint8Array.from(groups.flat());
}

describe("Xet chunks", () => {
	it("undoes byte grouping for every length, remainders included", () => {
		for (let length = 0; length < 40; length++) {
			const data = Uint8Array.from({ length }, (_, i) => (i * 37 + 11) & 255);
			expect([...bg4Regroup(bg4Split(data))], String(length)).toEqual([...data]);
		}
	});

	it("reads chunk headers and refuses unknown versions, schemes, sizes", () => {
		const header = Uint8Array.from([0, 5, 0, 0, 0, 5, 0, 0]);
		expect(parseChunkHeader(header)).toEqual({ compressedSize: 5, scheme: 0, size: 5 });
		expect(decodeChunk(parseChunkHeader(header), Buffer.from("hello")).toString()).toBe("hello");
		expect(() => parseChunkHeader(Uint8Array.from([1, 5, 0, 0, 0, 5, 0, 0]))).toThrow(XetFormatError);
		expect(() => parseChunkHeader(Uint8Array.from([0, 5, 0, 0, 9, 5, 0, 0]))).toThrow(/scheme 9/);
		expect(() => parseChunkHeader(Uint8Array.from([0, 5, 0, 0, 0, 6, 0, 0]))).toThrow(/sizes differ/);
		expect(() => parseChunkHeader(Uint8Array.from([0, 0, 0, 0x20, 1, 0, 0, 0x20]))).toThrow(/larger than/);
		expect(() => decodeChunk({ compressedSize: 5, scheme: 0, size: 5 }, Buffer.from("hell"))).toThrow(
			/truncated/,
		);
	});
});
