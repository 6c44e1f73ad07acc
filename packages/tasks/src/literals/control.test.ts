import { describe, expect, it } from "vitest";
import { commentText } from "./comment.js";
import { hasControlCharacter, hasControlCharacterBesidesLines, isControlCode } from "./control.js";

/** The code points up to U+FFFF a test matches, as inclusive ranges. */
function ranges(matches: (char: string) => boolean): [number, number][] {
	const out: [number, number][] = [];
	for (let code = 0; code <= 0xffff; code++) {
		if (code >= 0xd800 && code <= 0xdfff) continue;
		if (!matches(String.fromCharCode(code))) continue;
		const last = out.at(-1);
		if (last && last[1] === code - 1) last[1] = code;
		else out.push([code, code]);
	}
	return out;
}

describe("the control-character rule", () => {
	it("is C0 and DEL, with C1 when asked", () => {
		expect(ranges((c) => isControlCode(c.charCodeAt(0)))).toEqual([
			[0x00, 0x1f],
			[0x7f, 0x7f],
		]);
		expect(ranges((c) => isControlCode(c.charCodeAt(0), { c1: true }))).toEqual([
			[0x00, 0x1f],
			[0x7f, 0x9f],
		]);
		expect(ranges(hasControlCharacter)).toEqual([
			[0x00, 0x1f],
			[0x7f, 0x7f],
		]);
	});

	it("keeps tab, LF and CR in multi-line text", () => {
		expect(ranges(hasControlCharacterBesidesLines)).toEqual([
			[0x00, 0x08],
			[0x0b, 0x0c],
			[0x0e, 0x1f],
			[0x7f, 0x7f],
		]);
	});

	it("gives comment text every control but the tab, and the line separators", () => {
		expect(ranges((c) => commentText(`a${c}b`) !== `a${c}b`)).toEqual([
			[0x00, 0x08],
			[0x0a, 0x1f],
			[0x7f, 0x9f],
			[0x2028, 0x2029],
		]);
		expect(commentText("a\u0001\u0085\u2028\nb\tc")).toBe("a b\tc");
	});
});
