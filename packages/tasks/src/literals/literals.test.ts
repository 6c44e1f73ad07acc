import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ADVERSARIAL_TEXTS, parseJsModule, parsePython } from "../../../../test-support/parsers.js";
import { csString } from "./csharp.js";
import { jsComment, jsString, jsValue } from "./javascript.js";
import { jsonText } from "./json.js";
import { pyComment, pyIdentifier, pyString, pyValue } from "./python.js";
import { shComment, shQuote, shWord } from "./shell.js";

const TEXTS = [
	...ADVERSARIAL_TEXTS,
	"plain",
	"org/model-name_v1.5",
	"\ud800 lone surrogate",
	"\u{1F600}\u{10FFFF}",
	"a\u0085b",
];

describe("python literals", () => {
	it("round-trip every text exactly through python3's parser", () => {
		const results = parsePython(TEXTS.map((text) => `x = ${pyString(text)}\n${pyComment(text)}\ny = 1`));
		results.forEach((result, i) => {
			expect(result.ok, JSON.stringify(TEXTS[i])).toBe(true);
			if (result.ok) expect(result.strings).toEqual([TEXTS[i]]);
		});
	});

	it("write JSON-like values as Python literals", () => {
		const value = { a: [1, 2.5, true, false, null], "b'c": { d: TEXTS.join("|") }, e: [] };
		const [result] = parsePython([`x = ${pyValue(value)}`]);
		expect(result!.ok).toBe(true);
		expect(pyValue(value)).toContain("True");
		expect(pyValue(value)).toContain("None");
		expect(pyValue(Infinity)).toBe('float("inf")');
		expect(() => pyValue(() => 1)).toThrow(/Python literal/);
	});

	it("only accept real identifiers as names", () => {
		expect(pyIdentifier("AutoModelForCausalLM", "AutoModel")).toBe("AutoModelForCausalLM");
		for (const bad of ["", "1abc", "a-b", "class", "os.system('x')", "A B", undefined]) {
			expect(pyIdentifier(bad, "Fallback")).toBe("Fallback");
		}
	});
});

describe("javascript literals", () => {
	it("round-trip every text exactly through a module parser", () => {
		for (const text of TEXTS) {
			const code = `const x = ${jsString(text)};\n${jsComment(text)}\nexport default ${jsValue({ text, list: [text] }, "\t")};`;
			const result = parseJsModule(code);
			expect(result.ok, JSON.stringify(text)).toBe(true);
			if (result.ok) expect(result.strings.filter((s) => s === text).length).toBe(3);
		}
	});

	it("keep JSON text parseable", () => {
		for (const text of TEXTS) expect(JSON.parse(jsonText({ text }, 2)).text).toBe(text);
	});
});

describe("shell words", () => {
	it("round-trip every text through bash (NUL bytes cannot be shell arguments)", () => {
		const words = TEXTS.filter((t) => t.isWellFormed());
		const script = words
			.filter((t) => !t.includes("\u0000"))
			.map((text) => `printf '%s\\0' ${shWord(text)} ${shQuote(text)}\n${shComment(text)}`)
			.join("\n");
		const out = execFileSync("bash", ["-c", script]).toString("utf8").split("\0").slice(0, -1);
		const expected = words
			.filter((t) => !t.includes("\u0000"))
			.flatMap((text) => [text.replaceAll("\u0000", ""), text.replaceAll("\u0000", "")]);
		expect(out).toEqual(expected);
		// A NUL cannot reach bash at all; the builder drops it and keeps the rest of the word.
		expect(shQuote("a\u0000b")).toBe("'ab'");
		expect(shComment("a\u0000b\nc")).toBe("# a b c");
	});

	it("leave safe words bare and quote the rest", () => {
		expect(shWord("org/model_v1.5")).toBe("org/model_v1.5");
		expect(shWord("-rf")).toBe("'-rf'");
		expect(shWord("")).toBe("''");
		expect(shWord("a b")).toBe("'a b'");
		expect(shQuote("it's")).toBe("'it'\\''s'");
	});
});

describe("C# strings", () => {
	it("escape quotes, backslashes and control characters", () => {
		expect(csString('a"b\\c\nd')).toBe('"a\\"b\\\\c\\u000ad"');
		expect(csString("東京🤗")).toBe('"東京🤗"');
	});
});
