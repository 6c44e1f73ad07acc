import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { HubError } from "../errors.js";
import { Spool, type SpoolFile } from "./spool.js";

function fileOf(bytes: Buffer): SpoolFile & { bytes: Buffer } {
	return { sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length, bytes };
}

const streamed = (files: Array<SpoolFile & { bytes: Buffer }>) => ({
	read: async (file: SpoolFile) =>
		Readable.from([files.find((item) => item.sha256 === file.sha256)?.bytes ?? Buffer.alloc(0)]),
});

describe("the viewer's local copies", () => {
	const opened: Spool[] = [];
	afterEach(async () => {
		for (const spool of opened.splice(0)) await spool.close();
	});

	it("copies a file once, links a local one, and refuses bytes that are not the entry's", async () => {
		const spool = await Spool.open(undefined, 1024);
		opened.push(spool);
		const a = fileOf(Buffer.from("first file"));
		const reads: string[] = [];
		const source = { read: async (file: SpoolFile) => (reads.push(file.sha256), Readable.from([a.bytes])) };
		const first = await spool.acquire([a], source);
		const again = await spool.acquire([a], source);
		expect(first.paths).toEqual(again.paths);
		expect(readFileSync(first.paths[0] ?? "", "utf8")).toBe("first file");
		expect(reads).toHaveLength(1);
		first.release();
		again.release();

		const dir = mkdtempSync(join(tmpdir(), "modelhub-spool-test-"));
		try {
			const b = fileOf(Buffer.from("stored as a file"));
			writeFileSync(join(dir, "b"), b.bytes);
			const linked = await spool.acquire([b], {
				read: () => Promise.reject(new Error("not read")),
				localFile: () => join(dir, "b"),
			});
			expect(readFileSync(linked.paths[0] ?? "", "utf8")).toBe("stored as a file");
			linked.release();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}

		const lying = { ...fileOf(Buffer.from("short")), size: 50 };
		await expect(spool.acquire([lying], streamed([lying]))).rejects.toThrow(/has 5 bytes, not 50/);
	});

	it("keeps within its budget: drops unused copies first, refuses when copies in use leave no room", async () => {
		const spool = await Spool.open(undefined, 100);
		opened.push(spool);
		const files = [fileOf(Buffer.alloc(60, 1)), fileOf(Buffer.alloc(60, 2)), fileOf(Buffer.alloc(200, 3))];
		const source = streamed(files);
		const first = await spool.acquire([files[0] as SpoolFile], source);
		// In use: no room for a second 60-byte copy.
		const busy = await spool.acquire([files[1] as SpoolFile], source).catch((error: unknown) => error);
		expect(busy).toBeInstanceOf(HubError);
		expect((busy as HubError).status).toBe(503);
		first.release();
		// Released: the older copy goes to make room.
		const second = await spool.acquire([files[1] as SpoolFile], source);
		expect(readFileSync(second.paths[0] ?? "")).toEqual(files[1]?.bytes);
		second.release();
		const tooLarge = await spool.acquire([files[2] as SpoolFile], source).catch((error: unknown) => error);
		expect((tooLarge as HubError).status).toBe(413);
	});
});
