import { existsSync, readFileSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadFacts } from "../../../../test-support/facts.js";
import { TASKS_MODEL_LIBRARIES } from "../library-to-tasks.js";
import { isModelLibraryKey } from "../libraries/keys.js";
import { PIPELINE_DATA, PIPELINE_TYPES, isPipelineType } from "../pipelines.js";
import { DEMO_ASSETS_PATH } from "../demo-assets.js";
import { TASKS_DATA } from "./index.js";
import type { ExampleRepo, TaskData, TaskDemoEntry } from "./types.js";

interface TaskFact {
	id: string;
	status: "data" | "placeholder" | "undefined";
	label: string;
	datasets: string[];
	metrics: string[];
	models: string[];
	spaces: string[];
	widgetModels: string[];
	youtubeId?: string;
	canonicalId?: string;
	isPlaceholder?: boolean;
	keysPresentWithValueUndefined?: string[];
	demo: { inputs: DemoSkeleton[]; outputs: DemoSkeleton[] };
}
type DemoSkeleton = {
	type: TaskDemoEntry["type"];
	label?: string;
	labels?: string[];
	columns?: string[];
	dataRows?: number;
	tokenTypes?: string[];
};

const facts = loadFacts<{ tasks: TaskFact[] }>("tasks.json").tasks;
const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const tasks = Object.values(TASKS_DATA).filter((t): t is TaskData => t !== undefined);

function sentences(text: string): number {
	return text.split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/).filter((s) => s.trim() !== "").length;
}

describe("TASKS_DATA", () => {
	it("has one key per pipeline type, in the catalogue order of the facts", () => {
		expect(Object.keys(TASKS_DATA)).toEqual(facts.map((f) => f.id));
		expect(new Set(Object.keys(TASKS_DATA))).toEqual(new Set(PIPELINE_TYPES));
	});

	it.each(facts)("$id matches the facts ($status)", (fact) => {
		const task = TASKS_DATA[fact.id as keyof typeof TASKS_DATA];
		if (fact.status === "undefined") {
			expect(task).toBeUndefined();
			return;
		}
		expect(task).toBeDefined();
		const t = task!;
		expect(t.id).toBe(fact.id);
		expect(t.label).toBe(fact.label);
		expect(t.label).toBe(PIPELINE_DATA[t.id].name);
		expect(t.libraries).toEqual(TASKS_MODEL_LIBRARIES[t.id]);
		for (const list of ["datasets", "metrics", "models", "spaces"] as const) {
			expect(
				t[list].map((x) => x.id),
				list,
			).toEqual(fact[list]);
		}
		expect(t.widgetModels).toEqual(fact.widgetModels);
		for (const key of ["youtubeId", "canonicalId", "isPlaceholder"] as const) {
			const presentUndefined = fact.keysPresentWithValueUndefined?.includes(key) ?? false;
			expect(key in t, `${key} present`).toBe(key in fact || presentUndefined);
			expect(t[key], key).toEqual(fact[key]);
		}
	});

	it("writes a specific description for every listed repository and metric", () => {
		for (const task of tasks) {
			const items: ExampleRepo[] = [...task.datasets, ...task.metrics, ...task.models, ...task.spaces];
			for (const item of items) {
				const where = `${task.id}: ${JSON.stringify(item.id)}`;
				expect(item.description.trim().length, where).toBeGreaterThanOrEqual(20);
				expect(item.description.length, where).toBeLessThanOrEqual(400);
				expect(sentences(item.description), where).toBeLessThanOrEqual(3);
			}
		}
	});

	it("has a summary for every real task, and none for the placeholder", () => {
		for (const task of tasks) {
			if (task.isPlaceholder) expect(task.summary).toBe("");
			else {
				expect(task.summary.length, task.id).toBeGreaterThan(40);
				expect(sentences(task.summary), task.id).toBeLessThanOrEqual(3);
			}
		}
	});

	it("has no duplicate ids within a list", () => {
		for (const task of tasks) {
			for (const list of [task.datasets, task.metrics, task.models, task.spaces]) {
				const ids = list.map((x) => x.id);
				expect(new Set(ids).size, task.id).toBe(ids.length);
			}
		}
	});

	it("uses well-formed ids: repositories as owner/name or a legacy bare name", () => {
		const repoId = /^(?:[A-Za-z0-9][\w.-]*\/)?[\w.-]+$/;
		for (const task of tasks) {
			for (const item of [...task.models, ...task.spaces]) expect(item.id, task.id).toMatch(repoId);
			for (const item of task.datasets) if (item.id !== "") expect(item.id, task.id).toMatch(repoId);
			for (const model of task.widgetModels) if (model !== "") expect(model, task.id).toMatch(repoId);
		}
	});

	it("names only known libraries and resolvable canonical ids", () => {
		for (const task of tasks) {
			for (const library of task.libraries) expect(isModelLibraryKey(library), library).toBe(true);
			if (task.canonicalId !== undefined) {
				// The canonical targets (text2text-generation, text-to-audio) are pipeline types with no page
				// of their own: the web app shows the canonical pipeline's name and links back to this page.
				expect(isPipelineType(task.canonicalId)).toBe(true);
			}
		}
	});
});

