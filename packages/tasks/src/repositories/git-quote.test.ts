import { describe, expect, it } from "vitest";
import { quoteGitPath, unquoteGitPath } from "./git-quote.js";

describe("git's quoting of file names", () => {
	it("leaves plain names alone and quotes the rest as git does", () => {
		expect(quoteGitPath("a/dir/file name.txt")).toBe("a/dir/file name.txt");
		expect(quoteGitPath("a/café.txt")).toBe('"a/caf\\303\\251.txt"');
		expect(quoteGitPath('a/say "hi"\t\\.txt')).toBe('"a/say \\"hi\\"\\t\\\\.txt"');
		expect(quoteGitPath("a/\x7f")).toBe('"a/\\177"');
	});

	it("reads back every name it quotes", () => {
		for (const name of ["a/café.txt", 'a/say "hi"\t\\.txt', "a/\x01\x7f", "a/日本/語.bin", "a/plain"]) {
			const quoted = quoteGitPath(name);
			const read = quoted.startsWith('"') ? unquoteGitPath(quoted, 1) : quoted;
			expect(read).toBe(name);
		}
	});
});
