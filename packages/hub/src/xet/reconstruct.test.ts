import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lz4FrameOfZeros, lz4XorbOf, xorbOf } from "../../test/support/xet-objects.js";
import { openBlobStore } from "../storage/open.js";
import type { BlobStore } from "../storage/types.js";
import { reconstruct, REBUILD_BLOCK_BYTES } from "./reconstruct.js";
import type { StoredXorb } from "./store.js";
import { XorbScanner } from "./xorb.js";

let storage: BlobStore;
beforeAll(async () => {
	storage = await openBlobStore({ kind: "disk", dir: undefined });
});
afterAll(async () => {
	await storage?.close();
});

async function stored(xorb: Buffer): Promise<StoredXorb> {
	const scanner = new XorbScanner();
	scanner.update(xorb);
	const layout = scanner.finish();
	const blob = await storage.put([xorb].values() as unknown as AsyncIterable<Uint8Array>);
	return { blobSha256: blob.sha256, chunkOffsets: layout.chunkOffsets, chunkSizes: layout.chunkSizes };
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
	const out: Uint8Array[] = [];
	// A copy of each: with the disk store, the rebuild refills one block (BlobStore.retainsNoPieces).
	for await (const piece of source) out.push(Buffer.from(piece));
	return out;
}

describe("rebuilding a file from xorbs", () => {
	it("decodes chunks cut across reads and across blocks, LZ4 and plain, in the terms' order", async () => {
		// 50,001-byte chunks straddle the store's 64 KiB reads; 120 of them fill more than one block.
		const plain = Array.from({ length: 120 }, () => randomBytes(50_001));
		const a = await stored(xorbOf(plain));
		const zeros = 100_000;
		const b = await stored(lz4XorbOf([{ size: zeros, frame: lz4FrameOfZeros(zeros) }]));
		const xorbs = new Map([
			["a", a],
			["b", b],
		]);
		const terms = [
			{ xorb: "a", chunkStart: 3, chunkEnd: 120, size: 117 * 50_001 },
			{ xorb: "b", chunkStart: 0, chunkEnd: 1, size: zeros },
			{ xorb: "a", chunkStart: 0, chunkEnd: 3, size: 3 * 50_001 },
		];
		// Read into a reused buffer (the disk store) and streamed (a store without openReader, as S3).
		for (const store of [storage, { ...storage, openReader: undefined }]) {
			const pieces = await collect(reconstruct(store, xorbs, terms));
			expect(pieces.length).toBe(2);
			expect(pieces[0]?.length).toBeLessThanOrEqual(REBUILD_BLOCK_BYTES);
			expect(
				Buffer.concat(pieces).equals(
					Buffer.concat([...plain.slice(3), Buffer.alloc(zeros), ...plain.slice(0, 3)]),
				),
			).toBe(true);
		}
	});

	it("rebuilds into the disk store through one reused block, every block's bytes intact", async () => {
		// Three blocks and a bit, small enough (under 10 MiB) that the git object id is computed too.
		const chunks = Array.from({ length: 150 }, () => randomBytes(60_000));
		const a = await stored(xorbOf(chunks));
		const expected = Buffer.concat(chunks);
		const terms = [{ xorb: "a", chunkStart: 0, chunkEnd: 150, size: expected.length }];
		const seen = new Set<ArrayBufferLike>();
		async function* noted(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
			for await (const piece of source) {
				seen.add(piece.buffer);
				yield piece;
			}
		}
		expect(storage.retainsNoPieces).toBe(true);
		const blob = await storage.put(noted(reconstruct(storage, new Map([["a", a]]), terms)));
		expect(seen.size).toBe(1);
		expect(blob.sha256).toBe(createHash("sha256").update(expected).digest("hex"));
		expect(blob.gitOid).toBe(
			createHash("sha1").update(`blob ${expected.length}\0`).update(expected).digest("hex"),
		);
	});

	it("refuses a xorb whose stored chunks differ from its recorded layout", async () => {
		const a = await stored(xorbOf([randomBytes(1000), randomBytes(1000)]));
		const lying = { ...a, chunkSizes: [1000, 999] };
		await expect(
			collect(
				reconstruct(storage, new Map([["a", lying]]), [
					{ xorb: "a", chunkStart: 0, chunkEnd: 2, size: 1999 },
				]),
			),
		).rejects.toThrow(/changed size/);
		const short = { ...a, chunkOffsets: [0, 1008, 2010] };
		await expect(
			collect(
				reconstruct(storage, new Map([["a", short]]), [
					{ xorb: "a", chunkStart: 0, chunkEnd: 2, size: 2000 },
				]),
			),
		).rejects.toThrow(/truncated/);
	});
});
