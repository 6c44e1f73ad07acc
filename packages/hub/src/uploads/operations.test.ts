import { describe, expect, it } from "vitest";
import { lines } from "./ndjson.js";
import {
	CommitOperationError,
	operationEdits,
	parentMatches,
	parseDeletion,
	parseHeader,
	parseLfsFile,
} from "./operations.js";
import { uploadMode } from "./upload-mode.js";

const sha = (n: number) => String(n).repeat(64).slice(0, 64);

describe("commit operations", () => {
	it("become edits in order: adds, LFS files the repository holds (size from the object), deletions", () => {
		const edits = operationEdits(
			[
				{ kind: "file", path: "README.md", sha256: sha(4), size: 5, gitOid: "b".repeat(40), lfs: false },
				{ kind: "lfsFile", path: "copy.bin", sha256: sha(2), size: undefined },
				{ kind: "deletedFolder", path: "w" },
				{ kind: "deletedFile", path: ".gitattributes" },
			],
			new Map([[sha(2), { size: 20, gitOid: null }]]),
		);
		expect(edits).toEqual([
			{
				kind: "put",
				file: { path: "README.md", sha256: sha(4), size: 5, gitOid: "b".repeat(40), lfs: false },
			},
			{ kind: "put", file: { path: "copy.bin", sha256: sha(2), size: 20, gitOid: null, lfs: true } },
			{ kind: "deleteFolder", path: "w" },
			{ kind: "deleteFile", path: ".gitattributes" },
		]);
	});

	it("refuse LFS objects the repository does not hold, and wrong sizes", () => {
		const apply = (op: Parameters<typeof operationEdits>[0][number]) =>
			operationEdits([op], new Map([[sha(2), { size: 20, gitOid: null }]]));
		expect(() => apply({ kind: "lfsFile", path: "x", sha256: sha(9), size: 1 })).toThrow(/never uploaded/);
		expect(() => apply({ kind: "lfsFile", path: "x", sha256: sha(2), size: 21 })).toThrow(
			/has 20 bytes, not 21/,
		);
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
