/**
 * File names as git prints them in a diff (quote.c, `core.quotePath` at its default): as they are, or, when
 * a byte is a control character, DEL, `"`, `\` or non-ASCII, in double quotes with C escapes and every
 * other such byte in octal (`"a/caf\303\251.txt"`). The hub writes them; the web app reads them back.
 */

/** git's one-letter escapes in a quoted name (quote.c's `cq_lookup`), by byte. */
const ESCAPE_OF_BYTE: Readonly<Record<number, string>> = {
	0x07: "a",
	0x08: "b",
	0x09: "t",
	0x0a: "n",
	0x0b: "v",
	0x0c: "f",
	0x0d: "r",
	0x22: '"',
	0x5c: "\\",
};
const BYTE_OF_ESCAPE: Readonly<Record<string, number>> = Object.fromEntries(
	Object.entries(ESCAPE_OF_BYTE).map(([byte, letter]) => [letter, Number(byte)]),
);

const needsQuote = (byte: number): boolean => byte < 0x20 || byte >= 0x7f || byte === 0x22 || byte === 0x5c;

/** `name` as git prints it: unchanged, or quoted when one of its UTF-8 bytes needs it. */
export function quoteGitPath(name: string): string {
	const bytes = new TextEncoder().encode(name);
	if (!bytes.some(needsQuote)) return name;
	let quoted = '"';
	for (const byte of bytes) {
		const escape = ESCAPE_OF_BYTE[byte];
		if (escape !== undefined) quoted += `\\${escape}`;
		else if (byte < 0x20 || byte >= 0x7f) quoted += `\\${byte.toString(8).padStart(3, "0")}`;
		else quoted += String.fromCharCode(byte);
	}
	return `${quoted}"`;
}

/**
 * The name a quoted one holds, read from `text[start]` (just after its opening `"`) to its closing `"`:
 * C escapes and octal bytes read back, as UTF-8.
 */
export function unquoteGitPath(text: string, start: number): string {
	const bytes: number[] = [];
	const encoder = new TextEncoder();
	for (let i = start; i < text.length && text[i] !== '"'; i++) {
		const char = text[i]!;
		if (char !== "\\") {
			bytes.push(...encoder.encode(char));
			continue;
		}
		const octal = /^[0-7]{3}/.exec(text.slice(i + 1, i + 4));
		if (octal) {
			bytes.push(Number.parseInt(octal[0], 8));
			i += 3;
		} else {
			bytes.push(BYTE_OF_ESCAPE[text[i + 1] ?? ""] ?? 0x5c);
			i += 1;
		}
	}
	return new TextDecoder().decode(new Uint8Array(bytes));
}
