import { commentText } from "./comment.js";

/**
 * JavaScript literal builders. Values from model metadata enter JS snippets only through these.
 */

/** A double-quoted JS string literal whose value is exactly `value`. */
export function jsString(value: string): string {
	// JSON escapes quotes, backslashes and control characters. U+2028/9 are escaped too so the snippet
	// can also be pasted into pre-ES2019 tooling; lone surrogates are escaped by JSON.stringify itself.
	const json = JSON.stringify(value);
	if (!json.includes("\u2028") && !json.includes("\u2029")) return json;
	return json.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** The text of a `//` comment: line breaks become spaces. */
export function jsComment(text: string): string {
	return `// ${commentText(text)}`;
}

/** A JSON-like value as a JS expression, pretty-printed with `step` per level after `indent`. */
export function jsValue(value: unknown, indent = "", step = "\t"): string {
	const text = JSON.stringify(value, null, step) ?? "undefined";
	return text
		.replace(/\u2028/g, "\\u2028")
		.replace(/\u2029/g, "\\u2029")
		.split("\n")
		.join(`\n${indent}`);
}
