import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	DIFF_WORK,
	diffBudget,
	fileDiff,
	textHunks,
	textOf,
	type DiffSide,
} from "../src/discussions/diff.js";
import { runGit } from "./support/git.js";

/** A repository's files before and after a pull request; undefined: absent on that side. */
type Files = Record<string, string | Buffer | undefined>;

const numbered = (from: number, to: number, word = "line") =>
	Array.from({ length: to - from + 1 }, (_, i) => `    ${word} ${from + i}\n`).join("");

/** A function line longer than git keeps (80 bytes): the cut falls after spaces, and counts é as two bytes. */
const LONG = `static void café_${"x".repeat(55)}(a,    b) {`;

const BEFORE: Files = {
	"code.py": `class Model:\n${numbered(1, 20)}def forward(self):\n${numbered(21, 40)}`,
	"near.txt": numbered(1, 30),
	"eof.txt": "keeps\nno newline",
	"adds-eol.txt": "a\nb",
	"crlf.txt": "one\r\ntwo\r\nthree\r\n",
	"long.c": `${LONG}\n${numbered(1, 10)}`,
	"gone.txt": "bye\nnow\n",
	"empty-gone.txt": "",
	"weights.dat": Buffer.from([1, 0, 2, 3]),
	"to-binary.txt": "text\n",
	// Names git quotes (non-ASCII, '"', '\\', a tab) or ends with a tab on ---/+++ (a space).
	"café.txt": "un\n",
	"a b.txt": "one\n",
	'q"uote.txt': "x\n",
	"t\tab.txt": "x\n",
	"back\\slash.txt": "x\n",
	"bin é.dat": Buffer.from([0, 1]),
	"gone é.txt": "bye\n",
};

const AFTER: Files = {
	// Three changes far apart: three hunks, the later ones headed by the function line above them.
	"code.py": `class Model:\n${numbered(1, 1)}    LINE 2\n${numbered(3, 9)}    LINE 10\n${numbered(11, 20)}def forward(self):\n${numbered(21, 29)}    LINE 30\n${numbered(31, 40)}`,
	// Two changes six lines apart: one hunk, as git joins them.
	"near.txt": `${numbered(1, 9)}    LINE 10\n${numbered(11, 16)}    LINE 17\n${numbered(18, 30)}`,
	"eof.txt": "keeps\nno newline either",
	"adds-eol.txt": "a\nb\n",
	"crlf.txt": "one\r\nTWO\r\nthree\r\n",
	"long.c": `${LONG}\n${numbered(1, 6)}    changed\n${numbered(8, 10)}`,
	"new.txt": "fresh\n",
	"empty-new.txt": "",
	"weights.dat": Buffer.from([1, 0, 2, 4]),
	"to-binary.txt": Buffer.from([0, 1]),
	"café.txt": "deux\n",
	"a b.txt": "two\n",
	'q"uote.txt': "y\n",
	"t\tab.txt": "y\n",
	"back\\slash.txt": "y\n",
	"bin é.dat": Buffer.from([0, 2]),
	"new é.txt": "fresh\n",
};

