import { describe, expect, it } from "vitest";
import { loadFacts } from "../../../test-support/facts.js";
import { getDefaultModelForTask, renderApiTasks } from "./api-tasks.js";

const facts = loadFacts<{ tasks: Array<{ id: string; status: string; models: string[] }> }>(
	"tasks.json",
).tasks;

describe("renderApiTasks", () => {
	it("serves every task with a page, keyed by id, with models first-choice-first", () => {
		const payload = JSON.parse(JSON.stringify(renderApiTasks()));
		const withData = facts.filter((f) => f.status === "data");
		expect(Object.keys(payload).sort()).toEqual(withData.map((f) => f.id).sort());
		for (const fact of withData) {
			expect(payload[fact.id].models[0].id).toBe(fact.models[0]);
			expect(payload[fact.id].id).toBe(fact.id);
		}
	});

	it("includes placeholders only when asked", () => {
		expect(renderApiTasks()["audio-text-to-text"]).toBeUndefined();
		expect(renderApiTasks({ includePlaceholders: true })["audio-text-to-text"]?.isPlaceholder).toBe(true);
	});
});

describe("getDefaultModelForTask", () => {
	it("returns the first recommended model", () => {
		const fact = facts.find((f) => f.id === "text-classification")!;
		expect(getDefaultModelForTask("text-classification")).toBe(fact.models[0]);
	});

	it("returns undefined for unknown tasks, tasks without a page and placeholders", () => {
		for (const task of [
			"nope",
			"",
			"text2text-generation",
			"audio-text-to-text",
			"__proto__",
			"constructor",
		]) {
			expect(getDefaultModelForTask(task)).toBeUndefined();
		}
	});
});
