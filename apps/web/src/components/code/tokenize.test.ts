import { describe, expect, it } from "vitest";
import { normalizeLanguage, tokenize, type Token } from "./tokenize";

const typed = (tokens: Token[], type: Token["type"]) =>
	tokens.filter((token) => token.type === type).map((token) => token.text);

describe("tokenize", () => {
	it("python: comments, strings (prefixed, triple-quoted), keywords and numbers", () => {
		const code = [
			"from transformers import pipeline  # load it",
			'pipe = pipeline("text-classification", model=f"org/{name}")',
			"x = 3.5e-2 + 0x1F",
			'doc = """multi',
			'line "quoted" text"""',
			"if x is None: pass",
		].join("\n");
		const tokens = tokenize(code, "python");
		expect(tokens.map((token) => token.text).join("")).toBe(code);
		expect(typed(tokens, "comment")).toEqual(["# load it"]);
		expect(typed(tokens, "string")).toEqual([
			'"text-classification"',
			'f"org/{name}"',
			'"""multi\nline "quoted" text"""',
		]);
		expect(typed(tokens, "keyword")).toEqual(
			expect.arrayContaining(["from", "import", "if", "is", "None", "pass"]),
		);
		expect(typed(tokens, "number")).toEqual(["3.5e-2", "0x1F"]);
	});

	it("python: a keyword inside a longer name is plain text, escaped quotes stay in the string", () => {
		const tokens = tokenize('iffy = "a \\" b"\nformat = 1', "python");
		expect(typed(tokens, "keyword")).toEqual([]);
		expect(typed(tokens, "string")).toEqual(['"a \\" b"']);
	});

	it("js: line and block comments, template literals, keywords", () => {
		const code = 'import { x } from "y";\n/* block\ncomment */ const n = 42; // tail\nconst s = `a ${n} b`;';
		const tokens = tokenize(code, "javascript");
		expect(tokens.map((token) => token.text).join("")).toBe(code);
		expect(typed(tokens, "comment")).toEqual(["/* block\ncomment */", "// tail"]);
		expect(typed(tokens, "string")).toEqual(['"y"', "`a ${n} b`"]);
		expect(typed(tokens, "keyword")).toEqual(["import", "from", "const", "const"]);
		expect(typed(tokens, "number")).toEqual(["42"]);
	});

	it("sh: comments only at word starts, quoting rules, flags are not numbers", () => {
		const code =
			"# install\npip install -U 'transformers>=4' # pin\ncurl https://x/y#frag -H \"Authorization: Bearer $TOKEN\" -d 2";
		const tokens = tokenize(code, "sh");
		expect(tokens.map((token) => token.text).join("")).toBe(code);
		expect(typed(tokens, "comment")).toEqual(["# install", "# pin"]);
		expect(typed(tokens, "string")).toEqual(["'transformers>=4'", '"Authorization: Bearer $TOKEN"']);
		expect(typed(tokens, "number")).toEqual(["2"]);
	});

	it("json: strings, numbers (negative too) and literals", () => {
		const code = '{"a": -1.5, "b": [true, null], "c": "x\\"y"}';
		const tokens = tokenize(code, "json");
		expect(typed(tokens, "string")).toEqual(['"a"', '"b"', '"c"', '"x\\"y"']);
		expect(typed(tokens, "number")).toEqual(["-1.5"]);
		expect(typed(tokens, "keyword")).toEqual(["true", "null"]);
	});

	it("unterminated strings and comments run to the end without losing text", () => {
		for (const [code, language] of [
			['x = "open', "python"],
			["/* open", "js"],
			["echo 'open", "sh"],
			['{"open', "json"],
		] as const) {
			expect(
				tokenize(code, language)
					.map((token) => token.text)
					.join(""),
			).toBe(code);
		}
	});

	it("always gives back the input exactly (random text in every language)", () => {
		let seed = 7;
		const random = () => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed / 2 ** 31;
		};
		const alphabet = "ab1 .#/*\"'`\\\n\t{}$-_=rfx0eE+";
		for (let round = 0; round < 400; round++) {
			let code = "";
			const length = Math.floor(random() * 60);
			for (let i = 0; i < length; i++) code += alphabet[Math.floor(random() * alphabet.length)];
			for (const language of ["python", "js", "sh", "json", "csharp"]) {
				const tokens = tokenize(code, language);
				expect(tokens.map((token) => token.text).join("")).toBe(code);
				expect(tokens.every((token) => token.text.length > 0)).toBe(true);
			}
		}
	});

	it("maps language names", () => {
		expect(normalizeLanguage("shell")).toBe("sh");
		expect(normalizeLanguage("JavaScript")).toBe("js");
		expect(normalizeLanguage("py")).toBe("python");
		expect(normalizeLanguage("csharp")).toBeUndefined();
		expect(tokenize("var x = 1;", "csharp")).toEqual([{ type: "text", text: "var x = 1;" }]);
	});
});
