/**
 * The control characters, declared once: the C0 controls and DEL (U+0000–U+001F, U+007F) are what no id,
 * path, ref, name, tag or quoted message may carry; the C1 controls (U+0080–U+009F) are added where text
 * goes into source code or YAML. Every check, escape and clean-up derives from these two ranges.
 */
const C0_LAST = 0x1f;
const DEL = 0x7f;
const C1_FIRST = 0x80;
const C1_LAST = 0x9f;

const isC0OrDel = (code: number) => code <= C0_LAST || code === DEL;

/** True for a C0 control or DEL; with `c1`, for a C1 control too. */
export function isControlCode(code: number, options: { c1?: boolean } = {}): boolean {
	return isC0OrDel(code) || (options.c1 === true && code >= C1_FIRST && code <= C1_LAST);
}

/** What {@link controlCharacterPattern} matches besides the plain C0 and DEL set. */
export interface ControlPatternOptions {
	/** The C1 controls too. */
	c1?: boolean;
	/** Control characters left out of the set (a tab or line breaks that the text may keep). */
	except?: string;
	/** Characters added to the set (line separators, BOM, non-characters). */
	also?: string;
	/** Match a run of them, not one at a time. */
	run?: boolean;
}

const escapeCode = (code: number) => `\\u${code.toString(16).padStart(4, "0")}`;

/**
 * A global regex for the control characters the options name. Built from {@link isControlCode} rather than
 * written out, so that each variant (comment text, YAML's printable set) is the one rule less or plus a few.
 */
export function controlCharacterPattern(options: ControlPatternOptions = {}): RegExp {
	let set = "";
	for (let code = 0; code <= C1_LAST; code++) {
		if (isControlCode(code, options) && !options.except?.includes(String.fromCharCode(code)))
			set += escapeCode(code);
	}
	for (const char of options.also ?? "") set += escapeCode(char.charCodeAt(0));
	return new RegExp(`[${set}]${options.run ? "+" : ""}`, "g");
}

// The three plain checks walk the text with isControlCode instead of building a pattern at module load:
// a module-level call is kept by bundlers whether or not it is used, and it carried the pattern builder
// into every inference bundle (chatCompletion alone: 8,062 → 8,287 B gzip, packages/inference/bench/bundle).
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** True when the text holds a control character. */
export function hasControlCharacter(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		if (isC0OrDel(text.charCodeAt(index))) return true;
	}
	return false;
}

/**
 * True when the text holds a control character other than a line break or tab (commit messages and
 * other multi-line text keep those).
 */
export function hasControlCharacterBesidesLines(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (isC0OrDel(code) && code !== TAB && code !== LF && code !== CR) return true;
	}
	return false;
}

/** The text with each control character replaced (by `?` in a quoted value, a space in a message). */
export function replaceControlCharacters(text: string, replacement: string): string {
	let clean = "";
	for (const char of text) clean += isC0OrDel(char.charCodeAt(0)) ? replacement : char;
	return clean;
}
