/**
 * A YAML emitter for JSON values (model card front matter), block style. Strings stay plain only when
 * no YAML 1.1 or 1.2 reader could take them for anything else (a number, a date, a boolean such as
 * `no`); everything else is double-quoted, with every character a YAML reader may refuse escaped.
 */

import { controlCharacterPattern } from "@modelhub/tasks/literals";

const PLAIN = /^[A-Za-z][A-Za-z0-9._/+-]*$/;
// Words YAML 1.1 readers (PyYAML among them) resolve to booleans or null.
const RESERVED = /^(y|n|yes|no|on|off|true|false|null)$/i;

/**
 * Characters outside YAML's printable set (every C0, DEL and C1 control but tab, LF and CR; BOM and the
 * non-characters U+FFFE, U+FFFF), plus line separators that YAML 1.1 treats as breaks.
 */
const ESCAPE = controlCharacterPattern({
	c1: true,
	except: "\t\n\r",
	also: "\u2028\u2029\ufeff\ufffe\uffff",
});

function quote(text: string): string {
	return JSON.stringify(text).replace(
		ESCAPE,
		(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
	);
}

function scalar(value: unknown): string {
	if (value === null || value === undefined) return "null";
	if (typeof value === "boolean") return value ? "true" : "false";
	if (typeof value === "number") {
		if (!Number.isFinite(value)) throw new Error("YAML front matter cannot hold a non-finite number");
		return JSON.stringify(value);
	}
	const text = String(value);
	return PLAIN.test(text) && !RESERVED.test(text) ? text : quote(text);
}

function key(text: string): string {
	return PLAIN.test(text) && !RESERVED.test(text) ? text : quote(text);
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function lines(value: unknown, indent: string): string[] {
	if (Array.isArray(value)) {
		if (value.length === 0) return [`${indent}[]`];
		return value.flatMap((item) => {
			if ((isObject(item) && Object.keys(item).length > 0) || (Array.isArray(item) && item.length > 0)) {
				const [first, ...rest] = lines(item, `${indent}  `);
				return [`${indent}- ${(first as string).trimStart()}`, ...rest];
			}
			return [`${indent}- ${inline(item)}`];
		});
	}
	if (isObject(value)) {
		const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
		if (entries.length === 0) return [`${indent}{}`];
		return entries.flatMap(([name, entry]) => {
			if ((isObject(entry) && Object.keys(entry).length > 0) || (Array.isArray(entry) && entry.length > 0)) {
				return [`${indent}${key(name)}:`, ...lines(entry, `${indent}  `)];
			}
			return [`${indent}${key(name)}: ${inline(entry)}`];
		});
	}
	return [`${indent}${scalar(value)}`];
}

function inline(value: unknown): string {
	if (Array.isArray(value)) return "[]";
	if (isObject(value)) return "{}";
	return scalar(value);
}

/** A JSON object as a YAML document (no `---` markers). */
export function toYaml(value: Record<string, unknown>): string {
	return `${lines(value, "").join("\n")}\n`;
}
