import {
	getDataset,
	listDatasets,
	type DatasetInfoOptions,
	type DatasetListPage,
	type DatasetListQuery,
} from "../datasets/store.js";
import type { DatasetAnswer } from "../api/datasets.js";
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

/** A page of a dataset listing, for `query.viewer`. */
export function datasetPage(context: ReadContext, query: DatasetListQuery): Promise<DatasetListPage> {
	return listDatasets(context.db, query);
}
