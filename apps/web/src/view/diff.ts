/**
 * A commit's text diff as rows to show: hunks of `diff`'s structuredPatch (jsdiff, the well-kept
 * library git-style diffs in JavaScript come from), each line with its old and new line numbers.
 */
// From its own module (the package's `./lib/*.js` export): the package declares no `sideEffects`, so its
// index would bring every diff flavour (words, JSON, CSS, sentences…) into the commit view's chunk.
import { structuredPatch } from "diff/lib/patch/create.js";
import type { DiffRow } from "./diff-rows";

export { diffStats, type DiffRow } from "./diff-rows";

/** Lines of context around each change, as `git diff` shows by default. */
const CONTEXT_LINES = 3;

export function diffRows(before: string, after: string): DiffRow[] {
	const patch = structuredPatch("a", "b", before, after, "", "", { context: CONTEXT_LINES });
	const rows: DiffRow[] = [];
	for (const hunk of patch.hunks) {
		rows.push({
			kind: "hunk",
			text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
		});
		let oldLine = hunk.oldStart;
		let newLine = hunk.newStart;
		for (const line of hunk.lines) {
			const sign = line[0];
			const text = line.slice(1);
			if (sign === "\\") continue; // "\ No newline at end of file"
			if (sign === "+") rows.push({ kind: "added", newLine: newLine++, text });
			else if (sign === "-") rows.push({ kind: "removed", oldLine: oldLine++, text });
			else rows.push({ kind: "context", oldLine: oldLine++, newLine: newLine++, text });
		}
	}
	return rows;
}
