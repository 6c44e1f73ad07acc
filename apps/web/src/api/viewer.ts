/**
 * The hub's dataset viewer API (`/datasets-server/…`, the public viewer's shapes): a dataset's splits and
 * a page of a split's rows, all of them, those a search finds or those a `where` clause keeps. With the hub token, so a private
 * dataset's owners see its rows.
 */
import type { ViewerRowsAnswer, ViewerSplitsAnswer } from "@modelhub/hub/api";
import { apiUrl, getJson, type ApiOptions } from "./http";

/** The viewer's page size (`num_rows_per_page`; `length` ≤ 100). */
export const VIEWER_PAGE_ROWS = 100;

export async function viewerSplits(dataset: string, options: ApiOptions = {}): Promise<ViewerSplitsAnswer> {
	const { data } = await getJson<ViewerSplitsAnswer>(
		apiUrl(options.baseUrl, "/datasets-server/splits", { dataset }),
		options,
	);
	return data;
}

/**
 * A page of a split's rows from `offset`: with a `where` clause, the rows it keeps (`/filter`); with a
 * `query`, the rows a search finds (`/search`); else all of them (`/rows`).
 */
export async function viewerRows(
	where: { dataset: string; config: string; split: string; offset: number; query?: string; where?: string },
	options: ApiOptions = {},
): Promise<ViewerRowsAnswer> {
	const query = where.query?.trim();
	const clause = where.where?.trim();
	const path = clause
		? "/datasets-server/filter"
		: query
			? "/datasets-server/search"
			: "/datasets-server/rows";
	const url = apiUrl(options.baseUrl, path, {
		dataset: where.dataset,
		config: where.config,
		split: where.split,
		offset: where.offset,
		length: VIEWER_PAGE_ROWS,
		...(clause ? { where: clause } : query ? { query } : {}),
	});
	const { data } = await getJson<ViewerRowsAnswer>(url, options);
	return data;
}
