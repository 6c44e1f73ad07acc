import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, get, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lz4FrameOfByte, lz4FrameOfZeros, lz4XorbOf, xorbOf } from "../../test/support/xet-objects.js";
import { openBlobStore } from "../storage/open.js";
import type { BlobReader, BlobStore } from "../storage/types.js";
import type { RecipeTerm, XorbLayouts } from "./files.js";
import { recipeBytes, RecipeStream, SERVE_POOL_BUFFERS, SERVE_READ_BYTES } from "./serve.js";
import { XorbScanner } from "./xorb.js";

let storage: BlobStore;
/** A real HTTP server on 127.0.0.1 answering each request with `answer` (set by each test). */
let server: Server;
let answer: (res: ServerResponse) => void = (res) => res.end();
beforeAll(async () => {
	storage = await openBlobStore({ kind: "disk", dir: undefined });
	server = createServer((_req, res) => answer(res));
	server.listen(0, "127.0.0.1");
	await once(server, "listening");
});
afterAll(async () => {
	server?.close();
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

type StoredXorb = Awaited<ReturnType<typeof stored>>;

/**
 * A file made of `parts` in order, each chunks `chunkStart` ≤ index < `chunkEnd` of a stored xorb with the
 * bytes they decode to: its recipe's terms, the xorbs' layouts and the file's bytes.
 */
function fileOf(
	parts: ReadonlyArray<[StoredXorb, number, number, Buffer]>,
	layouts: XorbLayouts,
): { terms: RecipeTerm[]; layouts: XorbLayouts; expected: Buffer } {
	let fileOffset = 0;
	const terms = parts.map(([x, chunkStart, chunkEnd, bytes]) => {
		const term = { fileOffset, size: bytes.length, xorbSha256: x.sha256, chunkStart, chunkEnd };
		fileOffset += bytes.length;
		return term;
	});
	return { terms, layouts, expected: Buffer.concat(parts.map((part) => part[3])) };
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
	const parts: Array<[StoredXorb, number, number, Buffer]> = [
		[a, 3, 40, Buffer.concat(plain.slice(3))],
		[b, 0, 1, Buffer.alloc(zeros)],
		[c, 0, 1, Buffer.alloc(70_000, 9)],
		[a, 0, 3, Buffer.concat(plain.slice(0, 3))],
	];
	return fileOf(parts, layouts);
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

/** The disk store, noting each positioned read (its size, its buffer) and how many files are open at once. */
function watched(): {
	store: BlobStore;
	reads: number[];
	buffers: Set<ArrayBufferLike>;
	open: () => number;
	mostOpen: () => number;
} {
	const reads: number[] = [];
	const buffers = new Set<ArrayBufferLike>();
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
					buffers.add(target.buffer);
					return reader.read(target, position);
				},
				close: async () => {
					open--;
					await reader.close();
				},
			};
		},
	};
	return { store, reads, buffers, open: () => open, mostOpen: () => mostOpen };
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

/**
 * A file larger than the buffers a download keeps (SERVE_POOL_BUFFERS × SERVE_READ_BYTES): uncompressed
 * chunks of 8-128 KiB over two xorbs, then a xorb mixing uncompressed, LZ4 and byte-grouped chunks and
 * ending with 30 LZ4 chunks of 120,000 bytes stored in a few hundred bytes each (3.6 MB decoded from
 * about 10 KB stored), then a run of the first xorb again.
 */
