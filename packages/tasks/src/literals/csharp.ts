import { isControlCode } from "./control.js";

/** A regular (non-verbatim) C# string literal whose value is exactly `value`. */
export function csString(value: string): string {
	let out = '"';
	for (const char of value) {
		const code = char.codePointAt(0) ?? 0;
		if (char === "\\") out += "\\\\";
		else if (char === '"') out += '\\"';
		else if (isControlCode(code) || code === 0x85 || code === 0x2028 || code === 0x2029)
			out += `\\u${code.toString(16).padStart(4, "0")}`;
		else if (code > 0xffff) out += char;
		else if (code >= 0xd800 && code <= 0xdfff) out += `\\u${code.toString(16)}`;
		else out += char;
	}
	return `${out}"`;
}
