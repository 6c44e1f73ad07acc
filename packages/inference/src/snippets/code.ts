/**
 * Turns data into source text for the three snippet languages. Every string, number and key goes
 * through the literal builders of `@modelhub/tasks`, so no inserted value can end its literal early;
 * this module only adds layout (indentation, commas) and "holes" — marker strings that stand for a
 * piece of code (a variable holding a file's base64, an environment lookup) instead of a value.
 */
import * as literals from "@modelhub/tasks/literals";

/** One indentation step in every generated snippet. */
export const INDENT = "    ";

/**
 * Marker strings for values the snippet computes at run time. They travel through the client's
 * request builder like any string (so the body keeps the client's exact shape) and are swapped for
 * code when written. The NUL bytes keep them apart from any text a caller could mean to show.
 */
export const FILE_BASE64 = "\u0000modelhub-snippet:file-base64\u0000";
export const FILE_DATA_URL = "\u0000modelhub-snippet:file-data-url\u0000";
export const FILE_BLOB = "\u0000modelhub-snippet:file-blob\u0000";

/** Marker → code, for one language. */
export type Holes = Readonly<Record<string, string>>;

const NO_HOLES: Holes = {};
const INLINE_ARRAY_MAX = 72;
const JS_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function isScalar(value: unknown): boolean {
	return value === null || (typeof value !== "object" && typeof value !== "function");
}

function hasOwnHole(holes: Holes, value: string): boolean {
	return Object.prototype.hasOwnProperty.call(holes, value);
}

/** Writes `items` inline when they are short scalars, else one per line. */
function layoutList(
	open: string,
	close: string,
	items: string[],
	allScalar: boolean,
	indent: string,
): string {
	if (items.length === 0) return `${open}${close}`;
	const inline = items.join(", ");
	if (allScalar && inline.length <= INLINE_ARRAY_MAX && !inline.includes("\n"))
		return `${open}${inline}${close}`;
	const inner = indent + INDENT;
	return `${open}\n${items.map((item) => `${inner}${item},`).join("\n")}\n${indent}${close}`;
}

function definedEntries(value: object): Array<[string, unknown]> {
	return Object.entries(value).filter(([, v]) => v !== undefined);
}

/** A JSON-like value as a Python expression, continuing at `indent`. */
export function py(value: unknown, indent = "", holes: Holes = NO_HOLES): string {
	if (typeof value === "string")
		return hasOwnHole(holes, value) ? (holes[value] as string) : literals.pyString(value);
	if (isScalar(value)) return literals.pyValue(value);
	const inner = indent + INDENT;
	if (Array.isArray(value)) {
		const items = value.map((item) => py(item, inner, holes));
		return layoutList("[", "]", items, value.every(isScalar), indent);
	}
	const entries = definedEntries(value as object);
	if (entries.length === 0) return "{}";
	const lines = entries.map(([key, item]) => `${inner}${literals.pyString(key)}: ${py(item, inner, holes)},`);
	return `{\n${lines.join("\n")}\n${indent}}`;
}

/** Keyword arguments `key=value,` one per line at `indent`; keys that are not identifiers go through `**{}`. */
export function pyKwargs(args: Record<string, unknown>, indent: string, holes: Holes = NO_HOLES): string[] {
	const lines: string[] = [];
	const odd: Record<string, unknown> = {};
	for (const [key, value] of definedEntries(args)) {
		if (literals.isPyIdentifier(key)) lines.push(`${indent}${key}=${py(value, indent, holes)},`);
		else odd[key] = value;
	}
	if (Object.keys(odd).length > 0) lines.push(`${indent}**${py(odd, indent, holes)},`);
	return lines;
}

/** An object key in JS: bare when it is an identifier, else a string literal. */
export function jsKey(key: string): string {
	return JS_IDENTIFIER.test(key) ? key : literals.jsString(key);
}

/** A JSON-like value as a JS expression (object-literal style), continuing at `indent`. */
export function js(value: unknown, indent = "", holes: Holes = NO_HOLES): string {
	if (typeof value === "string")
		return hasOwnHole(holes, value) ? (holes[value] as string) : literals.jsString(value);
	if (isScalar(value)) return literals.jsValue(value);
	const inner = indent + INDENT;
	if (Array.isArray(value)) {
		const items = value.map((item) => js(item, inner, holes));
		return layoutList("[", "]", items, value.every(isScalar), indent);
	}
	const entries = definedEntries(value as object);
	if (entries.length === 0) return "{}";
	const lines = entries.map(([key, item]) => `${inner}${jsKey(key)}: ${js(item, inner, holes)},`);
	return `{\n${lines.join("\n")}\n${indent}}`;
}

/**
 * Pretty JSON text continuing at `indent`, laid out like `py` and `js` (short scalar arrays on one
 * line). Leaves are written by `jsonText`, so strings never hold a raw line break.
 */
export function json(value: unknown, indent = ""): string {
	if (isScalar(value)) return literals.jsonText(value);
	const inner = indent + INDENT;
	if (Array.isArray(value)) {
		const items = value.map((item) => json(item === undefined ? null : item, inner));
		if (items.length === 0) return "[]";
		const inline = items.join(", ");
		if (value.every(isScalar) && inline.length <= INLINE_ARRAY_MAX) return `[${inline}]`;
		return `[\n${items.map((item) => inner + item).join(",\n")}\n${indent}]`;
	}
	const entries = definedEntries(value as object);
	if (entries.length === 0) return "{}";
	const lines = entries.map(([key, item]) => `${inner}${literals.jsonText(key)}: ${json(item, inner)}`);
	return `{\n${lines.join(",\n")}\n${indent}}`;
}

// ---- String concatenation with one run-time part (tokens read from the environment) ----

/** `prefix` + `expression` + `suffix` as a Python f-string (no f-string when there is no text around it). */
export function pyConcat(prefix: string, expression: string, suffix: string): string {
	if (!prefix && !suffix) return expression;
	const part = (text: string) => literals.pyString(text).slice(1, -1).replace(/[{}]/g, "$&$&");
	return `f"${part(prefix)}{${expression}}${part(suffix)}"`;
}

/** `prefix` + `expression` + `suffix` as a JS template literal. */
export function jsConcat(prefix: string, expression: string, suffix: string): string {
	if (!prefix && !suffix) return expression;
	const part = (text: string) =>
		literals.jsString(text).slice(1, -1).replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
	return `\`${part(prefix)}\${${expression}}${part(suffix)}\``;
}

/**
 * One shell word made of `prefix`, the value of environment variable `name`, and `suffix`:
 * `"Authorization: Bearer $HF_TOKEN"`. The fixed text is escaped for double quotes.
 */
export function shConcatEnv(prefix: string, name: string, suffix: string): string {
	const part = (text: string) => text.replaceAll("\u0000", "").replace(/[\\"$`]/g, "\\$&");
	const reference = /^[A-Za-z0-9_]/.test(suffix) ? `\${${name}}` : `$${name}`;
	return `"${part(prefix)}${reference}${part(suffix)}"`;
}
