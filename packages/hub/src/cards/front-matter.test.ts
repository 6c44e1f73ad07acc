import { describe, expect, it } from "vitest";
import { cardFacts, readFrontMatter } from "./front-matter.js";

describe("model card front matter", () => {
	it("reads the metadata and what it says of the model", () => {
		const front = readFrontMatter(
			"---\nlicense: mit\npipeline_tag: text-generation\nlibrary_name: peft\nlanguage: [en, fr]\ntags:\n- lora\ndatasets: squad\nbase_model: org/base\ndate: 2024-01-02\n---\n# Card\n",
		);
		expect(front.errors).toEqual([]);
		expect(front.data).toMatchObject({ license: "mit", date: "2024-01-02" });
		expect(cardFacts(front.data!)).toEqual({
			pipelineTag: "text-generation",
			libraryName: "peft",
			tags: ["peft", "lora", "en", "fr", "license:mit", "dataset:squad", "base_model:org/base"],
		});
	});

	it("reports invalid YAML, non-mappings, unknown tasks and unclosed blocks as errors; empty metadata as a warning", () => {
		expect(readFrontMatter("---\nlicense: [oops\n---\n").errors[0]).toMatch(/Invalid YAML/);
		expect(readFrontMatter("---\n- a\n- b\n---\n").errors[0]).toMatch(/must be a YAML mapping/);
		expect(readFrontMatter("---\npipeline_tag: dancing\n---\n").errors[0]).toMatch(/pipeline_tag/);
		expect(readFrontMatter("---\nlicense: mit\n").errors[0]).toMatch(/never closed/);
		expect(readFrontMatter("---\n---\n")).toEqual({
			data: undefined,
			errors: [],
			warnings: ["Empty metadata"],
		});
		expect(readFrontMatter("# No metadata")).toEqual({ data: undefined, errors: [], warnings: [] });
		expect(readFrontMatter("---\na: &x [1]\nb: *x\n---\n").data).toEqual({ a: [1], b: [1] });
	});
});

describe("model card front matter under hostile input", () => {
	it("reports repeated keys, in nested and flow mappings too, with their line in the card", () => {
		expect(readFrontMatter("---\na: 1\nb:\n  c: 1\n  c: 2\n---\n").errors).toEqual([
			'Invalid YAML: Map keys must be unique: "c" (line 5)',
		]);
		expect(readFrontMatter("---\na: {x: 1, y: 2, x: 3}\n---\n").errors).toEqual([
			'Invalid YAML: Map keys must be unique: "x" (line 2)',
		]);
		// Equal text in different mappings, or a number and a string, are different keys (as in `yaml`).
		expect(readFrontMatter("---\na: {x: 1}\nb: {x: 1}\n1: a\n'1': b\n---\n").errors).toEqual([]);
	});

	it("bounds the nesting depth and the number of errors reported", () => {
		expect(readFrontMatter(`---\na: ${"{b: ".repeat(5000)}\n---\n`).errors).toEqual([
			"The metadata nests collections deeper than 64 levels",
		]);
		const broken = readFrontMatter(
			`---\n${Array.from({ length: 500 }, (_, i) => `k${i}: [`).join("\n")}\n---\n`,
		);
		expect(broken.errors.length).toBeGreaterThan(0);
		expect(broken.errors.length).toBeLessThanOrEqual(10);
	});
});
