import { describe, expect, it } from "vitest";
import {
	addPending,
	buildCommitForm,
	defaultSummary,
	MAX_PENDING_FILES,
	normalizeUploadPath,
	totalBytes,
	uploadPathProblem,
	uploadPercent,
	uploadProblem,
} from "./upload";

const blob = (text: string) => new Blob([text]);

describe("upload paths", () => {
	it("normalises what browsers and people give", () => {
		expect(normalizeUploadPath("weights\\model.bin")).toBe("weights/model.bin");
		expect(normalizeUploadPath("./a//b.txt")).toBe("a/b.txt");
		expect(normalizeUploadPath("/abs/x")).toBe("abs/x");
	});

	it("refuses what the hub refuses, in the hub's words", () => {
		expect(uploadPathProblem("")).toBe("path is empty");
		expect(uploadPathProblem("a/../b")).toBe("path contains a '.' or '..' segment");
		expect(uploadPathProblem(".git/config")).toBe("path contains a '.git' segment");
		expect(uploadPathProblem("a\nb")).toBe("path contains control characters");
		expect(uploadPathProblem("x".repeat(1001))).toBe("path is longer than 1000 characters");
		expect(uploadPathProblem("dir/")).toBe("path must not start or end with '/'");
		expect(uploadPathProblem("unicodé ✓.txt")).toBeUndefined();
		// Names clients cannot write safely (the hub refuses them at commit time too).
		expect(uploadPathProblem(".GIT/config")).toMatch(/is '\.git' on Windows or macOS/);
		expect(uploadPathProblem("GIT~1/config")).toMatch(/is '\.git'/);
		expect(uploadPathProblem("a\\..\\x")).toMatch(/backslash/);
		expect(uploadPathProblem("C:/x")).toMatch(/drive letter/);
	});
});

describe("the pending list", () => {
	it("adds files under a folder, keeps folder paths, replaces a file chosen again, and marks bad paths", () => {
		const first = addPending([], [{ file: blob("ab"), name: "a.txt" }], "sub/");
		expect(first.files.map((entry) => entry.path)).toEqual(["sub/a.txt"]);
		const second = addPending(first.files, [
			{ file: blob("abcd"), name: "a.txt" },
			{ file: blob("x"), name: "b.txt", relativePath: "folder/b.txt" },
			{ file: blob("x"), name: ".git" },
		]);
		expect(second.files.map((entry) => [entry.path, entry.size])).toEqual([
			["sub/a.txt", 2],
			["a.txt", 4],
			["folder/b.txt", 1],
			[".git", 1],
		]);
		expect(second.files[3]?.problem).toBe("path contains a '.git' segment");
		const again = addPending(second.files, [{ file: blob("abcdef"), name: "a.txt" }]);
		expect(again.files).toHaveLength(4);
		expect(again.files[1]?.size).toBe(6);
		expect(totalBytes(again.files)).toBe(2 + 6 + 1 + 1);
	});

	it("is bounded and says how many files it left out", () => {
		const many = Array.from({ length: MAX_PENDING_FILES + 5 }, (_, index) => ({
			file: blob(""),
			name: `f${index}.txt`,
		}));
		const result = addPending([], many);
		expect(result.files).toHaveLength(MAX_PENDING_FILES);
		expect(result.dropped).toBe(5);
	});

	it("proposes a summary and says why an upload cannot go yet", () => {
		const one = addPending([], [{ file: blob("a"), name: "dir/model.bin" }]).files;
		expect(defaultSummary(one)).toBe("Upload model.bin");
		const two = addPending(one, [{ file: blob("a"), name: "b" }]).files;
		expect(defaultSummary(two)).toBe("Upload 2 files");
		expect(uploadProblem([], "x")).toBe("Add at least one file.");
		const bad = addPending([], [{ file: blob("a"), name: "a/../b" }]).files;
		expect(uploadProblem(bad, "x")).toBe("Remove or rename a/../b: path contains a '.' or '..' segment.");
		expect(uploadProblem(two, "x".repeat(1001))).toBe("The commit summary must be at most 1000 characters.");
		expect(uploadProblem(two, "ok")).toBeUndefined();
	});
});

describe("the commit form", () => {
	it("puts the header first, then one file part per file named by its repository path", async () => {
		const files = addPending(
			[],
			[
				{ file: blob("{}"), name: "config.json" },
				{ file: blob("w"), name: "x", relativePath: "weights/model.bin" },
			],
		).files;
		const form = buildCommitForm(files, "  Add files \n", " more ");
		const entries = [...form.entries()];
		expect(entries.map(([key]) => key)).toEqual(["header", "file", "file"]);
		expect(JSON.parse(entries[0]?.[1] as string)).toEqual({ summary: "Add files", description: "more" });
		expect((entries[2]?.[1] as File).name).toBe("weights/model.bin");
		expect(await (entries[1]?.[1] as File).text()).toBe("{}");
	});

	it("names a file uploaded through LFS by its SHA-256 in an lfsFile operation, not as a file part", () => {
		const files = [
			{ path: "config.json", file: blob("{}"), size: 2 },
			{ path: "weights/model.bin", file: blob("x"), size: 1 },
		];
		const oid = "a".repeat(64);
		const form = buildCommitForm(files, "Add", "", new Map([["weights/model.bin", { oid, size: 1 }]]));
		const entries = [...form.entries()];
		expect(entries.map(([key]) => key)).toEqual(["header", "file", "operation"]);
		expect(JSON.parse(entries[2]?.[1] as string)).toEqual({
			key: "lfsFile",
			value: { path: "weights/model.bin", algo: "sha256", oid, size: 1 },
		});
	});

	it("reports whole percents, never above 100", () => {
		expect(uploadPercent(0, 0)).toBe(0);
		expect(uploadPercent(1, 3)).toBe(33);
		expect(uploadPercent(5, 4)).toBe(100);
	});
});
