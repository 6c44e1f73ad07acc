import { describe, expect, it } from "vitest";
import {
	datasetChips,
	datasetFilterQuery,
	datasetListQuery,
	datasetTagLinks,
	patchDatasetListState,
	readDatasetListState,
	writeDatasetListState,
} from "./dataset-filters";

const names = { task: (id: string) => `T(${id})` };

describe("the dataset list's URL state", () => {
	it("reads the public hub's parameters (prefixed or bare values) and writes them back prefixed, without defaults", () => {
		const state = readDatasetListState(
			new URLSearchParams(
				"search=reviews&task_categories=task_categories:text-classification&modality=image&format=format:csv&size_categories=size_categories:n<1K&license=license:mit&author=alice&tag=library:pandas&sort=likes&cursor=abc",
			),
		);
		expect(state).toEqual({
			search: "reviews",
			author: "alice",
			tags: {
				task_categories: "text-classification",
				modality: "image",
				format: "csv",
				size_categories: "n<1K",
				license: "mit",
			},
			otherTags: ["library:pandas"],
			sort: "likes",
			cursor: "abc",
		});
		expect(writeDatasetListState(state).toString()).toBe(
			"search=reviews&task_categories=task_categories%3Atext-classification&modality=modality%3Aimage&format=format%3Acsv&size_categories=size_categories%3An%3C1K&license=license%3Amit&author=alice&tag=library%3Apandas&sort=likes&cursor=abc",
		);
		// The default sort and empty values stay out; an unknown sort is the default.
		expect(writeDatasetListState(readDatasetListState(new URLSearchParams("sort=nope"))).toString()).toBe("");
	});

	it("asks the hub for tags (AND), restarts paging on any change, names every chip", () => {
		const state = patchDatasetListState(readDatasetListState(new URLSearchParams("cursor=abc")), {
			tags: { format: "parquet", modality: "text" },
			author: " bob ",
		});
		expect(state.cursor).toBe("");
		expect(datasetFilterQuery(state)).toEqual({ author: "bob", filter: ["modality:text", "format:parquet"] });
		expect(datasetListQuery({ ...state, sort: "id" }, 20)).toMatchObject({
			sort: "id",
			direction: 1,
			limit: 20,
		});
		expect(datasetListQuery(state, 20)).toMatchObject({ sort: "downloads", direction: -1 });
		const chips = datasetChips({ ...state, tags: { ...state.tags, task_categories: "translation" } }, names);
		expect(chips.map((chip) => chip.label)).toEqual([
			"Task: T(translation)",
			"Modality: Text",
			"Format: Parquet",
			"Author: bob",
		]);
		const [task] = chips;
		expect(patchDatasetListState(state, task!.without).tags.task_categories).toBe("");
	});

	it("links each tag of a dataset to the list filtered by it", () => {
		const links = datasetTagLinks(
			["task_categories:translation", "format:json", "language:fr", "reviews"],
			names,
		);
		expect(links).toEqual([
			{
				tag: "task_categories:translation",
				kind: "Task",
				label: "T(translation)",
				href: "/datasets?task_categories=task_categories%3Atranslation",
			},
			{ tag: "format:json", kind: "Format", label: "JSON", href: "/datasets?format=format%3Ajson" },
			{ tag: "language:fr", kind: "language", label: "fr", href: "/datasets?tag=language%3Afr" },
			{ tag: "reviews", label: "reviews", href: "/datasets?tag=reviews" },
		]);
	});
});