async function largeFile(): Promise<{ terms: RecipeTerm[]; layouts: XorbLayouts; expected: Buffer }> {
	const sizes = (count: number, seed: number): number[] =>
		Array.from({ length: count }, (_, n) => 8 * 1024 + ((n * 48_271 + seed * 7_919) % (120 * 1024)));
	const plainA = sizes(60, 1).map((size) => randomBytes(size));
	const plainB = sizes(50, 2).map((size) => randomBytes(size));
	const a = await stored(xorbOf(plainA));
	const b = await stored(xorbOf(plainB));
	const m1 = randomBytes(50_000);
	const m2 = randomBytes(90_000);
	const runs = Array.from({ length: 30 }, () => ({ size: 120_000, frame: lz4FrameOfByte(120_000, 5) }));
	const c = await stored(
		Buffer.concat([
			xorbOf([m1]),
			lz4XorbOf([{ size: 100_000, frame: lz4FrameOfZeros(100_000) }]),
			xorbOf([m2]),
			groupedXorbOf(70_000, 9),
			lz4XorbOf(runs),
		]),
	);
	const mixed = Buffer.concat([
		m1,
		Buffer.alloc(100_000),
		m2,
		Buffer.alloc(70_000, 9),
		Buffer.alloc(30 * 120_000, 5),
	]);
	const layouts = new Map([a, b, c].map((x) => [x.sha256, x.layout]));
	const parts: Array<[StoredXorb, number, number, Buffer]> = [
		[a, 0, 60, Buffer.concat(plainA)],
		[b, 0, 50, Buffer.concat(plainB)],
		[c, 0, 34, mixed],
		[a, 10, 20, Buffer.concat(plainA.slice(10, 20))],
	];
	return fileOf(parts, layouts);
}

/**
 * The range `start` ≤ byte < `end` of a file as a RecipeStream piped to a real HTTP response (as Fastify
 * sends a stream), read by a client; `slow` reads one piece at a time with a pause after each (the socket
 * fills up and the server waits for drains); `stopAfter` destroys the request after that many bytes.
 * The bytes received and the server's stream.
 */
async function overHttp(
	store: BlobStore,
	file: { terms: RecipeTerm[]; layouts: XorbLayouts },
	start: number,
	end: number,
	options: { slow?: boolean; stopAfter?: number } = {},
): Promise<{ bytes: Buffer; stream: RecipeStream }> {
	const terms = file.terms.filter((term) => term.fileOffset + term.size > start && term.fileOffset < end);
	const stream = new RecipeStream(store, terms, file.layouts, start, end);
	answer = (res) => {
		res.writeHead(200, { "content-length": String(end - start) });
		stream.pipe(res);
	};
	const { port } = server.address() as AddressInfo;
	const bytes = await new Promise<Buffer>((resolve, reject) => {
		const request = get(`http://127.0.0.1:${port}/`, (res) => {
			const pieces: Buffer[] = [];
			let received = 0;
			res.on("data", (piece: Buffer) => {
				pieces.push(piece);
				received += piece.length;
				if (options.stopAfter !== undefined && received >= options.stopAfter) {
					request.destroy();
					resolve(Buffer.concat(pieces));
				} else if (options.slow) {
					res.pause();
					setTimeout(() => res.resume(), 1);
				}
			});
			res.on("end", () => resolve(Buffer.concat(pieces)));
			res.on("error", reject);
		});
		request.on("error", (error) => (options.stopAfter === undefined ? reject(error) : undefined));
	});
	return { bytes, stream };
}