describe("task demos", () => {
	const entries = tasks.flatMap((task) =>
		[...task.demo.inputs, ...task.demo.outputs].map((entry) => ({ task: task.id, entry })),
	);

	it("use all six entry kinds across the catalogue", () => {
		expect(new Set(entries.map((e) => e.entry.type))).toEqual(
			new Set(["img", "audio", "text", "chart", "tabular", "text-with-tokens"]),
		);
	});

	it.each(facts.filter((f) => f.status === "data"))("$id follows the demo skeleton of the facts", (fact) => {
		const demo = TASKS_DATA[fact.id as keyof typeof TASKS_DATA]!.demo;
		for (const side of ["inputs", "outputs"] as const) {
			expect(
				demo[side].map((e) => e.type),
				side,
			).toEqual(fact.demo[side].map((e) => e.type));
			demo[side].forEach((entry, i) => {
				const skeleton = fact.demo[side][i]!;
				if (entry.type === "text" && skeleton.label) expect(entry.label).toBe(skeleton.label);
				if (entry.type === "chart" && skeleton.labels)
					expect(entry.data.map((d) => d.label)).toEqual(skeleton.labels);
				if (entry.type === "tabular" && skeleton.columns) {
					expect(entry.table[0]).toEqual(skeleton.columns);
					expect(entry.table.length - 1).toBe(skeleton.dataRows);
				}
				if (entry.type === "text-with-tokens" && skeleton.tokenTypes) {
					expect([...new Set(entry.tokens.map((t) => t.type))].sort()).toEqual(
						[...new Set(skeleton.tokenTypes)].sort(),
					);
				}
			});
		}
	});

	it("have token offsets that index their text exactly, in order and without overlap", () => {
		for (const { task, entry } of entries) {
			if (entry.type !== "text-with-tokens") continue;
			let previousEnd = 0;
			for (const token of entry.tokens) {
				expect(Number.isInteger(token.start) && Number.isInteger(token.end), task).toBe(true);
				expect(token.start, task).toBeGreaterThanOrEqual(previousEnd);
				expect(token.end, task).toBeGreaterThan(token.start);
				expect(token.end, task).toBeLessThanOrEqual(entry.text.length);
				const slice = entry.text.slice(token.start, token.end);
				expect(slice.trim(), `${task}: token ${JSON.stringify(slice)} has edge spaces`).toBe(slice);
				previousEnd = token.end;
			}
		}
	});

	it("have charts with scores in [0, 1], best first, and rectangular tables", () => {
		for (const { task, entry } of entries) {
			if (entry.type === "chart") {
				expect(entry.data.length, task).toBeGreaterThan(0);
				for (const { score } of entry.data) expect(score >= 0 && score <= 1, task).toBe(true);
				const scores = entry.data.map((d) => d.score);
				expect(scores, task).toEqual([...scores].sort((a, b) => b - a));
			}
			if (entry.type === "tabular") {
				const width = entry.table[0]!.length;
				for (const row of entry.table) expect(row.length, task).toBe(width);
			}
			if (entry.type === "text") expect(entry.content.trim().length, task).toBeGreaterThan(0);
		}
	});

	it("ship their own small media files, safe to serve", () => {
		for (const { task, entry } of entries) {
			if (entry.type !== "img" && entry.type !== "audio") continue;
			expect(entry.filename, task).toMatch(/^[a-z0-9][a-z0-9-]*\.(svg|wav)$/);
			const file = join(packageRoot, DEMO_ASSETS_PATH, entry.filename);
			expect(existsSync(file), `${task}: ${entry.filename} is missing`).toBe(true);
			const size = statSync(file).size;
			if (entry.type === "img") {
				expect(entry.filename.endsWith(".svg"), task).toBe(true);
				expect(size, `${entry.filename} size`).toBeLessThanOrEqual(12 * 1024);
				const svg = readFileSync(file, "utf8");
				expect(svg, entry.filename).toMatch(/<svg[^>]*viewBox=/);
				expect(svg, entry.filename).toMatch(/<title[^>]*>[^<]+<\/title>/);
				expect(svg, entry.filename).not.toMatch(
					/<script|javascript:|on[a-z]+=|href="(?!#)|xlink:href="(?!#)|@import|url\((?!#)/i,
				);
			} else {
				const header = readFileSync(file).subarray(0, 44);
				expect(header.toString("ascii", 0, 4), entry.filename).toBe("RIFF");
				expect(header.toString("ascii", 8, 12), entry.filename).toBe("WAVE");
				expect(size, `${entry.filename} size`).toBeLessThanOrEqual(200 * 1024);
			}
		}
	});
});
