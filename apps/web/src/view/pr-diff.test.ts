import { describe, expect, it } from "vitest";
import { parsePullRequestDiff } from "./pr-diff";

describe("a pull request's diff", () => {
	it("reads each changed file of a git-style diff with its rows and line numbers", () => {
		const diff = [
			"diff --git a/config.json b/config.json",
			"index 1234567..89abcde",
			"--- a/config.json",
			"+++ b/config.json",
			"@@ -1,4 +1,4 @@",
			" {",
			'-  "a": 1,',
			'+  "a": 2,',
			'   "b": 2',
			" }",
			"diff --git a/notes/new file.md b/notes/new file.md",
			"new file mode 100644",
			"index 0000000..1111111",
			"--- /dev/null",
			"+++ b/notes/new file.md",
			"@@ -0,0 +1,2 @@",
			"+# Notes",
			"+two",
			"diff --git a/old.txt b/old.txt",
			"deleted file mode 100644",
			"index 2222222..0000000",
			"--- a/old.txt",
			"+++ /dev/null",
			"@@ -1 +0,0 @@",
			"-gone",
			"\\ No newline at end of file",
			"diff --git a/weights.bin b/weights.bin",
			"index 3333333..4444444",
			"Binary files a/weights.bin and b/weights.bin differ",
			"",
		].join("\n");
		const files = parsePullRequestDiff(diff);
		expect(files.map((file) => [file.path, file.status, file.binary])).toEqual([
			["config.json", "modified", false],
			["notes/new file.md", "added", false],
			["old.txt", "deleted", false],
			["weights.bin", "modified", true],
		]);
		expect(files[0]?.rows).toEqual([
			{ kind: "hunk", text: "@@ -1,4 +1,4 @@" },
			{ kind: "context", oldLine: 1, newLine: 1, text: "{" },
			{ kind: "removed", oldLine: 2, text: '  "a": 1,' },
			{ kind: "added", newLine: 2, text: '  "a": 2,' },
			{ kind: "context", oldLine: 3, newLine: 3, text: '  "b": 2' },
			{ kind: "context", oldLine: 4, newLine: 4, text: "}" },
		]);
		expect(files[1]?.rows.slice(1)).toEqual([
			{ kind: "added", newLine: 1, text: "# Notes" },
			{ kind: "added", newLine: 2, text: "two" },
		]);
		expect(files[2]?.rows.slice(1)).toEqual([{ kind: "removed", oldLine: 1, text: "gone" }]);
		expect(files[3]?.rows).toEqual([]);
	});

	it("reads an empty diff as no files, and ignores lines before the first file", () => {
		expect(parsePullRequestDiff("")).toEqual([]);
		expect(parsePullRequestDiff("garbage\n+not a file\n")).toEqual([]);
	});

	it("reads the names git quotes: octal UTF-8 bytes, C escapes, and a tab after a name with a space", () => {
		// As `git diff` prints them (core.quotePath), and the hub's pull request diffs too.
		const diff = [
			"diff --git a/a b.txt b/a b.txt",
			"index 1..2 100644",
			"--- a/a b.txt\t",
			"+++ b/a b.txt\t",
			"@@ -1 +1 @@",
			"-one",
			"+two",
			'diff --git "a/caf\\303\\251 \\\\ \\"q\\".txt" "b/caf\\303\\251 \\\\ \\"q\\".txt"',
			"new file mode 100644",
			"index 0..3",
			"--- /dev/null",
			'+++ "b/caf\\303\\251 \\\\ \\"q\\".txt"\t',
			"@@ -0,0 +1 @@",
			"+new",
			'diff --git "a/t\\tab.txt" "b/t\\tab.txt"',
			"index 4..5 100644",
			'Binary files "a/t\\tab.txt" and "b/t\\tab.txt" differ',
			"",
		].join("\n");
		expect(
			parsePullRequestDiff(diff).map(({ path, status, binary, rows }) => [path, status, binary, rows.length]),
		).toEqual([
			["a b.txt", "modified", false, 3],
			['café \\ "q".txt', "added", false, 2],
			["t\tab.txt", "modified", true, 0],
		]);
	});

	it("keeps a path that itself contains ' b/' whole", () => {
		const [file] = parsePullRequestDiff("diff --git a/x b/y.txt b/x b/y.txt\nindex 1..2\n");
		expect(file?.path).toBe("x b/y.txt");
	});
});
