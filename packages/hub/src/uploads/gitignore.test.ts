import { describe, expect, it } from "vitest";
import { GitIgnore } from "./gitignore.js";

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
