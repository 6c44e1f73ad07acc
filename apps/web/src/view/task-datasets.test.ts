import { describe, expect, it } from "vitest";
import { readDatasetListState } from "./dataset-filters";
import {
	catalogueDatasets,
	datasetPageHref,
	TASK_DATASETS_SHOWN,
	taskDatasetsHref,
	taskDatasetsQuery,
} from "./task-datasets";

describe("a task page's datasets", () => {
	it("asks the hub for the datasets tagged with the task, the most downloaded first", () => {
		expect(taskDatasetsQuery("text-classification")).toEqual({
			filter: ["task_categories:text-classification"],
			sort: "downloads",
			direction: -1,
			limit: TASK_DATASETS_SHOWN,
		});
		expect(taskDatasetsQuery("image-to-text", 3).limit).toBe(3);
	});

	it("links the dataset list filtered by the task, as the list page reads it back", () => {
		const href = taskDatasetsHref("question-answering");
		expect(href).toBe("/datasets?task_categories=task_categories%3Aquestion-answering");
		const state = readDatasetListState(new URLSearchParams(href.slice(href.indexOf("?") + 1)));
		expect(state.tags.task_categories).toBe("question-answering");
		// The list's default order, the one the task page asks for.
		expect(state.sort).toBe("downloads");
	});

	it("addresses a dataset's page under /datasets/, each part of the id encoded", () => {
		expect(datasetPageHref("alice/reviews")).toBe("/datasets/alice/reviews");
		expect(datasetPageHref("squad")).toBe("/datasets/squad");
		expect(datasetPageHref("alice/a b")).toBe("/datasets/alice/a%20b");
	});

	it("links the catalogue's datasets the hub holds (ids compared without case, the hub's spelling kept), and only those", () => {
		const catalogue = [
			{ id: "stanfordnlp/imdb", description: "Movie reviews." },
			{ id: "SetFit/emotion", description: "Tweets and emotions." },
		];
		expect(catalogueDatasets(catalogue, [{ id: "setfit/Emotion" }, { id: "alice/reviews" }])).toEqual([
			{ id: "stanfordnlp/imdb", description: "Movie reviews." },
			{ id: "SetFit/emotion", description: "Tweets and emotions.", href: "/datasets/setfit/Emotion" },
		]);
		expect(catalogueDatasets(catalogue, [])).toEqual(catalogue);
		// The catalogue's entries are not changed.
		expect(catalogue[1]).toEqual({ id: "SetFit/emotion", description: "Tweets and emotions." });
	});
});
