/** The layout helpers of snippets/code.ts: adversarial keys, values and fixed text around environment lookups. */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
	ADVERSARIAL_TEXTS,
	bashSyntaxErrors,
	parseJsModule,
	parsePython,
	shellWords,
} from "../../../../test-support/parsers.js";
import {
	FILE_BASE64,
	js,
	jsConcat,
	json,
	py,
	pyConcat,
	pyKwargs,
	shConcatEnv,
} from "../../src/snippets/code.js";

const noNul = (text: string) => text.replaceAll("\u0000", "");

/** A value with adversarial keys and strings at every depth. */
function nested(text: string): Record<string, unknown> {
	return {
		[text]: text,
		list: [text, 1.5, true, null, { [`k ${text}`]: [text] }],
		plain: { inputs: text, empty: {}, none: [] },
	};
}

describe("values", () => {
	it("py / js / json keep every key and string of a nested value", () => {
		const python = ADVERSARIAL_TEXTS.map(
			(text) =>
				`value = ${py(nested(text))}\nfile = ${py([FILE_BASE64], "", { [FILE_BASE64]: "image_base64" })}`,
		);
		const results = parsePython(python);
		ADVERSARIAL_TEXTS.forEach((text, index) => {
			const result = results[index];
			expect(result?.ok, text).toBe(true);
			if (result?.ok) expect(result.strings).toEqual(expect.arrayContaining([text, `k ${text}`, "inputs"]));
		});
		for (const text of ADVERSARIAL_TEXTS) {
			const code = js(nested(text), "    ");
			expect(parseJsModule(`const value = ${code};`).ok, text).toBe(true);
			// Evaluating the literal is the full round trip (acorn's walker does not report property keys).
			expect(new Function(`return ${code};`)(), text).toEqual(nested(text));
			expect(JSON.parse(json(nested(text), "    "))).toEqual(nested(text));
		}
	});

	it("holes become code, and only whole-string matches do", () => {
		const holes = { [FILE_BASE64]: "image_base64" };
		expect(py({ image: FILE_BASE64, other: `x${FILE_BASE64}` }, "", holes)).toBe(
			`{\n    "image": image_base64,\n    "other": "x\\x00modelhub-snippet:file-base64\\x00",\n}`,
		);
		expect(js({ image: FILE_BASE64 }, "", holes)).toBe("{\n    image: image_base64,\n}");
	});

	it("short scalar lists stay on one line, long ones wrap", () => {
		expect(py({ labels: ["a", "b"] })).toBe('{\n    "labels": ["a", "b"],\n}');
		expect(js(["x".repeat(80)])).toBe(`[\n    "${"x".repeat(80)}",\n]`);
		expect(json({ labels: ["a", "b"] })).toBe('{\n    "labels": ["a", "b"]\n}');
	});

	it("keyword arguments that are not identifiers go through **{}", () => {
		expect(pyKwargs({ model: "m", "not-an-id": 1, class: 2 }, "")).toEqual([
			'model="m",',
			'**{\n    "not-an-id": 1,\n    "class": 2,\n},',
		]);
	});
});

describe("fixed text around an environment lookup", () => {
	it("python f-strings, JS template literals and shell double quotes keep the text exactly", () => {
		const python = ADVERSARIAL_TEXTS.map(
			(text) => `import os\nvalue = ${pyConcat(text, "os.environ['HF_TOKEN']", `${text}!`)}`,
		);
		const pyResults = parsePython(python);
		const shell = ADVERSARIAL_TEXTS.map((text) => `echo ${shConcatEnv(text, "HF_TOKEN", `${text}x`)}`);
		const bash = bashSyntaxErrors(shell);
		const words = shellWords(shell);
		ADVERSARIAL_TEXTS.forEach((text, index) => {
			const result = pyResults[index];
			expect(result?.ok, text).toBe(true);
			if (result?.ok && text) expect(result.strings).toEqual(expect.arrayContaining([text, `${text}!`]));

			const jsResult = parseJsModule(`const value = ${jsConcat(text, "process.env.HF_TOKEN", `${text}!`)};`);
			expect(jsResult.ok, text).toBe(true);
			if (jsResult.ok) expect(jsResult.strings).toEqual(expect.arrayContaining([text, `${text}!`]));

			expect(bash[index], text).toBeNull();
			expect(words[index]?.ok, text).toBe(true);
			// What bash really makes of the word, with the variable set.
			const printed = execFileSync("bash", ["-c", `printf %s ${shConcatEnv(text, "HF_TOKEN", `${text}x`)}`], {
				env: { ...process.env, HF_TOKEN: "hf_secret" },
			}).toString("utf8");
			expect(printed, text).toBe(`${noNul(text)}hf_secret${noNul(text)}x`);
		});
	});

	it("no text around the lookup gives the plain expression", () => {
		expect(pyConcat("", "os.environ['X']", "")).toBe("os.environ['X']");
		expect(jsConcat("", "process.env.X", "")).toBe("process.env.X");
		expect(shConcatEnv("Authorization: Bearer ", "HF_TOKEN", "")).toBe('"Authorization: Bearer $HF_TOKEN"');
		expect(shConcatEnv("", "HF_TOKEN", "_x")).toBe('"${HF_TOKEN}_x"');
	});
});
