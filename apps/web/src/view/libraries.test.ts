import { describe, expect, it } from "vitest";
import { MODEL_LIBRARIES_UI_ELEMENTS } from "@modelhub/tasks";
import { filterLibraries, libraryRows, sortLibraries, type LibraryEntryLike } from "./libraries";

const catalogue = MODEL_LIBRARIES_UI_ELEMENTS as unknown as Record<string, LibraryEntryLike>;

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
				b: { prettyLabel: "Beta", repoName: "b", repoUrl: "https://b", filter: true },
				a: { prettyLabel: "alpha", repoName: "a", repoUrl: "https://a" },
				c: { prettyLabel: "Gamma", repoName: "c", repoUrl: "https://c", filter: true },
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
