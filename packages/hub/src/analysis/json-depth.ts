/**
 * How deeply a JSON text nests, found by one pass over its bytes before any parser sees it: formats
 * with a fixed shape (a safetensors header nests 3 deep) refuse deeper text without building it.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** The deepest nesting of objects and arrays in the text (brackets inside strings do not count). */
export function jsonNestingDepth(bytes: Uint8Array): number {
	let depth = 0;
	let deepest = 0;
	let inString = false;
	for (let i = 0; i < bytes.length; i++) {
		const byte = bytes[i];
		if (inString) {
			if (byte === BACKSLASH) i++;
			else if (byte === QUOTE) inString = false;
		} else if (byte === QUOTE) inString = true;
		else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
			depth++;
			if (depth > deepest) deepest = depth;
		} else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
	}
	return deepest;
}
