import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lz4FrameOfByte, lz4FrameOfZeros, lz4XorbOf, xorbOf } from "../../test/support/xet-objects.js";
import { openBlobStore } from "../storage/open.js";
import type { BlobReader, BlobStore } from "../storage/types.js";
import type { RecipeTerm, XorbLayouts } from "./files.js";
import { recipeBytes, SERVE_READ_BYTES } from "./serve.js";
import { XorbScanner } from "./xorb.js";

let storage: BlobStore;
beforeAll(async () => {
	storage = await openBlobStore({ kind: "disk", dir: undefined });
});
afterAll(async () => {
	await storage?.close();
});

/** Stores a xorb; its blob's SHA-256 and its layout as an upload records it. */
async function stored(
	xorb: Buffer,
): Promise<{ sha256: string; layout: { chunkOffsets: number[]; chunkSizes: number[] } }> {
	const scanner = new XorbScanner();
	scanner.update(xorb);
	const { chunkOffsets, chunkSizes } = scanner.finish();
	const blob = await storage.put([xorb].values() as unknown as AsyncIterable<Uint8Array>);
	return { sha256: blob.sha256, layout: { chunkOffsets, chunkSizes } };
}

/** A xorb of one byte-grouped LZ4 chunk (scheme 2) of `size` bytes all equal to `byte`. */
function groupedXorbOf(size: number, byte: number): Buffer {
	const xorb = lz4XorbOf([{ size, frame: lz4FrameOfByte(size, byte) }]);
	xorb[4] = 2;
	return xorb;
}

/** A file of three terms: uncompressed chunks (two runs of one xorb), LZ4 zeros and a byte-grouped chunk. */
async function threeXorbFile(): Promise<{ terms: RecipeTerm[]; layouts: XorbLayouts; expected: Buffer }> {
	// 40 chunks of 10-100 KB: groups of several chunks, a group boundary inside most reads.
	const plain = Array.from({ length: 40 }, (_, n) => randomBytes(10_000 + ((n * 37_013) % 90_000)));
	const a = await stored(xorbOf(plain));
	const zeros = 100_000;
	const b = await stored(lz4XorbOf([{ size: zeros, frame: lz4FrameOfZeros(zeros) }]));
	const c = await stored(groupedXorbOf(70_000, 9));
	const layouts = new Map([a, b, c].map((x) => [x.sha256, x.layout]));
	const parts: Array<[typeof a, number, number, Buffer]> = [
		[a, 3, 40, Buffer.concat(plain.slice(3))],
		[b, 0, 1, Buffer.alloc(zeros)],
		[c, 0, 1, Buffer.alloc(70_000, 9)],
		[a, 0, 3, Buffer.concat(plain.slice(0, 3))],
	];
	let fileOffset = 0;
	const terms = parts.map(([x, chunkStart, chunkEnd, bytes]) => {
		const term = { fileOffset, size: bytes.length, xorbSha256: x.sha256, chunkStart, chunkEnd };
		fileOffset += bytes.length;
		return term;
	});
	return { terms, layouts, expected: Buffer.concat(parts.map((part) => part[3])) };
}

/** recipeBytes over the terms that hold bytes of the range (as recipeTerms selects them), concatenated. */
async function read(
	store: BlobStore,
	file: { terms: RecipeTerm[]; layouts: XorbLayouts },
	start: number,
	end: number,
): Promise<{ bytes: Buffer; pieces: Uint8Array[] }> {
	const terms = file.terms.filter((term) => term.fileOffset + term.size > start && term.fileOffset < end);
	const pieces: Uint8Array[] = [];
	// No copy: each piece handed on must stay intact (the response may keep it until it is written).
	for await (const piece of recipeBytes(store, terms, file.layouts, start, end)) pieces.push(piece);
	return { bytes: Buffer.concat(pieces), pieces };
}

/** The disk store, noting the size of each positioned read and how many files are open at once. */
function watched(): { store: BlobStore; reads: number[]; open: () => number; mostOpen: () => number } {
	const reads: number[] = [];
	let open = 0;
	let mostOpen = 0;
	const store: BlobStore = {
		...storage,
		async openReader(sha256: string): Promise<BlobReader> {
			const reader = await (storage.openReader as (sha256: string) => Promise<BlobReader>)(sha256);
			open++;
			mostOpen = Math.max(mostOpen, open);
			return {
				read: (target, position) => {
					reads.push(target.length);
					return reader.read(target, position);
				},
				close: async () => {
					open--;
					await reader.close();
				},
			};
		},
	};
	return { store, reads, open: () => open, mostOpen: () => mostOpen };
}

describe("serving a file from its recipe", () => {
	it("answers whole files and ranges (group and term boundaries, every compression scheme) from both kinds of store", async () => {
		const file = await threeXorbFile();
		const size = file.expected.length;
		const ranges: Array<[number, number]> = [
			[0, size],
			[1, size - 1],
			[0, 1],
			[size - 1, size],
			[200_000, 200_001],
			[123_457, 1_900_000],
		];
		// Around each term's start (a term boundary) and inside the byte-grouped chunk.
		for (const term of file.terms.slice(1)) ranges.push([term.fileOffset - 3, term.fileOffset + 5]);
		ranges.push([file.terms[2]!.fileOffset + 10, file.terms[2]!.fileOffset + 20]);
		for (const store of [storage, { ...storage, openReader: undefined }]) {
			for (const [start, end] of ranges) {
				const { bytes } = await read(store, file, start, end);
				expect(bytes.equals(file.expected.subarray(start, end)), `${start}-${end}`).toBe(true);
			}
		}
	});

	it("reads at most SERVE_READ_BYTES at a time, one file open, and hands on pieces it never refills", async () => {
		const file = await threeXorbFile();
		const { store, reads, open, mostOpen } = watched();
		const { bytes, pieces } = await read(store, file, 0, file.expected.length);
		expect(bytes.equals(file.expected)).toBe(true);
		// Before, every read filled one of two 1 MiB buffers (and a 1 MiB block per piece handed on).
		expect(Math.max(...reads)).toBeLessThanOrEqual(SERVE_READ_BYTES);
		expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(SERVE_READ_BYTES);
		expect(reads.length).toBeGreaterThan(file.expected.length / SERVE_READ_BYTES);
		expect(mostOpen()).toBe(1);
		expect(open()).toBe(0);
	});

	it("closes its file when the response stops early", async () => {
		const file = await threeXorbFile();
		const { store, open } = watched();
		for await (const piece of recipeBytes(store, file.terms, file.layouts, 0, file.expected.length)) {
			expect(piece.length).toBeGreaterThan(0);
			break;
		}
		expect(open()).toBe(0);
	});

	it("refuses a xorb whose stored chunks differ from its recorded layout", async () => {
		const a = await stored(xorbOf([randomBytes(1000), randomBytes(1000)]));
		const terms = [{ fileOffset: 0, size: 2000, xorbSha256: a.sha256, chunkStart: 0, chunkEnd: 2 }];
		for (const store of [storage, { ...storage, openReader: undefined }]) {
			const lying = new Map([[a.sha256, { ...a.layout, chunkSizes: [1000, 999] }]]);
			await expect(read(store, { terms, layouts: lying }, 0, 1999)).rejects.toThrow(/changed size/);
			const long = new Map([[a.sha256, { ...a.layout, chunkOffsets: [0, 1008, 2020] }]]);
			await expect(read(store, { terms, layouts: long }, 0, 2000)).rejects.toThrow(/truncated|changed size/);
		}
	});
});
