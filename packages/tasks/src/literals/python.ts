import { isControlCode } from "./control.js";
import { commentText } from "./comment.js";

/**
 * Python literal builders. Every value that comes from model metadata (ids, tags, config strings, widget
 * text) enters a Python snippet through one of these, so it cannot end its literal early.
 */

const PYTHON_SIMPLE_ESCAPES: Record<string, string> = {
	"\\": "\\\\",
	'"': '\\"',
	"\n": "\\n",
	"\r": "\\r",
	"\t": "\\t",
};

function hex(codePoint: number, width: number): string {
	return codePoint.toString(16).padStart(width, "0");
}

/**
 * Whether a code point is written as an escape: quote, backslash, control characters, DEL, C1 controls,
 * line/paragraph separators, BOM and lone surrogates (so the literal stays on one line and is valid UTF-8
 * source). Also true for every UTF-16 surrogate unit, which `pyString` then reads as code points.
 */
function isPythonEscaped(codePoint: number): boolean {
	return (
		isControlCode(codePoint, { c1: true }) ||
		codePoint === 0x22 ||
		codePoint === 0x5c ||
		codePoint === 0x2028 ||
		codePoint === 0x2029 ||
		codePoint === 0xfeff ||
		(codePoint >= 0xd800 && codePoint <= 0xdfff)
	);
}

/** Escapes one code point for a double-quoted Python string. */
function escapePythonChar(char: string): string {
	const codePoint = char.codePointAt(0) ?? 0;
	if (!isPythonEscaped(codePoint)) return char;
	const simple = PYTHON_SIMPLE_ESCAPES[char];
	if (simple) return simple;
	if (isControlCode(codePoint, { c1: true })) return `\\x${hex(codePoint, 2)}`;
	return `\\u${hex(codePoint, 4)}`;
}

/** A double-quoted Python `str` literal whose value is exactly `value`. */
export function pyString(value: string): string {
	// Most values (ids, prompts) need no escape: checked per UTF-16 unit, written as they are.
	let plain = true;
	for (let i = 0; i < value.length && plain; i++) plain = !isPythonEscaped(value.charCodeAt(i));
	if (plain) return `"${value}"`;
	let out = '"';
	for (const char of value) out += escapePythonChar(char);
	return `${out}"`;
}

/**
 * The text of a Python `#` comment line: line breaks become spaces so that nothing after them can be
 * read as code.
 */
export function pyComment(text: string): string {
	return `# ${commentText(text)}`;
}

/** A JSON-like value as a Python literal (dicts, lists, str, int/float, True/False/None). */
export function pyValue(value: unknown, indent = "", step = "\t"): string {
	if (value === null || value === undefined) return "None";
	if (typeof value === "boolean") return value ? "True" : "False";
	if (typeof value === "number") {
		if (!Number.isFinite(value))
			return value > 0 ? 'float("inf")' : value < 0 ? 'float("-inf")' : 'float("nan")';
		return String(value);
	}
	if (typeof value === "string") return pyString(value);
	const inner = indent + step;
	if (Array.isArray(value)) {
		if (value.length === 0) return "[]";
		return `[\n${value.map((item) => inner + pyValue(item, inner, step)).join(",\n")},\n${indent}]`;
	}
	if (typeof value === "object") {
		const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
		if (entries.length === 0) return "{}";
		return `{\n${entries.map(([k, v]) => `${inner}${pyString(k)}: ${pyValue(v, inner, step)}`).join(",\n")},\n${indent}}`;
	}
	throw new TypeError(`Cannot write a ${typeof value} as a Python literal`);
}

const PYTHON_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Both calls annotated: a bundle that never checks identifiers drops the set and its string.
const PYTHON_KEYWORDS = /* @__PURE__ */ new Set(
	/* @__PURE__ */ "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
		" ",
	),
);

/** Whether `name` can be used as a Python identifier (class name, attribute, keyword argument). */
export function isPyIdentifier(name: string): boolean {
	return PYTHON_IDENTIFIER.test(name) && !PYTHON_KEYWORDS.has(name);
}

/**
 * `name` when it is a safe Python identifier, else `fallback`. Used where metadata supplies a class or
 * module name, which cannot be quoted.
 */
export function pyIdentifier(name: string | undefined, fallback: string): string {
	return name !== undefined && isPyIdentifier(name) ? name : fallback;
}
