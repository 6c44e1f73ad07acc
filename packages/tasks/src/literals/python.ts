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

/** Escapes one code point for a double-quoted Python string. */
function escapePythonChar(char: string): string {
	const simple = PYTHON_SIMPLE_ESCAPES[char];
	if (simple) return simple;
	const codePoint = char.codePointAt(0) ?? 0;
	// Control characters, DEL, C1 controls, line/paragraph separators and lone surrogates are written
	// as escapes so the literal stays on one line and is valid UTF-8 source.
	if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f)) return `\\x${hex(codePoint, 2)}`;
	if (codePoint === 0x2028 || codePoint === 0x2029 || codePoint === 0xfeff) return `\\u${hex(codePoint, 4)}`;
	if (codePoint >= 0xd800 && codePoint <= 0xdfff) return `\\u${hex(codePoint, 4)}`;
	return char;
}

/** A double-quoted Python `str` literal whose value is exactly `value`. */
export function pyString(value: string): string {
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
