import { describe, expect, it } from "vitest";
import { loadFacts } from "../../../../test-support/facts.js";
import { ADVERSARIAL_TEXTS } from "../../../../test-support/parsers.js";
import { PIPELINE_TYPES, type PipelineType } from "../pipelines.js";
import type { ModelDataMinimal } from "../libraries/types.js";
import {
	CONVERSATIONAL_IMAGE_EXAMPLE_URL,
	CONVERSATIONAL_TEXT_EXAMPLE,
	NO_INPUT_EXAMPLE_TEXT,
	PIPELINES_WITH_INPUT_EXAMPLE,
	getModelInputExample,
	getModelInputSnippet,
	stringifyMessages,
	type ChatCompletionInputMessage,
} from "./inputs.js";

const facts = loadFacts<{
	snippetInputExamples: {
		pipelinesWithExample: string[];
		pipelinesWithoutExample: string[];
		fallbackText: string;
	};
}>("tasks.json").snippetInputExamples;

const model = (pipeline_tag?: PipelineType, extra: Partial<ModelDataMinimal> = {}): ModelDataMinimal => ({
	id: "acme/demo",
	tags: [],
	pipeline_tag,
	...extra,
});

describe("getModelInputSnippet", () => {
	it("has an example for exactly the pipelines of the facts", () => {
		expect(new Set(PIPELINES_WITH_INPUT_EXAMPLE)).toEqual(new Set(facts.pipelinesWithExample));
		for (const pipeline of facts.pipelinesWithoutExample) {
			expect(getModelInputSnippet(model(pipeline as PipelineType))).toBe(facts.fallbackText);
		}
		expect(NO_INPUT_EXAMPLE_TEXT).toBe(facts.fallbackText);
	});

	it("falls back when the model has no task or an unknown one", () => {
		expect(getModelInputSnippet(model())).toBe(NO_INPUT_EXAMPLE_TEXT);
		expect(getModelInputSnippet(model("nonsense" as PipelineType))).toBe(NO_INPUT_EXAMPLE_TEXT);
	});

	it("returns strings as JSON string literals and objects as pretty JSON", () => {
		const asr = getModelInputSnippet(model("automatic-speech-recognition"));
		expect(asr).toBe('"sample1.flac"');
		expect(getModelInputSnippet(model("image-classification"))).toBe('"cats.jpg"');
		const qa = getModelInputSnippet(model("question-answering")) as string;
		expect(Object.keys(JSON.parse(qa))).toEqual(["question", "context"]);
		expect(qa).toContain('\n    "question"');
		const tqa = JSON.parse(getModelInputSnippet(model("table-question-answering")) as string);
		expect(Object.keys(tqa.table)).toEqual(["Repository", "Stars", "Contributors", "Programming language"]);
		for (const column of Object.values(tqa.table) as string[][]) {
			expect(column).toHaveLength(3);
			for (const cell of column) expect(typeof cell).toBe("string");
		}
		const similarity = JSON.parse(getModelInputSnippet(model("sentence-similarity")) as string);
		expect(similarity.sentences).toHaveLength(3);
		const tabular = getModelInputSnippet(model("tabular-regression")) as string;
		expect(tabular.startsWith("'") && tabular.endsWith("'")).toBe(true);
		expect(Object.keys(JSON.parse(tabular.slice(1, -1)))).toEqual([
			"Height",
			"Length1",
			"Length2",
			"Species",
		]);
		const doc = JSON.parse(getModelInputSnippet(model("document-question-answering")) as string);
		expect(doc.image).toBe("cat.png");
		expect(getModelInputSnippet(model("visual-question-answering"))).toBe(NO_INPUT_EXAMPLE_TEXT);
	});

	it("builds chat messages for conversational models only", () => {
		const text = getModelInputSnippet(model("text-generation", { tags: ["conversational"] }));
		expect(text).toEqual([{ role: "user", content: CONVERSATIONAL_TEXT_EXAMPLE }]);
		const vision = getModelInputSnippet(
			model("image-text-to-text", { tags: ["conversational"] }),
		) as ChatCompletionInputMessage[];
		expect(vision[0]!.content).toEqual([
			{ type: "text", text: "Describe this image in one sentence." },
			{ type: "image_url", image_url: { url: CONVERSATIONAL_IMAGE_EXAMPLE_URL } },
		]);
		expect(typeof getModelInputSnippet(model("text-generation"))).toBe("string");
		expect(getModelInputSnippet(model("text-generation", { tags: ["conversational"] }), true, true)).toEqual(
			text,
		);
	});

	it("splices the model's mask token safely, and never writes 'undefined'", () => {
		expect(getModelInputSnippet(model("fill-mask", { mask_token: "<mask>" }))).toContain("<mask>");
		expect(getModelInputSnippet(model("fill-mask"))).not.toContain("undefined");
		for (const token of ADVERSARIAL_TEXTS) {
			const out = getModelInputSnippet(model("fill-mask", { mask_token: token })) as string;
			expect(JSON.parse(out)).toContain(token);
		}
	});

	it("applies noWrap and noQuotes to strings", () => {
		const qa = getModelInputSnippet(model("question-answering"), true) as string;
		expect(qa).not.toMatch(/[\n\t]/);
		expect(JSON.parse(qa)).toEqual(JSON.parse(getModelInputSnippet(model("question-answering")) as string));
		expect(getModelInputSnippet(model("image-classification"), false, true)).toBe("cats.jpg");
		expect(getModelInputSnippet(model("question-answering"), false, true)).toMatch(/^\{/);
	});

	it("gives structured examples for every pipeline that has one", () => {
		for (const pipeline of PIPELINE_TYPES) {
			const example = getModelInputExample(model(pipeline));
			expect(example === undefined, pipeline).toBe(!PIPELINES_WITH_INPUT_EXAMPLE.includes(pipeline));
		}
	});
});

describe("stringifyMessages", () => {
	const messages: ChatCompletionInputMessage[] = [{ role: "user", content: "Hi" }];

	it("writes JS object style by default and keeps key quotes on request", () => {
		expect(stringifyMessages(messages)).toBe('[\n\t{\n\t\trole: "user",\n\t\tcontent: "Hi"\n\t}\n]');
		expect(stringifyMessages(messages, { attributeKeyQuotes: true })).toBe(
			JSON.stringify(messages, null, "\t"),
		);
	});

	it("indents continuation lines and runs the escaper last", () => {
		const out = stringifyMessages(messages, {
			indent: "  ",
			customContentEscaper: (s) => s.replace(/"/g, "'"),
		});
		expect(out.split("\n")[1]).toBe("  \t{");
		expect(out).not.toContain('"');
	});

	it("keeps adversarial content a valid literal", () => {
		for (const content of ADVERSARIAL_TEXTS) {
			const text = stringifyMessages([{ role: "user", content }], { attributeKeyQuotes: true });
			expect(JSON.parse(text)[0].content).toBe(content);
		}
	});
});
