import { describe, expect, it } from "vitest";
import { loadFacts } from "../../../test-support/facts.js";
import { MAPPING_DEFAULT_WIDGET } from "./default-widget-inputs.js";
import type { WidgetExample } from "./libraries/types.js";
import type { WidgetType } from "./pipelines.js";

interface WidgetFacts {
	count: number;
	kind: string;
	fields?: string[];
	multiClassValues?: boolean[];
	sentencesPerExample?: number[];
	tableColumns?: string[];
	srcUrls?: string[];
}

interface MappingFacts {
	languages: string[];
	widgetTypesInAnyLanguage: string[];
	perLanguage: Record<string, Record<string, WidgetFacts>>;
}

const facts = loadFacts<{ MAPPING_DEFAULT_WIDGET: MappingFacts }>("tasks.json").MAPPING_DEFAULT_WIDGET;

/** The facts name the audio label `label`; in a WidgetExample it is `example_title`. */
const FIELD_NAMES: Record<string, string> = { label: "example_title" };

const DEMO_AUDIO_SRC = "/assets/demo/automatic-speech-recognition-input.wav";

function collectStrings(value: unknown, out: string[] = []): string[] {
	if (typeof value === "string") {
		out.push(value);
	} else if (Array.isArray(value)) {
		for (const item of value) collectStrings(item, out);
	} else if (value && typeof value === "object") {
		for (const [key, item] of Object.entries(value)) {
			out.push(key);
			collectStrings(item, out);
		}
	}
	return out;
}

function countOccurrences(text: string, needle: string): number {
	return text.split(needle).length - 1;
}

describe("MAPPING_DEFAULT_WIDGET", () => {
	it("holds the languages of the facts, in order", () => {
		expect([...MAPPING_DEFAULT_WIDGET.keys()]).toEqual(facts.languages);
	});

	it("uses only widget types known to the facts", () => {
		const used = new Set([...MAPPING_DEFAULT_WIDGET.values()].flatMap((m) => [...m.keys()]));
		for (const type of used) expect(facts.widgetTypesInAnyLanguage).toContain(type);
	});

	for (const lang of facts.languages) {
		describe(lang, () => {
			const expected = facts.perLanguage[lang] ?? {};
			const mapping = MAPPING_DEFAULT_WIDGET.get(lang);

			it("has the widget types of the facts, in order", () => {
				expect(mapping).toBeDefined();
				expect([...(mapping?.keys() ?? [])]).toEqual(Object.keys(expected));
			});

			for (const [type, spec] of Object.entries(expected)) {
				it(`${type}: ${spec.count} example(s) of kind "${spec.kind}"`, () => {
					const examples = mapping?.get(type as WidgetType) ?? [];
					expect(examples).toHaveLength(spec.count);

					if (spec.kind === "object") {
						const fields = (spec.fields ?? []).map((f) => FIELD_NAMES[f] ?? f);
						for (const [i, example] of (examples as WidgetExample[]).entries()) {
							expect(typeof example).toBe("object");
							expect(Object.keys(example).sort()).toEqual([...fields].sort());

							if (fields.includes("context")) {
								expect(typeof example.text).toBe("string");
								expect(example.context?.trim()).toBeTruthy();
							}
							if (spec.multiClassValues) {
								expect(example.multi_class).toBe(spec.multiClassValues[i]);
							}
							if (fields.includes("candidate_labels")) {
								const labels = (example.candidate_labels ?? "").split(",").map((l) => l.trim());
								expect(labels.length).toBeGreaterThan(1);
								for (const label of labels) expect(label).not.toBe("");
							}
							if (spec.sentencesPerExample) {
								expect(typeof example.source_sentence).toBe("string");
								expect(example.sentences).toHaveLength(spec.sentencesPerExample[i] ?? -1);
							}
							if (spec.tableColumns) {
								const table = example.table ?? {};
								expect(Object.keys(table)).toEqual(spec.tableColumns);
								const rows = Object.values(table).map((cells) => cells.length);
								expect(rows[0]).toBeGreaterThan(0);
								expect(new Set(rows).size).toBe(1);
							}
							if (spec.srcUrls) {
								expect(example.src).toBe(DEMO_AUDIO_SRC);
							}
						}
					} else {
						for (const example of examples) expect(typeof example).toBe("string");
						if (spec.kind.includes("<mask>")) {
							for (const example of examples as string[]) {
								expect(countOccurrences(example, "<mask>")).toBe(1);
							}
						}
					}
				});
			}

			it("has no empty strings", () => {
				for (const text of collectStrings([...(mapping?.values() ?? [])])) {
					expect(text.trim()).not.toBe("");
				}
			});
		});
	}
});
