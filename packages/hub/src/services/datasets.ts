import {
	countDatasets,
	getDataset,
	listDatasets,
	type DatasetFilters,
	type DatasetInfoOptions,
	type DatasetListPage,
	type DatasetListQuery,
} from "../datasets/store.js";
import type { DatasetAnswer } from "../api/datasets.js";
import { ANONYMOUS } from "../accounts/viewer.js";
import type { ReadContext } from "./models.js";

/**
 * Reading datasets: their info and listings. The store applies the viewer's rights in its SQL (a private
 * dataset appears only to readers of its namespace), so each read names who asks.
 */

export type { DatasetListQuery } from "../datasets/store.js";

/** One dataset as `GET /api/datasets/{id}` shows it, or undefined when it is missing or hidden from the viewer. */
export function datasetInfo(
	context: ReadContext,
	id: string,
	options: DatasetInfoOptions,
): Promise<DatasetAnswer | undefined> {
	return getDataset(context.db, id, options);
}

/** One dataset as the public sees it (pages are rendered for anyone): undefined when missing or private. */
export function publicDatasetInfo(
	context: ReadContext,
	id: string,
	options: Omit<DatasetInfoOptions, "viewer">,
): Promise<DatasetAnswer | undefined> {
	return getDataset(context.db, id, { ...options, viewer: ANONYMOUS });
}

/** A page of a dataset listing, for `query.viewer`. */
export function datasetPage(context: ReadContext, query: DatasetListQuery): Promise<DatasetListPage> {
	return listDatasets(context.db, query);
}

/** How many datasets `filters` match for their viewer, up to `cap` (`exact: false` past it). */
export function datasetCount(
	context: ReadContext,
	filters: DatasetFilters,
	cap: number,
): Promise<{ count: number; exact: boolean }> {
	return countDatasets(context.db, filters, cap);
}
