import { describe, expect, it } from "vitest";
import { planRebuild } from "./plan.js";
import type { ShardFile } from "./shard.js";
import type { StoredXorb } from "./store.js";

// One xorb of four chunks: 100 stored bytes each, 1,000 bytes each once decompressed.
const xorb: StoredXorb = {
	blobSha256: "0".repeat(64),
	chunkOffsets: [0, 100, 200, 300, 400],
	chunkSizes: [1000, 1000, 1000, 1000],
};
const xorbs = new Map([["x", xorb]]);
const limits = { maxFileBytes: 1_000_000, maxExpansion: 10, expansionAllowanceBytes: 0 };

function file(sha256: string, ranges: Array<[number, number]>): ShardFile {
	return {
		fileHash: sha256,
		sha256,
		terms: ranges.map(([chunkStart, chunkEnd]) => ({
			xorb: "x",
			chunkStart,
			chunkEnd,
			size: (chunkEnd - chunkStart) * 1000,
		})),
	};
}

describe("planning a shard's rebuild", () => {
	it("counts overlapping and repeated chunk ranges once as their source, every time as rebuilt bytes", () => {
		const plan = planRebuild(
			[
				file("a", [
					[0, 2],
					[1, 3],
					[0, 1],
				]),
				file("b", [[3, 4]]),
			],
			xorbs,
			() => false,
			{ ...limits, maxExpansion: 15 },
		);
		expect(plan.rebuiltBytes).toBe(6000);
		expect(plan.sourceBytes).toBe(400);
		expect(plan.files.map((entry) => entry.size)).toEqual([5000, 1000]);
	});

	it("leaves held files and repeated SHA-256s out, and refuses past the ratio plus the allowance", () => {
		const held = planRebuild([file("a", [[0, 1]]), file("a", [[0, 1]])], xorbs, (sha) => sha === "b", limits);
		expect(held.files.length).toBe(1);
		const tooMuch = file(
			"c",
			Array.from({ length: 11 }, () => [0, 1] as [number, number]),
		);
		expect(() => planRebuild([tooMuch], xorbs, () => false, limits)).toThrow(/11000 bytes from 100 bytes/);
		expect(() => planRebuild([tooMuch], xorbs, () => true, limits)).not.toThrow();
		expect(() =>
			planRebuild([tooMuch], xorbs, () => false, { ...limits, expansionAllowanceBytes: 10_000 }),
		).not.toThrow();
	});
});
