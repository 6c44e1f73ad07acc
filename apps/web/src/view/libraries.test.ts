import { describe, expect, it } from "vitest";
import {
	MODEL_LIBRARIES_UI_ELEMENTS,
	MODEL_LIBRARY_FAMILIES,
	loadLibraryEntry,
	type LibraryUiElement,
} from "@modelhub/tasks";
import {
	familiesOf,
	filterLibraries,
	libraryIndex,
	libraryRows,
	sortLibraries,
	type LibraryEntryLike,
	type LibraryIndex,
} from "./libraries";

const entries = MODEL_LIBRARIES_UI_ELEMENTS as Record<string, LibraryUiElement>;
const catalogue: LibraryIndex = libraryIndex(entries, await familiesOf(MODEL_LIBRARY_FAMILIES));

describe("the library index", () => {
	it("has every library in catalogue order, without generators, each with the family that has its entry", async () => {
		expect(Object.keys(catalogue)).toEqual(Object.keys(entries));
		for (const [key, indexed] of Object.entries(catalogue)) {
			const entry = entries[key];
			expect(await loadLibraryEntry(indexed.family, key), key).toBe(entry);
			expect(indexed.hasSnippets, key).toBe(typeof entry?.codeBlocks === "function");
			expect(indexed.prettyLabel, key).toBe(entry?.prettyLabel);
			expect(indexed.installCommand, key).toBe(entry?.installCommand);
			expect(indexed.countDownloads, key).toBe(entry?.countDownloads);
			expect(indexed.docsUrl, key).toBe(entry?.docsUrl);
			expect(indexed.filter, key).toBe(entry?.filter === true);
			// What the build writes as a module: plain data.
			expect(JSON.parse(JSON.stringify(indexed)), key).toEqual(indexed);
		}
	});

	it("refuses a library in no family or in two", async () => {
		const one: Record<string, LibraryEntryLike> = {
			a: { prettyLabel: "A", repoName: "a", repoUrl: "https://a" },
		};
		expect(() => libraryIndex(one, new Map())).toThrow("The library a is in no family of the catalogue.");
		const twice = { ...MODEL_LIBRARY_FAMILIES, nlp: MODEL_LIBRARY_FAMILIES.transformers };
		await expect(familiesOf(twice)).rejects.toThrow(/is in two families: transformers and nlp/);
	});
});

describe("library rows", () => {
	it("builds one row per catalogue entry, with hub counts where known", () => {
		const rows = libraryRows(catalogue, new Map([["transformers", 12]]));
		expect(rows).toHaveLength(Object.keys(catalogue).length);
		const transformers = rows.find((row) => row.key === "transformers");
		expect(transformers).toMatchObject({ prettyLabel: "Transformers", modelCount: 12, hasSnippets: true });
		expect(rows.find((row) => row.key !== "transformers")?.modelCount).toBeUndefined();
	});

	it("filters on every word, case-insensitively, across label, key and repository", () => {
		const rows = libraryRows(catalogue);
		const found = filterLibraries(rows, "TRANSFORMERS sentence");
		expect(found.map((row) => row.key)).toContain("sentence-transformers");
		expect(
			found.every((row) =>
				`${row.prettyLabel} ${row.key} ${row.repoName}`.toLowerCase().includes("sentence"),
			),
		).toBe(true);
		expect(filterLibraries(rows, "   ")).toHaveLength(rows.length);
		expect(filterLibraries(rows, "zzzz-no-such")).toEqual([]);
	});

	it("sorts by label, count and filter flag in both directions", () => {
		const rows = libraryRows(
			{
				b: { prettyLabel: "Beta", repoName: "b", repoUrl: "https://b", filter: true, hasSnippets: true },
				a: { prettyLabel: "alpha", repoName: "a", repoUrl: "https://a", filter: false, hasSnippets: false },
				c: { prettyLabel: "Gamma", repoName: "c", repoUrl: "https://c", filter: true, hasSnippets: false },
			},
			new Map([
				["a", 5],
				["c", 9],
			]),
		);
		expect(sortLibraries(rows, "prettyLabel", "ascending").map((row) => row.key)).toEqual(["a", "b", "c"]);
		expect(sortLibraries(rows, "prettyLabel", "descending").map((row) => row.key)).toEqual(["c", "b", "a"]);
		expect(sortLibraries(rows, "modelCount", "descending").map((row) => row.key)).toEqual(["c", "a", "b"]);
		expect(sortLibraries(rows, "filter", "descending").map((row) => row.key)).toEqual(["b", "c", "a"]);
	});
});
