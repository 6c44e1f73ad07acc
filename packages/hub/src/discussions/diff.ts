/**
 * A pull request's diff as git prints it (`diff --git`, `index`, `---`/`+++`, `@@` hunks with git's
 * default function context, "\ No newline at end of file", "Binary files … differ"), which is what the
 * public hub's `diff` field holds and huggingface_hub passes through as a string. Pure functions over
 * the two sides of each changed file.
 *
 * The hunks come from jsdiff's Myers line diff with three lines of context (git's default), hunks whose
 * gap is at most six lines joined, as git joins them. Myers costs about (lines of both sides) × (lines
 * changed), so each diff has a work budget (`DiffBudget`): a file that would overspend it gets one hunk
 * from its first to its last changed line instead, found in linear time — still a valid diff that
 * `git apply` takes, only not the smallest.
 */
import { quoteGitPath } from "@modelhub/tasks/repositories";
import { structuredPatch } from "diff";

/** One side of a changed file: its git object id and its text (as git sees it: an LFS file is its pointer), or binary. */
export interface DiffSide {
	oid: string;
	/** The file's text, or undefined when it is binary (a NUL byte, or not UTF-8) or too large to show. */
	text: string | undefined;
}

/** What one pull request's diff may still spend on Myers: line comparisons, about. Shared by its files. */
export interface DiffBudget {
	work: number;
}

const CONTEXT_LINES = 3;
/** Line comparisons one pull request's diff spends at most (tens of milliseconds of CPU). */
export const DIFF_WORK = 20_000_000;
/** Changed lines one file's Myers diff looks for at most; past that, the one-hunk diff. */
const MAX_EDIT_LINES = 10_000;
/** git's default function context keeps this many bytes of the line (xdiff's `def_ff`). */
const FUNC_LINE_BYTES = 80;
const FILE_MODE = "100644";
const NO_OID = "0".repeat(40);

/** A new diff budget for one pull request. */
export function diffBudget(): DiffBudget {
	return { work: DIFF_WORK };
}

function linesOf(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines;
}

/** A hunk range as git writes it: `start,count`, `start` alone for one line, and `start-1,0` for none. */
function range(start: number, count: number): string {
	if (count === 0) return `${start - 1},0`;
	return count === 1 ? `${start}` : `${start},${count}`;
}

/**
 * git's default function line for a hunk (no diff driver): the line's start when it begins with an
 * ASCII letter, `_` or `$`, cut to 80 bytes (never inside a character here) and trailing spaces trimmed.
 */
function functionLine(line: string): string | undefined {
	if (!/^[A-Za-z_$]/.test(line)) return undefined;
	let cut = line;
	if (Buffer.byteLength(cut) > FUNC_LINE_BYTES) {
		cut = Buffer.from(line)
			.subarray(0, FUNC_LINE_BYTES)
			.toString("utf8")
			.replace(/\uFFFD+$/, "");
	}
	return cut.replace(/\s+$/, "");
}

interface Hunk {
	oldStart: number;
	oldLines: number;
	newStart: number;
	newLines: number;
	lines: string[];
}

/** A text's lines with their newline kept (the last one may lack it), as jsdiff compares them. */
function tokensOf(text: string): string[] {
	const lines = linesOf(text);
	const ends = text.endsWith("\n");
	return lines.map((line, i) => (i < lines.length - 1 || ends ? `${line}\n` : line));
}

/** The one hunk from the first to the last differing line (linear time), in jsdiff's hunk shape. */
function spanHunk(before: string, after: string): Hunk[] {
	const a = tokensOf(before);
	const b = tokensOf(after);
	let prefix = 0;
	while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
	let suffix = 0;
	while (
		suffix < a.length - prefix &&
		suffix < b.length - prefix &&
		a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
	)
		suffix++;
	if (prefix === a.length && prefix === b.length) return [];
	const lead = Math.min(prefix, CONTEXT_LINES);
	const trail = Math.min(suffix, CONTEXT_LINES);
	const start = prefix - lead;
	const lines: string[] = [];
	const push = (sign: string, token: string) => {
		if (token.endsWith("\n")) lines.push(`${sign}${token.slice(0, -1)}`);
		else lines.push(`${sign}${token}`, "\\ No newline at end of file");
	};
	for (const token of a.slice(start, prefix)) push(" ", token);
	for (const token of a.slice(prefix, a.length - suffix)) push("-", token);
	for (const token of b.slice(prefix, b.length - suffix)) push("+", token);
	for (const token of a.slice(a.length - suffix, a.length - suffix + trail)) push(" ", token);
	return [
		{
			oldStart: start + 1,
			oldLines: a.length - suffix + trail - start,
			newStart: start + 1,
			newLines: b.length - suffix + trail - start,
			lines,
		},
	];
}

