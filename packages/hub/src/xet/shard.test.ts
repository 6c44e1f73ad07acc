import { describe, expect, it } from "vitest";
import { shardOf, SHARD_TAG } from "../../test/support/xet-objects.js";
import { readShard } from "./shard.js";

async function* pieces(bytes: Buffer, size: number): AsyncIterable<Uint8Array> {
	for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

describe("shard reading", () => {
	const sha = "0123456789abcdef".repeat(4);
	const xorb = "fedcba9876543210".repeat(4);
	const shard = shardOf({
		sha256: sha,
		terms: [
			{ xorb, size: 100, start: 0, end: 3 },
			{ xorb, size: 50, start: 5, end: 6 },
		],
	});

	it("reads the files, their terms and SHA-256 (hashes in Xet's string form), from pieces of any size", async () => {
		for (const size of [1, 7, 48, 1000]) {
			const files = await readShard(pieces(shard, size));
			expect(files).toEqual([
				{
					fileHash: "0707070707070707".repeat(4),
					sha256: sha,
					terms: [
						{ xorb, size: 100, chunkStart: 0, chunkEnd: 3 },
						{ xorb, size: 50, chunkStart: 5, chunkEnd: 6 },
					],
				},
			]);
		}
	});

	it("refuses other files, other versions, truncated shards and empty chunk ranges", async () => {
		await expect(readShard(pieces(Buffer.alloc(100), 10))).rejects.toThrow(/wrong header tag/);
		const v3 = Buffer.from(shard);
		v3.writeBigUInt64LE(3n, 32);
		await expect(readShard(pieces(v3, 64))).rejects.toThrow(/unsupported shard version 3/);
		await expect(readShard(pieces(shard.subarray(0, 120), 64))).rejects.toThrow(/truncated|ends before/);
		await expect(readShard(pieces(SHARD_TAG, 64))).rejects.toThrow(/truncated|ends before/);
		const empty = shardOf({ sha256: sha, terms: [{ xorb, size: 0, start: 2, end: 2 }] });
		await expect(readShard(pieces(empty, 64))).rejects.toThrow(/empty chunk range/);
	});
});
