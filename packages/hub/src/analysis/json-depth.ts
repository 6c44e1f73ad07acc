/**
 * How deeply a JSON text nests, found by one pass over its bytes before any parser sees it: formats
 * with a fixed shape (a safetensors header nests 3 deep) refuse deeper text without building it.
 */

import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from "./json-bytes.js";

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
