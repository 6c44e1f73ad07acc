import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileWriter, REGION_BYTES } from "./file-writer.js";

const dir = mkdtempSync(join(tmpdir(), "modelhub-file-writer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `pieces` through a FileWriter, refilling one buffer per piece as a rebuild does. */
async function writeAll(name: string, pieces: Uint8Array[]): Promise<string> {
	const path = join(dir, name);
	const file = await open(path, "wx");
	const writer = new FileWriter(file);
	try {
		const reused = Buffer.alloc(Math.max(...pieces.map((piece) => piece.length)));
		for (const piece of pieces) {
			reused.set(piece);
			await writer.write(reused.subarray(0, piece.length));
			// The writer is done with the piece: spoiling it now changes nothing written.
			reused.fill(0xee, 0, piece.length);
		}
		await writer.end();
	} finally {
		await writer.release();
		await file.close();
	}
	return path;
}

describe("FileWriter", () => {
	it("writes pieces of every size in order, small ones gathered, large ones by whole regions", async () => {
		const sizes = [1, 65_536, REGION_BYTES - 3, 5 * REGION_BYTES + 17, 100, 2 * REGION_BYTES, 12_345];
		const pieces = sizes.map((size) => randomBytes(size));
		const path = await writeAll("mixed.bin", pieces);
		expect(readFileSync(path).equals(Buffer.concat(pieces))).toBe(true);
	});

	it("leaves all-zero regions as holes (the end included) and writes regions holding any data", async () => {
		const data = randomBytes(REGION_BYTES / 2);
		const zeros = Buffer.alloc(8 * REGION_BYTES);
		// Data in region 0, zeros to the end of region 8 and a short zero tail: only region 0 written.
		const pieces = [data, zeros, Buffer.alloc(1000)];
		const path = await writeAll("sparse.bin", pieces);
		const content = readFileSync(path);
		expect(content.length).toBe(data.length + zeros.length + 1000);
		expect(content.equals(Buffer.concat(pieces))).toBe(true);
		expect(statSync(path).blocks * 512).toBeLessThanOrEqual(REGION_BYTES + 64 * 1024);
		// A region with one non-zero byte is written whole.
		const one = Buffer.alloc(3 * REGION_BYTES);
		one[REGION_BYTES + 5] = 1;
		const written = await writeAll("one-byte.bin", [one]);
		expect(readFileSync(written).equals(one)).toBe(true);
		expect(statSync(written).blocks * 512).toBeGreaterThanOrEqual(REGION_BYTES);
		expect(statSync(written).blocks * 512).toBeLessThan(2 * REGION_BYTES);
	});
});
