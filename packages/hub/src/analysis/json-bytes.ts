/**
 * The bytes of JSON's syntax (RFC 8259 §2: structural characters, the string quote and escape,
 * whitespace), declared once for the byte scanners that look at JSON text before a parser does
 * (json-depth.ts, sliced-json.ts). Plain numeric constants: the scanners compare every byte of texts up to
 * tens of megabytes against them.
 */

export const QUOTE = 0x22; // "
export const BACKSLASH = 0x5c; // \
export const OPEN_OBJECT = 0x7b; // {
export const CLOSE_OBJECT = 0x7d; // }
export const OPEN_ARRAY = 0x5b; // [
export const CLOSE_ARRAY = 0x5d; // ]
export const COMMA = 0x2c; // ,
export const COLON = 0x3a; // :

/** JSON's whitespace (RFC 8259 §2): space, tab, line feed, carriage return. */
export function isJsonSpace(byte: number | undefined): boolean {
	return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** Where JSON text in `bytes` starts: after a UTF-8 byte order mark (EF BB BF), when there is one. */
export function afterByteOrderMark(bytes: Uint8Array): number {
	return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}
