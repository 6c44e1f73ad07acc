/**
 * A pull request's diff as git prints it (`diff --git`, `---`/`+++`, `@@` hunks), which is what the
 * public hub's `diff` field holds and huggingface_hub passes through as a string. Pure functions over
 * the two sides of each changed file.
 *
 * Each changed text file gets one hunk: the lines between the common first lines and the common last
 * lines are shown removed and added, with up to three lines of context around them. That is a valid
 * unified diff, found in linear time whatever the input (a minimal line diff costs quadratic time on
 * hostile files), though not always the smallest one.
 */

/** One side of a changed file: its git object id and its text (as git sees it: an LFS file is its pointer), or binary. */
export interface DiffSide {
	oid: string;
	/** The file's text, or undefined when it is binary (a NUL byte, or not UTF-8) or too large to show. */
	text: string | undefined;
}

const CONTEXT_LINES = 3;

function linesOf(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines;
}

function range(start: number, count: number): string {
	// git's hunk ranges: a 1-based start, and `start,count` unless the count is 1 (0 lines start before).
	if (count === 0) return `${start},0`;
	return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}

/** The one hunk between two texts, or "" when their lines are equal. */
export function textHunk(before: string, after: string): string {
	const a = linesOf(before);
	const b = linesOf(after);
	let prefix = 0;
	while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
	let suffix = 0;
	while (
		suffix < a.length - prefix &&
		suffix < b.length - prefix &&
		a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
	)
		suffix++;
	if (prefix === a.length && prefix === b.length) return "";
	const lead = Math.min(prefix, CONTEXT_LINES);
	const trail = Math.min(suffix, CONTEXT_LINES);
	const start = prefix - lead;
	const removed = a.slice(prefix, a.length - suffix);
	const added = b.slice(prefix, b.length - suffix);
	const oldCount = lead + removed.length + trail;
	const newCount = lead + added.length + trail;
	const out = [`@@ -${range(start, oldCount)} +${range(start, newCount)} @@`];
	for (const line of a.slice(start, prefix)) out.push(` ${line}`);
	for (const line of removed) out.push(`-${line}`);
	for (const line of added) out.push(`+${line}`);
	for (const line of a.slice(a.length - suffix, a.length - suffix + trail)) out.push(` ${line}`);
	return `${out.join("\n")}\n`;
}

/** The `diff --git` section of one file (`before` undefined: added; `after` undefined: deleted). */
export function fileDiff(path: string, before: DiffSide | undefined, after: DiffSide | undefined): string {
	const head = [`diff --git a/${path} b/${path}`];
	if (!before) head.push("new file mode 100644");
	if (!after) head.push("deleted file mode 100644");
	head.push(
		`index ${(before?.oid ?? "0".repeat(40)).slice(0, 7)}..${(after?.oid ?? "0".repeat(40)).slice(0, 7)}`,
	);
	const from = before ? `a/${path}` : "/dev/null";
	const to = after ? `b/${path}` : "/dev/null";
	if ((before && before.text === undefined) || (after && after.text === undefined)) {
		head.push(`Binary files ${from} and ${to} differ`);
		return `${head.join("\n")}\n`;
	}
	head.push(`--- ${from}`, `+++ ${to}`);
	return `${head.join("\n")}\n${textHunk(before?.text ?? "", after?.text ?? "")}`;
}

/** Whether bytes are shown as text: UTF-8 without a NUL byte (git's own test for binary is the NUL). */
export function textOf(bytes: Buffer): string | undefined {
	if (bytes.includes(0)) return undefined;
	const text = bytes.toString("utf8");
	return Buffer.byteLength(text) === bytes.length && !text.includes("\uFFFD") ? text : undefined;
}
