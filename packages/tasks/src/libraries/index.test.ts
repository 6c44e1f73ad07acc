import { describe, expect, it } from "vitest";
import { loadFacts } from "../../../../test-support/facts.js";
import { TASKS_MODEL_LIBRARIES, LIBRARY_TASK_MAPPING } from "../library-to-tasks.js";
import {
	ALL_DISPLAY_MODEL_LIBRARY_KEYS,
	ALL_MODEL_LIBRARY_KEYS,
	MODEL_LIBRARIES_UI_ELEMENTS,
	getLibraryCodeBlocks,
	getLibraryInstallCommand,
	isLibraryDownload,
} from "./index.js";
import { isModelLibraryFamily, loadLibraryEntry, MODEL_LIBRARY_FAMILIES } from "./family-loaders.js";
import { isModelLibraryKey } from "./keys.js";
import type { LibraryUiElement } from "./types.js";

const facts =
	loadFacts<Array<{ key: string; filter: boolean | null; hasSnippets: boolean }>>("libraries.json");

describe("MODEL_LIBRARIES_UI_ELEMENTS", () => {
	it("holds all 130 libraries in catalogue order", () => {
		expect(Object.keys(MODEL_LIBRARIES_UI_ELEMENTS)).toEqual(facts.map((f) => f.key));
		expect(ALL_MODEL_LIBRARY_KEYS).toEqual(facts.map((f) => f.key));
	});

	it("offers exactly the filter-flagged libraries for display", () => {
		expect(ALL_DISPLAY_MODEL_LIBRARY_KEYS).toEqual(facts.filter((f) => f.filter === true).map((f) => f.key));
		expect(ALL_DISPLAY_MODEL_LIBRARY_KEYS).toHaveLength(32);
	});

	it("derives snippets from code blocks for the 80 libraries with generators", () => {
		const withSnippets = Object.entries(MODEL_LIBRARIES_UI_ELEMENTS).filter(
			([, entry]) => typeof (entry as LibraryUiElement).snippets === "function",
		);
		expect(withSnippets.map(([key]) => key)).toEqual(facts.filter((f) => f.hasSnippets).map((f) => f.key));
		for (const [, entry] of withSnippets)
			expect(typeof (entry as LibraryUiElement).codeBlocks).toBe("function");
	});

	it("names only catalogued libraries in the task mappings", () => {
		for (const keys of Object.values(TASKS_MODEL_LIBRARIES))
			for (const key of keys) expect(isModelLibraryKey(key), key).toBe(true);
		for (const key of Object.keys(LIBRARY_TASK_MAPPING)) expect(isModelLibraryKey(key), key).toBe(true);
	});
});

describe("MODEL_LIBRARY_FAMILIES", () => {
	it("loads every catalogue entry in exactly one family, as the catalogue's own object", async () => {
		const seen = new Map<string, string>();
		for (const [family, load] of Object.entries(MODEL_LIBRARY_FAMILIES)) {
			const entries: Readonly<Record<string, LibraryUiElement>> = await load();
			expect(Object.keys(entries).length, family).toBeGreaterThan(0);
			for (const [key, entry] of Object.entries(entries)) {
				expect(seen.get(key), `${key} is in ${family} and ${seen.get(key) ?? ""}`).toBeUndefined();
				seen.set(key, family);
				expect(entry, key).toBe((MODEL_LIBRARIES_UI_ELEMENTS as Record<string, LibraryUiElement>)[key]);
			}
		}
		expect([...seen.keys()].sort()).toEqual([...ALL_MODEL_LIBRARY_KEYS].sort());
	});

	it("loads one entry from its family, and nothing for a key the family lacks", async () => {
		expect(await loadLibraryEntry("audio", "audioseal")).toBe(MODEL_LIBRARIES_UI_ELEMENTS.audioseal);
		expect(await loadLibraryEntry("audio", "transformers")).toBeUndefined();
		expect(await loadLibraryEntry("audio", "__proto__")).toBeUndefined();
	});

	it("tells family names from other strings", () => {
		expect(isModelLibraryFamily("audio")).toBe(true);
		expect(isModelLibraryFamily("rl-tabular")).toBe(true);
		expect(isModelLibraryFamily("no-such-family")).toBe(false);
		expect(isModelLibraryFamily("__proto__")).toBe(false);
	});
});

describe("library helpers", () => {
	const model = {
		id: "acme/demo-model",
		tags: [],
		pipeline_tag: "text-classification" as const,
		inference: "",
	};

	it("give tagged code blocks, and nothing for unknown libraries", () => {
		const blocks = getLibraryCodeBlocks("sentence-transformers", model);
		expect(blocks.length).toBeGreaterThan(0);
		expect(blocks.every((b) => ["python", "shell", "javascript", "csharp"].includes(b.language))).toBe(true);
		expect(getLibraryCodeBlocks("transformers.js", model)[0]?.language).toBe("javascript");
		expect(getLibraryCodeBlocks("no-such-library", model)).toEqual([]);
		expect(getLibraryCodeBlocks("__proto__", model)).toEqual([]);
		expect(getLibraryCodeBlocks("big_vision", model)).toEqual([]);
	});

	it("give install commands where documented", () => {
		expect(getLibraryInstallCommand("transformers")).toMatch(/^pip install/);
		expect(getLibraryInstallCommand("no-such-library")).toBeUndefined();
		expect(getLibraryInstallCommand("constructor")).toBeUndefined();
	});

	it("decide downloads with each library's rule", () => {
		expect(isLibraryDownload("transformers", "config.json")).toBe(true);
		expect(isLibraryDownload("peft", "adapter_config.json")).toBe(true);
		expect(isLibraryDownload("peft", "config.json")).toBe(false);
		expect(isLibraryDownload(undefined, "meta.yaml")).toBe(true);
		expect(isLibraryDownload("__proto__", "config.json")).toBe(true);
	});
});
