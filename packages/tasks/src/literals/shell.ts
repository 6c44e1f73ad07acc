import { commentText } from "./comment.js";

/**
 * POSIX shell word builders. A value enters a shell snippet only as one single-quoted word, where
 * nothing (no `$`, backtick, backslash or newline) is special.
 */

const SAFE_BARE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One shell word whose value is exactly `value`; bare when that is unambiguous, else single-quoted. */
export function shWord(value: string): string {
	if (value !== "" && SAFE_BARE_WORD.test(value) && !value.startsWith("-")) return value;
	return shQuote(value);
}

/**
 * Always single-quoted: `'` inside becomes `'\''`. A shell argument cannot hold a NUL byte at all, so
 * NULs are dropped; every other character survives exactly.
 */
export function shQuote(value: string): string {
	return `'${value.replaceAll("\u0000", "").replace(/'/g, "'\\''")}'`;
}

/** The text of a `#` comment line: line breaks become spaces. */
export function shComment(text: string): string {
	return `# ${commentText(text)}`;
}
