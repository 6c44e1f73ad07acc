/**
 * A pull request's diff, as the hub's `get_discussion_details(…, diff=1)` answer holds it (git's format:
 * `diff --git`, `new file mode`/`deleted file mode`, `index`, `---`/`+++` and `@@` hunks, or "Binary
 * files … differ"; packages/hub/src/discussions/diff.ts writes it), read back into one entry per changed
 * file with the rows the commit page's diff table shows (src/view/diff.ts).
 */
import { unquoteGitPath } from "@modelhub/tasks/repositories";
import type { DiffRow } from "./diff-rows";

export interface PullRequestFileDiff {
	path: string;
	status: "added" | "modified" | "deleted";
	/** The hub did not compare the file as text (binary, or too large to show). */
	binary: boolean;
	rows: DiffRow[];
}

const FILE_HEADER = "diff --git a/";
/** A header whose names git quoted (non-ASCII, control characters, `"` or `\\` in them). */
const QUOTED_FILE_HEADER = 'diff --git "a/';
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** The path of a quoted `diff --git "a/P" "b/P"` line: the first quoted name, without its `a/`. */
function quotedHeaderPath(line: string): string {
	return unquoteGitPath(line, QUOTED_FILE_HEADER.length);
}

/**
 * The path of a `diff --git a/P b/P` line: both sides name the same file in a pull request's diff, so
 * the path is the first half of what follows `a/` (a path with spaces or " b/" in it stays whole).
 */
function headerPath(line: string): string {
	if (line.startsWith(QUOTED_FILE_HEADER)) return quotedHeaderPath(line);
	const rest = line.slice(FILE_HEADER.length);
	const length = (rest.length - " b/".length) / 2;
	return Number.isInteger(length) && length > 0 && rest.slice(length, length + 3) === " b/"
		? rest.slice(0, length)
		: rest;
}

/** The changed files of a git-style diff, in its order. Lines that fit nowhere are skipped. */
export function parsePullRequestDiff(diff: string): PullRequestFileDiff[] {
	const files: PullRequestFileDiff[] = [];
	let file: PullRequestFileDiff | undefined;
	let oldLine = 0;
	let newLine = 0;
	let inHunk = false;
	const lines = diff.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	for (const line of lines) {
		if (line.startsWith(FILE_HEADER) || line.startsWith(QUOTED_FILE_HEADER)) {
			file = { path: headerPath(line), status: "modified", binary: false, rows: [] };
			files.push(file);
			inHunk = false;
			continue;
		}
		if (!file) continue;
		const hunk = HUNK.exec(line);
		if (hunk) {
			oldLine = Number(hunk[1]);
			newLine = Number(hunk[3]);
			// An empty side starts at 0 (`-0,0`): its first line, were there one, would be line 1.
			if (hunk[2] === "0") oldLine++;
			if (hunk[4] === "0") newLine++;
			file.rows.push({ kind: "hunk", text: line });
			inHunk = true;
			continue;
		}
		if (!inHunk) {
			if (line.startsWith("new file mode")) file.status = "added";
			else if (line.startsWith("deleted file mode")) file.status = "deleted";
			else if (line.startsWith("Binary files ")) file.binary = true;
			continue;
		}
		const sign = line[0];
		const text = line.slice(1);
		if (sign === "+") file.rows.push({ kind: "added", newLine: newLine++, text });
		else if (sign === "-") file.rows.push({ kind: "removed", oldLine: oldLine++, text });
		else if (sign === " " || line === "")
			file.rows.push({ kind: "context", oldLine: oldLine++, newLine: newLine++, text });
		// "\ No newline at end of file" and anything else: not a line of either side.
	}
	return files;
}
