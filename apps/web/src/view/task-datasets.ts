/**
 * A task page's datasets: the hub's own datasets filed under the task (a dataset card's `task_categories`,
 * which the hub turns into `task_categories:{task}` tags: `GET /api/datasets?filter=task_categories:…`),
 * the link to the dataset list filtered by it, and the catalogue's suggested datasets, linked to their
 * pages when this hub holds them. Plain functions, unit-tested.
 */
import type { ExampleRepo } from "@modelhub/tasks";
import { repoId, repoPagePath } from "@modelhub/tasks/repositories";
import type { DatasetQuery } from "../api/datasets";
import {
	datasetListQuery,
	patchDatasetListState,
	readDatasetListState,
	writeDatasetListState,
} from "./dataset-filters";

/** How many of the hub's datasets a task page shows (the list page has them all). */
export const TASK_DATASETS_SHOWN = 10;

function taskState(task: string) {
	return patchDatasetListState(readDatasetListState(new URLSearchParams()), {
		tags: { task_categories: task },
	});
}

/** The hub query of a task's datasets: tagged with the task, the most downloaded first. */
export function taskDatasetsQuery(task: string, limit = TASK_DATASETS_SHOWN): DatasetQuery {
	return datasetListQuery(patchDatasetListState(taskState(task), { sort: "downloads" }), limit);
}

/** The dataset list filtered by the task, as the public hub writes it (`/datasets?task_categories=task_categories:…`). */
export function taskDatasetsHref(task: string): string {
	return `/datasets?${writeDatasetListState(taskState(task)).toString()}`;
}

/** A dataset's page on this hub (`/datasets/{id}`). */
export function datasetPageHref(id: string): string {
	return repoPagePath(repoId("dataset", id));
}

/**
 * The catalogue's datasets for a task, each with the address of its page when the hub holds it (among
 * `held`, compared as the hub compares ids: without regard to case), under the hub's spelling of the id.
 */
export function catalogueDatasets(
	catalogue: readonly ExampleRepo[],
	held: ReadonlyArray<{ id: string }>,
): Array<ExampleRepo & { href?: string }> {
	const byId = new Map(held.map((dataset) => [dataset.id.toLowerCase(), dataset.id]));
	return catalogue.map((repo) => {
		const id = byId.get(repo.id.toLowerCase());
		return id === undefined ? { ...repo } : { ...repo, href: datasetPageHref(id) };
	});
}
