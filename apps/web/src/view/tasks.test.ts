import { describe, expect, it } from "vitest";
import { MODALITIES, PIPELINE_DATA, TASKS_DATA } from "@modelhub/tasks";
import { allTaskCards, buildTaskIndex, resolveTaskPage as resolve, taskCards, taskGroups } from "./tasks";

const index = buildTaskIndex(TASKS_DATA);
const resolveTaskPage = (id: string) => resolve(id, index);

describe("task groups", () => {
	it("puts every task page in its modality's group, in catalogue order", () => {
		const cards = allTaskCards(taskCards(TASKS_DATA), index);
		expect(cards.find((card) => card.id === "summarization")?.summary).toBe(
			TASKS_DATA.summarization?.summary,
		);
		const pages = Object.values(TASKS_DATA).filter(Boolean);
		expect(cards).toHaveLength(pages.length);
		const groups = taskGroups(cards);
		expect(groups.map((group) => group.modality)).toEqual(
			MODALITIES.filter((m) => groups.some((g) => g.modality === m)),
		);
		for (const group of groups) {
			for (const task of group.tasks) expect(PIPELINE_DATA[task.id].modality).toBe(group.modality);
		}
		expect(groups.reduce((sum, group) => sum + group.tasks.length, 0)).toBe(cards.length);
		expect(cards.find((card) => card.id === "audio-text-to-text")?.placeholder).toBe(true);
	});
});

describe("resolveTaskPage", () => {
	it("shows a page and notes its canonical type", () => {
		const summarization = resolveTaskPage("summarization");
		expect(summarization.kind).toBe("page");
		if (summarization.kind === "page") {
			expect(summarization.canonical).toEqual({ id: "text2text-generation", label: "Text2Text Generation" });
		}
		const tts = resolveTaskPage("text-to-speech");
		expect(tts.kind === "page" && tts.canonical?.id).toBe("text-to-audio");
		const plain = resolveTaskPage("object-detection");
		expect(plain.kind === "page" && plain.canonical).toBeUndefined();
	});

	it("points a canonical type without a page to the pages that use it", () => {
		const text2text = resolveTaskPage("text2text-generation");
		expect(text2text.kind).toBe("alias");
		if (text2text.kind === "alias") {
			expect(text2text.pages.map((page) => page.id).sort()).toEqual(["summarization", "translation"]);
			expect(text2text.pages[0]?.label).toBeTruthy();
		}
		const audio = resolveTaskPage("text-to-audio");
		expect(audio.kind === "alias" && audio.pages.map((page) => page.id)).toEqual(["text-to-speech"]);
	});

	it("knows unknown ids and pageless pipeline types apart", () => {
		expect(resolveTaskPage("no-such-task")).toEqual({ kind: "none", id: "no-such-task" });
		expect(resolveTaskPage("graph-ml")).toEqual({
			kind: "none",
			id: "graph-ml",
			label: "Graph Machine Learning",
		});
		expect(resolveTaskPage("__proto__").kind).toBe("none");
	});
});