/** The hunks between two texts: Myers while the budget allows, else the one span hunk. */
function hunksOf(before: string, after: string, budget: DiffBudget): Hunk[] {
	const size = linesOf(before).length + linesOf(after).length + 1;
	const maxEditLength = Math.min(MAX_EDIT_LINES, Math.floor(budget.work / size));
	if (maxEditLength >= 1) {
		const patch = structuredPatch("a", "b", before, after, "", "", { context: CONTEXT_LINES, maxEditLength });
		if (patch) {
			let edits = 0;
			for (const hunk of patch.hunks)
				for (const line of hunk.lines) if (line[0] === "+" || line[0] === "-") edits++;
			budget.work -= size * (edits + 1);
			return patch.hunks;
		}
		budget.work -= size * maxEditLength;
	}
	return spanHunk(before, after);
}

/** The hunks between two texts as git prints them, or "" when their lines are equal. */
export function textHunks(before: string, after: string, budget: DiffBudget = diffBudget()): string {
	const hunks = hunksOf(before, after, budget);
	if (hunks.length === 0) return "";
	const old = linesOf(before);
	const out: string[] = [];
	let scanned = 0;
	let context: string | undefined;
	for (const hunk of hunks) {
		// The nearest function line above the hunk's first line, scanning each line once over all hunks.
		for (; scanned < hunk.oldStart - 1; scanned++) context = functionLine(old[scanned] as string) ?? context;
		const header = `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`;
		out.push(context ? `${header} ${context}` : header, ...hunk.lines);
	}
	return `${out.join("\n")}\n`;
}

/** The `diff --git` section of one file (`before` undefined: added; `after` undefined: deleted). */
export function fileDiff(
	path: string,
	before: DiffSide | undefined,
	after: DiffSide | undefined,
	budget: DiffBudget = diffBudget(),
): string {
	// Names as git prints them (quoted when they hold non-ASCII, control characters, `"` or `\`).
	const a = quoteGitPath(`a/${path}`);
	const b = quoteGitPath(`b/${path}`);
	const head = [`diff --git ${a} ${b}`];
	if (!before) head.push(`new file mode ${FILE_MODE}`);
	if (!after) head.push(`deleted file mode ${FILE_MODE}`);
	// The mode closes the index line when the file is on both sides (git's own layout).
	const index = `index ${(before?.oid ?? NO_OID).slice(0, 7)}..${(after?.oid ?? NO_OID).slice(0, 7)}`;
	head.push(before && after ? `${index} ${FILE_MODE}` : index);
	const from = before ? a : "/dev/null";
	const to = after ? b : "/dev/null";
	if ((before && before.text === undefined) || (after && after.text === undefined)) {
		head.push(`Binary files ${from} and ${to} differ`);
		return `${head.join("\n")}\n`;
	}
	const hunks = textHunks(before?.text ?? "", after?.text ?? "", budget);
	// Two objects with the same text (never from git itself): nothing to show, as git shows nothing.
	if (hunks === "" && before && after) return "";
	// An empty file added or deleted has no hunk, and git then prints no ---/+++ either.
	// git ends a ---/+++ name holding a space with a tab, so patch tools see where it ends.
	const label = (name: string) => (name.includes(" ") ? `${name}\t` : name);
	if (hunks !== "") head.push(`--- ${label(from)}`, `+++ ${label(to)}`);
	return `${head.join("\n")}\n${hunks}`;
}

/** Whether bytes are shown as text: UTF-8 without a NUL byte (git's own test for binary is the NUL). */
export function textOf(bytes: Buffer): string | undefined {
	if (bytes.includes(0)) return undefined;
	const text = bytes.toString("utf8");
	return Buffer.byteLength(text) === bytes.length && !text.includes("\uFFFD") ? text : undefined;
}
