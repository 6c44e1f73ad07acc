import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../test/support/random.mjs";
import { GitIgnore, MatchBudget, MatchBudgetError } from "./gitignore.js";

describe(".gitignore matching", () => {
	const rules = new GitIgnore(
		[
			"# a comment",
			"*.log",
			"!keep.log",
			"/build",
			"cache/",
			"docs/**/*.tmp",
			"**/secret?.txt",
			"data/*.csv",
			"\\#literal",
			"[ab]*.bak",
			"",
			"trailing   ",
			"logs/",
			"!logs/important.txt",
		].join("\n"),
	);
	const cases: Array<[string, boolean]> = [
		["app.log", true],
		["deep/app.log", true],
		["keep.log", false],
		["build", true],
		["build/out.bin", true],
		["src/build", false],
		["cache/x", true],
		["a/cache/y", true],
		["cache", false],
		["docs/a/b/c.tmp", true],
		["docs/c.tmp", true],
		["other/c.tmp", false],
		["x/y/secret1.txt", true],
		["secret12.txt", false],
		["data/x.csv", true],
		["data/sub/x.csv", false],
		["#literal", true],
		["a1.bak", true],
		["c1.bak", false],
		["trailing", true],
		// A file in an ignored folder stays ignored, as in git.
		["logs/important.txt", true],
		["README.md", false],
	];
	for (const [path, ignored] of cases) {
		it(`${ignored ? "ignores" : "keeps"} ${path}`, () => expect(rules.ignores(path)).toBe(ignored));
	}

	it("is empty for an empty file or only comments", () => {
		expect(new GitIgnore("").empty).toBe(true);
		expect(new GitIgnore("# nothing\n\n").empty).toBe(true);
	});
});

describe(".gitignore matching under hostile patterns (issue 21)", () => {
	// Before: one regular expression per glob, which backtracked on these without end.
	const longName = "a".repeat(999);
	const deepPath = `${"a/".repeat(400)}${"a".repeat(199)}`;

	it("matches many stars against a 999-character name in bounded work", () => {
		expect(new GitIgnore(`${"*a".repeat(300)}*b`).ignores(longName)).toBe(false);
		expect(new GitIgnore(`${"*a".repeat(300)}*`).ignores(longName)).toBe(true);
		expect(new GitIgnore(`${"a*".repeat(400)}`).ignores(`x/${longName}`)).toBe(true);
	});

	it("matches chains of `**/` and `*` against a 999-character path of 400 folders", () => {
		expect(new GitIgnore(`/${"**/a".repeat(200)}b`).ignores(deepPath)).toBe(false);
		expect(new GitIgnore(`/${"**/a".repeat(200)}`).ignores(deepPath)).toBe(true);
		expect(new GitIgnore(`${"*/".repeat(300)}*b`).ignores(deepPath)).toBe(false);
		expect(new GitIgnore(`${"a/".repeat(399)}*`).ignores(deepPath)).toBe(true);
	});

	it("stops at the request's budget with MatchBudgetError", () => {
		const rules = new GitIgnore(`${"*a".repeat(300)}*b`);
		const budget = new MatchBudget(100_000);
		expect(() => {
			for (let i = 0; i < 10; i++) rules.ignores(longName, budget);
		}).toThrow(MatchBudgetError);
		// Plain rules and paths stay far below a budget.
		const small = new MatchBudget(10_000);
		const plain = new GitIgnore("*.log\n__pycache__/\n/build\ndocs/**/*.tmp\n*.py[cod]\n");
		for (let i = 0; i < 100; i++) expect(plain.ignores(`src/pkg${i}/model.py`, small)).toBe(false);
	});

	it("answers as git does (git check-ignore) on random patterns and paths", () => {
		const random = seededRandom(21);
		const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
		// Pieces of patterns, odd ones included: escapes, classes, `**` in and out of place, slashes.
		const pieces = [
			"a",
			"b",
			"ab",
			"*",
			"**",
			"***",
			"?",
			"/",
			"/",
			"/**/",
			"[ab]",
			"[!a]",
			"[^b]",
			"[a-b]",
		].concat(["[]a]", "[[:alpha:]]", "[\\]]", "*a", "a*", "\\*", "\\", "1"]);
		const names = ["a", "b", "ab", "ba", "aa", "c", "1", "]", "*", "?", "a b"];
		const dir = mkdtempSync(join(tmpdir(), "modelhub-gitignore-"));
		const differences: string[] = [];
		try {
			expect(spawnSync("git", ["init", "-q"], { cwd: dir }).status).toBe(0);
			for (let round = 0; round < 300; round++) {
				const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
					let pattern = "";
					for (let k = 0; k < 1 + Math.floor(random() * 5); k++) pattern += pick(pieces);
					return random() < 0.2 ? `!${pattern}` : pattern;
				});
				const paths = Array.from({ length: 30 }, () =>
					Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(names)).join("/"),
				);
				writeFileSync(join(dir, ".gitignore"), `${lines.join("\n")}\n`);
				const git = spawnSync("git", ["check-ignore", "--no-index", "--stdin", "-v", "-n"], {
					cwd: dir,
					input: `${paths.join("\n")}\n`,
				});
				expect(git.status, git.stderr.toString()).toBeLessThanOrEqual(1);
				const rules = new GitIgnore(lines.join("\n"));
				for (const line of git.stdout.toString().trim().split("\n")) {
					// `<source>:<line>:<pattern>\t<path>`, or `::\t<path>` when no pattern matched.
					const [source, path] = line.split("\t") as [string, string];
					const pattern = source.split(":").slice(2).join(":");
					const ignoredByGit = source !== "::" && !pattern.startsWith("!");
					if (rules.ignores(path) !== ignoredByGit) differences.push(`${JSON.stringify(lines)} ${path}`);
				}
			}
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
		expect(differences).toEqual([]);
	}, 60_000);
});