describe("pull request diffs, as git prints them", () => {
	let home: string;

	beforeAll(() => {
		home = mkdtempSync(join(tmpdir(), "modelhub-pr-diff-"));
	});
	afterAll(() => {
		if (home) rmSync(home, { recursive: true, force: true });
	});

	async function commitAll(repo: string, files: Files): Promise<string> {
		for (const [path, content] of Object.entries(files)) {
			if (content === undefined) await runGit(home, ["rm", "-q", "--ignore-unmatch", path], repo);
			else writeFileSync(join(repo, path), content);
		}
		await runGit(home, ["add", "-A"], repo);
		await runGit(
			home,
			["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c", "--allow-empty"],
			repo,
		);
		return (await runGit(home, ["rev-parse", "HEAD"], repo)).stdout.trim();
	}

	async function side(
		repo: string,
		commit: string,
		path: string,
		files: Files,
	): Promise<DiffSide | undefined> {
		const content = files[path];
		if (content === undefined) return undefined;
		const oid = (await runGit(home, ["rev-parse", `${commit}:${path}`], repo)).stdout.trim();
		return { oid, text: textOf(Buffer.from(content)) };
	}

	it("matches git diff byte for byte: hunks, function context, no newline at end, new, deleted, empty and binary files", async () => {
		const repo = join(home, "exact");
		await runGit(home, ["init", "-q", repo]);
		const before = await commitAll(repo, BEFORE);
		const afterFiles: Files = {
			...AFTER,
			"gone.txt": undefined,
			"empty-gone.txt": undefined,
			"gone é.txt": undefined,
		};
		const after = await commitAll(repo, afterFiles);
		const { stdout } = await runGit(home, ["diff", "--no-color", "--no-renames", before, after], repo);
		const paths = [...new Set([...Object.keys(BEFORE), ...Object.keys(AFTER)])].sort();
		let ours = "";
		const budget = diffBudget();
		for (const path of paths) {
			ours += fileDiff(
				path,
				await side(repo, before, path, BEFORE),
				await side(repo, after, path, afterFiles),
				budget,
			);
		}
		expect(ours).toBe(stdout);
		// What the cases are about, so the comparison cannot pass on a degenerate diff.
		expect(stdout.match(/^@@ .*$/gm)).toEqual(
			expect.arrayContaining([
				"@@ -1,6 +1,6 @@",
				"@@ -8,7 +8,7 @@ class Model:",
				"@@ -29,7 +29,7 @@ def forward(self):",
				"@@ -7,14 +7,14 @@",
				`@@ -5,7 +5,7 @@ static void café_${"x".repeat(55)}(a,`,
			]),
		);
		expect(stdout).toContain("Binary files a/weights.dat and b/weights.dat differ");
		expect(stdout).toContain("\\ No newline at end of file");
		for (const line of [
			'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
			'--- "a/q\\"uote.txt"',
			'+++ "b/t\\tab.txt"',
			'--- "a/back\\\\slash.txt"',
			"+++ b/a b.txt\t",
			'+++ "b/new \\303\\251.txt"\t',
			'--- "a/gone \\303\\251.txt"\t',
			'Binary files "a/bin \\303\\251.dat" and "b/bin \\303\\251.dat" differ',
		])
			expect(stdout.split("\n")).toContain(line);
	});

	/** A deterministic pseudo-random source, so a failure replays. */
	function random(seed: number) {
		let state = seed;
		return (n: number) => {
			state = (state * 1103515245 + 12345) % 2 ** 31;
			return state % n;
		};
	}

	it("gives patches git applies to get the pull request's files, with Myers and with the bounded one-hunk fallback", async () => {
		const repo = join(home, "apply");
		await runGit(home, ["init", "-q", repo]);
		const next = random(24);
		const base: Record<string, string> = {};
		const head: Record<string, string> = {};
		for (let file = 0; file < 40; file++) {
			// Few distinct lines, so many alignments are equally short and hunks are close together.
			const lines = Array.from({ length: 5 + next(120) }, () => `w${next(6)}`);
			const edited = [...lines];
			for (let edit = next(12); edit > 0; edit--) {
				const at = next(edited.length + 1);
				const kind = next(3);
				if (kind === 0) edited.splice(at, 1);
				else if (kind === 1) edited.splice(at, 0, `new${next(4)}`);
				else edited.splice(at, 1, `changed${next(4)}`);
			}
			const eol = (list: string[], ends: boolean) => list.join("\n") + (ends && list.length ? "\n" : "");
			base[`f${file}.txt`] = eol(lines, next(4) !== 0);
			head[`f${file}.txt`] = eol(edited, next(4) !== 0);
		}
		await commitAll(repo, base);
		for (const budget of [diffBudget(), { work: 0 }]) {
			let patch = "";
			for (const path of Object.keys(base)) {
				const before = { oid: "1".repeat(40), text: base[path] as string };
				const after = { oid: "2".repeat(40), text: head[path] as string };
				patch += fileDiff(path, before, after, budget);
			}
			const patchFile = join(home, "change.patch");
			writeFileSync(patchFile, patch);
			await runGit(home, ["apply", "--whitespace=nowarn", patchFile], repo);
			for (const path of Object.keys(base))
				expect(readFileSync(join(repo, path), "utf8"), path).toBe(head[path]);
			await runGit(home, ["checkout", "-q", "--", "."], repo);
		}
	});

	it("spends a bounded budget: files that would cost more get one hunk from the first to the last change", () => {
		const before = Array.from({ length: 20_000 }, (_, i) => `a${i}\n`).join("");
		const after = Array.from({ length: 20_000 }, (_, i) => `b${i}\n`).join("");
		const budget = diffBudget();
		const hunks = textHunks(`same\n${before}same\n`, `same\n${after}same\n`, budget);
		expect(hunks.match(/^@@ /gm)).toEqual(["@@ "]);
		expect(hunks.startsWith("@@ -1,20002 +1,20002 @@\n same\n-a0\n")).toBe(true);
		// Myers gave up within the budget and spent it.
		expect(budget.work).toBeLessThan(DIFF_WORK / 100);
		const edited = numbered(1, 30).replace("line 2\n", "x\n").replace("line 29\n", "y\n");
		expect(textHunks(numbered(1, 30), edited).match(/^@@ .*$/gm)).toEqual([
			"@@ -1,5 +1,5 @@",
			"@@ -26,5 +26,5 @@",
		]);
		expect(textHunks(numbered(1, 30), edited, { work: 0 }).match(/^@@ .*$/gm)).toEqual(["@@ -1,30 +1,30 @@"]);
	});
});