describe("serving a file to an HTTP response from reused buffers", () => {
	it("answers whole files and ranges (mid-chunk starts and ends, chunk, group, term and xorb boundaries, mixed schemes) from a few buffers", async () => {
		const file = await largeFile();
		const size = file.expected.length;
		const [, second, third, fourth] = file.terms as [RecipeTerm, RecipeTerm, RecipeTerm, RecipeTerm];
		const ranges: Array<[number, number]> = [
			[0, size],
			[0, 1],
			[size - 1, size],
			// Starting and ending inside uncompressed chunks of one xorb, over many groups.
			[12_345, 3_456_789],
			// Across the first xorb's end into the second's (a term and xorb boundary), ending mid-chunk.
			[second.fileOffset - 70_001, second.fileOffset + 99_999],
			// The mixed xorb: an uncompressed chunk into an LZ4 one, an LZ4 one into an uncompressed one.
			[third.fileOffset + 49_990, third.fileOffset + 50_010],
			[third.fileOffset + 149_995, third.fileOffset + 150_007],
			// Inside the byte-grouped chunk, and from it into the compressible run.
			[third.fileOffset + 240_100, third.fileOffset + 240_200],
			[third.fileOffset + 300_000, third.fileOffset + 1_000_001],
			// From the compressible run (one stored group, several decoded ones) into the first xorb again.
			[fourth.fileOffset - 1_300_000, fourth.fileOffset + 1],
			[fourth.fileOffset + 1, size - 1],
		];
		for (const [start, end] of ranges) {
			const { store, buffers, reads, open, mostOpen } = watched();
			const { bytes, stream } = await overHttp(store, file, start, end);
			expect(bytes.equals(file.expected.subarray(start, end)), `${start}-${end}`).toBe(true);
			if (!stream.closed) await once(stream, "close");
			expect(open()).toBe(0);
			expect(mostOpen()).toBe(1);
			// Every read went into one of the pool's buffers, read into again and again.
			expect(buffers.size).toBeLessThanOrEqual(SERVE_POOL_BUFFERS);
			if (end - start > SERVE_POOL_BUFFERS * SERVE_READ_BYTES)
				expect(reads.length).toBeGreaterThan(SERVE_POOL_BUFFERS);
		}
		// A store without positioned reads (S3) is piped as any stream.
		for (const [start, end] of ranges) {
			const { bytes } = await overHttp({ ...storage, openReader: undefined }, file, start, end);
			expect(bytes.equals(file.expected.subarray(start, end)), `${start}-${end}`).toBe(true);
		}
	});

	it("keeps every byte when the client reads slowly: a buffer is read into again only once the socket has sent it", async () => {
		const file = await largeFile();
		const { store, buffers, reads } = watched();
		const { bytes } = await overHttp(store, file, 3, file.expected.length - 3, { slow: true });
		expect(bytes.equals(file.expected.subarray(3, file.expected.length - 3))).toBe(true);
		expect(buffers.size).toBeLessThanOrEqual(SERVE_POOL_BUFFERS);
		expect(reads.length).toBeGreaterThan(3 * SERVE_POOL_BUFFERS);
	});

	it("stops reading and closes its file when the client goes away", async () => {
		const file = await largeFile();
		const { store, reads, open } = watched();
		const { bytes, stream } = await overHttp(store, file, 0, file.expected.length, {
			slow: true,
			stopAfter: 100_000,
		});
		expect(bytes.equals(file.expected.subarray(0, bytes.length))).toBe(true);
		if (!stream.closed) await once(stream, "close");
		expect(stream.destroyed).toBe(true);
		expect(open()).toBe(0);
		expect(reads.length * SERVE_READ_BYTES).toBeLessThan(file.expected.length);
	});

	it("read as any stream (or piped to anything but an HTTP response), hands on buffers of its own, at most SERVE_READ_BYTES decoded each", async () => {
		const file = await largeFile();
		const size = file.expected.length;
		const pieces: Buffer[] = [];
		for await (const piece of new RecipeStream(storage, file.terms, file.layouts, 0, size))
			pieces.push(piece as Buffer);
		expect(Buffer.concat(pieces).equals(file.expected)).toBe(true);
		expect(new Set(pieces.map((piece) => piece.buffer)).size).toBe(pieces.length);
		// 30 compressible chunks stored in ~10 KB decode to 3.6 MB: more than one group.
		expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(SERVE_READ_BYTES);
		const { pieces: generated } = await read(storage, file, 0, size);
		expect(Math.max(...generated.map((piece) => piece.length))).toBeLessThanOrEqual(SERVE_READ_BYTES);

		const through = new PassThrough();
		new RecipeStream(storage, file.terms, file.layouts, 1, size - 1).pipe(through);
		const piped: Buffer[] = [];
		for await (const piece of through) piped.push(piece as Buffer);
		expect(Buffer.concat(piped).equals(file.expected.subarray(1, size - 1))).toBe(true);
	});
});
