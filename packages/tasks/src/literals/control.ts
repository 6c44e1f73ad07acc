/**
 * The C0 control characters and DEL (U+0000–U+001F, U+007F): what no id, path, ref, name, tag or
 * quoted message may carry. Declared once here; every check and clean-up derives from it.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this names
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** True when the text holds a control character. */
export function hasControlCharacter(text: string): boolean {
	CONTROL_CHARACTERS.lastIndex = 0;
	return CONTROL_CHARACTERS.test(text);
}

/**
 * True when the text holds a control character other than a line break or tab (commit messages and
 * other multi-line text keep those).
 */
export function hasControlCharacterBesidesLines(text: string): boolean {
	return hasControlCharacter(text.replace(/[\t\n\r]/g, ""));
}

/** The text with each control character replaced (by `?` in a quoted value, a space in a message). */
export function replaceControlCharacters(text: string, replacement: string): string {
	return text.replace(CONTROL_CHARACTERS, replacement);
}
