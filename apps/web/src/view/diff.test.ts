import { describe, expect, it } from "vitest";
import { diffRows, diffStats } from "./diff";

describe("commit diffs", () => {
	it("numbers the old and new lines of each change, with three lines of context", () => {
		const before = ["a", "b", "c", "d", "e", "f", "g", "h", "i"].join("\n") + "\n";
		const after = ["a", "b", "c", "d", "E", "f", "g", "h", "i", "j"].join("\n") + "\n";
		const rows = diffRows(before, after);
		expect(rows[0]).toEqual({ kind: "hunk", text: "@@ -2,8 +2,9 @@" });
		expect(rows.filter((row) => row.kind !== "context" && row.kind !== "hunk")).toEqual([
			{ kind: "removed", oldLine: 5, text: "e" },
			{ kind: "added", newLine: 5, text: "E" },
			{ kind: "added", newLine: 10, text: "j" },
		]);
		expect(rows[1]).toEqual({ kind: "context", oldLine: 2, newLine: 2, text: "b" });
		expect(diffStats(rows)).toEqual({ added: 2, removed: 1 });
	});

	it("shows an added file as all added lines and an unchanged one as nothing", () => {
		expect(diffRows("", "x\ny\n").filter((row) => row.kind === "added")).toHaveLength(2);
		expect(diffRows("same\n", "same\n")).toEqual([]);
	});
});
