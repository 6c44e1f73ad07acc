import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { HubError } from "../errors.js";
import { Spool, type EarlyFill, type SpoolFile, type SpoolSource } from "./spool.js";

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

	it("hands over a copy once an early fill has its ranges, the rest arriving meanwhile", async () => {
		const spool = await Spool.open(undefined, 1 << 20);
		opened.push(spool);
		const file = fileOf(Buffer.from(Array.from({ length: 4000 }, (_, index) => index % 251)));
		let letGo: () => void = () => {};
		const whole = new Promise<void>((resolve) => {
			letGo = resolve;
		});
		const ranges: string[] = [];
		const source: SpoolSource = {
			read: async (_file, span) => {
				if (span !== undefined) {
					ranges.push(`${span.start}-${span.end}`);
					return Readable.from([file.bytes.subarray(span.start, span.end)]);
				}
				ranges.push("whole");
				await whole;
				return Readable.from([file.bytes.subarray(0, 1000), file.bytes.subarray(1000)]);
			},
		};
		const fill: EarlyFill = async ([early]) => {
			expect(early?.complete).toBe(false);
			expect(await early?.read({ start: 3990, end: 4000 })).toEqual(file.bytes.subarray(3990));
			await early?.fetch({ start: 100, end: 300 });
			return true;
		};
		const held = await spool.acquire([file], source, fill);
		expect(held.complete).toBe(false);
		// The whole file is asked for after the early ranges are in, not before.
		expect(ranges.slice(0, 2)).toEqual(["3990-4000", "100-300"]);
		// A second answer before the copy is whole finds its ranges there: nothing is fetched again.
		const second = await spool.acquire([file], source, fill);
		expect(second.complete).toBe(false);
		second.release();
		expect(ranges.filter((range) => range !== "whole")).toHaveLength(2);
		const sparse = readFileSync(held.paths[0] ?? "");
		// Full size at once; the ranges fetched are the file's bytes, the rest not there yet.
		expect(sparse.length).toBe(4000);
		expect(sparse.subarray(100, 300)).toEqual(file.bytes.subarray(100, 300));
		expect(sparse.subarray(3990)).toEqual(file.bytes.subarray(3990));
		expect(sparse.subarray(400, 410)).toEqual(Buffer.alloc(10));
		letGo();
		await held.completed();
		expect(readFileSync(held.paths[0] ?? "")).toEqual(file.bytes);
		expect(ranges).toEqual(["3990-4000", "100-300", "whole"]);
		held.release();
		// A whole copy needs no early fill: it is not called.
		const again = await spool.acquire([file], source, () => Promise.reject(new Error("not called")));
		expect(again.complete).toBe(true);
		again.release();
	});

	it("waits for the whole file when the early fill cannot plan, and a copy that fails unwatched harms nothing", async () => {
		const spool = await Spool.open(undefined, 1 << 20);
		opened.push(spool);
		const file = fileOf(Buffer.from("whole bytes only"));
		const held = await spool.acquire([file], streamed([file]), async () => false);
		expect(held.complete).toBe(true);
		expect(readFileSync(held.paths[0] ?? "", "utf8")).toBe("whole bytes only");
		held.release();

		// An early answer leaves the copy running; when storage then fails it, nobody is waiting for it:
		// the copy is dropped (a later acquire copies again), with no unhandled rejection.
		const broken = fileOf(Buffer.from("a file storage loses"));
		let fail: (error: Error) => void = () => {};
		const failing = new Promise<never>((_resolve, reject) => {
			fail = reject;
		});
		let wholeReads = 0;
		const flaky: SpoolSource = {
			read: async (_file, span) => {
				if (span !== undefined) return Readable.from([broken.bytes.subarray(span.start, span.end)]);
				wholeReads += 1;
				if (wholeReads === 1) return failing;
				return Readable.from([broken.bytes]);
			},
		};
		const early = await spool.acquire([broken], flaky, async () => true);
		expect(early.complete).toBe(false);
		early.release();
		fail(new Error("storage went away"));
		await expect(early.completed()).rejects.toThrow("storage went away");
		const later = await spool.acquire([broken], flaky);
		expect(readFileSync(later.paths[0] ?? "", "utf8")).toBe("a file storage loses");
		expect(wholeReads).toBe(2);
		later.release();
	});
});
