import { describe, expect, it } from "vitest";
import type { FileEntry } from "../repos/read.js";
import { lines } from "./ndjson.js";
import {
	applyOperations,
	CommitOperationError,
	parentMatches,
	parseDeletion,
	parseHeader,
	parseLfsFile,
} from "./operations.js";
import { uploadMode } from "./upload-mode.js";

const sha = (n: number) => String(n).repeat(64).slice(0, 64);
const head: FileEntry[] = [
	{ path: ".gitattributes", sha256: sha(1), size: 10, lfs: false, gitOid: "a".repeat(40) },
	{ path: "w/a.bin", sha256: sha(2), size: 20, lfs: true, gitOid: null },
	{ path: "w/b.bin", sha256: sha(3), size: 30, lfs: true, gitOid: null },
];

describe("commit operations", () => {
	it("apply in order: adds, LFS files the repository holds, file and folder deletions", () => {
		const files = applyOperations(
			head,
			[
				{ kind: "file", path: "README.md", sha256: sha(4), size: 5, gitOid: "b".repeat(40), lfs: false },
				{ kind: "lfsFile", path: "copy.bin", sha256: sha(2), size: undefined },
				{ kind: "deletedFolder", path: "w" },
				{ kind: "deletedFile", path: ".gitattributes" },
			],
			new Map([[sha(2), { size: 20, gitOid: null }]]),
		);
		expect(files.map((f) => [f.path, f.size, f.lfs])).toEqual([
			["README.md", 5, false],
			["copy.bin", 20, true],
		]);
	});

	it("refuse LFS objects the repository does not hold, wrong sizes, and deletions of missing paths", () => {
		const apply = (op: Parameters<typeof applyOperations>[1][number]) =>
			applyOperations(head, [op], new Map([[sha(2), { size: 20, gitOid: null }]]));
		expect(() => apply({ kind: "lfsFile", path: "x", sha256: sha(9), size: 1 })).toThrow(/never uploaded/);
		expect(() => apply({ kind: "lfsFile", path: "x", sha256: sha(2), size: 21 })).toThrow(
			/has 20 bytes, not 21/,
		);
		const missing = (() => {
			try {
				apply({ kind: "deletedFile", path: "nope" });
			} catch (error) {
				return error as CommitOperationError;
			}
			return undefined;
		})();
		expect(missing).toMatchObject({ status: 404, code: "EntryNotFound" });
		expect(missing?.message).toMatch(/A file with this name doesn't exist/);
		expect(() => apply({ kind: "deletedFolder", path: "x" })).toThrow(/folder with this name doesn't exist/);
	});

	it("read headers: one-line summaries, parent commits, bounded text", () => {
		expect(parseHeader({ summary: "Title\nmore", description: "body" })).toEqual({
			summary: "Title",
			description: "more\n\nbody",
		});
		expect(parseHeader({ summary: "x", parentCommit: "ABCDEF1" })).toMatchObject({ parentCommit: "abcdef1" });
		expect(() => parseHeader({ summary: "x", parentCommit: "abc" })).toThrow(/parentCommit/);
		expect(() => parseHeader({ summary: "   " })).toThrow(/non-empty/);
		expect(() => parseHeader({ summary: "x".repeat(1001) })).toThrow(/at most 1000/);
		expect(() => parseHeader({ summary: "a\u0000b" })).toThrow(/control characters/);
		expect(parentMatches("abcdef1", "abcdef1234")).toBe(true);
		expect(parentMatches("abcdef2", "abcdef1234")).toBe(false);
		expect(parseDeletion("deletedFolder", { path: "a/b/" })).toEqual({ kind: "deletedFolder", path: "a/b" });
		expect(() => parseDeletion("deletedFile", { path: "/" })).toThrow(CommitOperationError);
		expect(() => parseLfsFile({ path: "a", algo: "md5", oid: sha(1) })).toThrow(/sha256/);
	});

	it("decide upload modes: inline for small text, LFS for large, weights by name, and binary samples", () => {
		const text = Buffer.from("hello");
		expect(uploadMode({ path: "a.txt", size: 5, sample: text }, 1000)).toBe("regular");
		expect(uploadMode({ path: "a.txt", size: 1001, sample: text }, 1000)).toBe("lfs");
		expect(uploadMode({ path: "model.safetensors", size: 10, sample: text }, 1000)).toBe("lfs");
		expect(uploadMode({ path: "a.dat", size: 3, sample: Buffer.from([1, 0, 2]) }, 1000)).toBe("lfs");
		expect(uploadMode({ path: "empty.bin", size: 0, sample: Buffer.alloc(0) }, 1000)).toBe("regular");
	});
});

describe("NDJSON lines", () => {
	async function collect(parts: string[], max = 100): Promise<string[]> {
		async function* source() {
			for (const part of parts) yield Buffer.from(part);
		}
		const out: string[] = [];
		for await (const line of lines(source(), max)) out.push(line.toString());
		return out;
	}

	it("splits lines across pieces, keeps a last line without newline", async () => {
		expect(await collect(['{"a"', ":1}\n{", '"b":2}\n', "x"])).toEqual(['{"a":1}', '{"b":2}', "x"]);
		expect(await collect(["\n\n"])).toEqual(["", ""]);
	});

	it("refuses a line longer than the limit as soon as it passes it", async () => {
		await expect(collect(["x".repeat(60), "x".repeat(60)])).rejects.toMatchObject({ status: 413 });
		await expect(collect([`${"x".repeat(101)}\n`])).rejects.toMatchObject({ status: 413 });
	});
});
