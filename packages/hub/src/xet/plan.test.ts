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
const limits = { maxFileBytes: 1_000_000, maxExpansion: 10, expansionAllowanceBytes: 0, maxZeroBytes: 0 };
const MIB = 1024 * 1024;

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

	it("does not count regions made only of zero chunks as written; bounds them by maxZeroBytes", () => {
		// Chunk 0 of "z" is 512 KiB of zeros stored in 600 bytes (src/xet/zeros.ts found it zero).
		const zeroXorb: StoredXorb = {
			blobSha256: "1".repeat(64),
			chunkOffsets: [0, 600],
			chunkSizes: [MIB / 2],
		};
		const both = new Map([...xorbs, ["z", zeroXorb]]);
		const zero = new Set(["z:0"]);
		const zeros = (count: number) =>
			Array.from({ length: count }, () => ({ xorb: "z", chunkStart: 0, chunkEnd: 1, size: MIB / 2 }));
		// 1,000 bytes of data, then 4 MiB of zeros: region 0 holds data, regions 1-4 only zeros.
		const mixed: ShardFile = {
			fileHash: "m",
			sha256: "m",
			terms: [{ xorb: "x", chunkStart: 0, chunkEnd: 1, size: 1000 }, ...zeros(8)],
		};
		const roomy = {
			...limits,
			maxFileBytes: 64 * MIB,
			maxZeroBytes: 8 * MIB,
			expansionAllowanceBytes: 2 * MIB,
		};
		const plan = planRebuild([mixed], both, () => false, roomy, zero);
		expect(plan.rebuiltBytes).toBe(4 * MIB + 1000);
		expect(plan.writtenBytes).toBe(MIB);
		expect(plan.files[0]?.written).toBe(MIB);
		// Without knowing the chunk is zeros, the same file is refused as too repetitive.
		expect(() => planRebuild([mixed], both, () => false, roomy)).toThrow(/MODELHUB_XET_MAX_EXPANSION/);
		// Zero regions beyond maxZeroBytes are refused before anything is read.
		expect(() => planRebuild([mixed], both, () => false, { ...roomy, maxZeroBytes: 2 * MIB }, zero)).toThrow(
			/3146728 bytes of zero regions: at most 2097152 .*MODELHUB_XET_MAX_ZERO_BYTES/,
		);
		// A file of zeros only writes nothing; one ending inside a region writes that region's bytes.
		const onlyZeros: ShardFile = { fileHash: "z", sha256: "z", terms: zeros(3) };
		expect(planRebuild([onlyZeros], both, () => false, roomy, zero).writtenBytes).toBe(0);
		const tail: ShardFile = { ...mixed, sha256: "t", terms: [...zeros(2), mixed.terms[0]!] };
		expect(planRebuild([tail], both, () => false, roomy, zero).writtenBytes).toBe(1000);
	});
});
