/**
 * The hub's dataset viewer API (`/datasets-server/…`, the public viewer's shapes): a dataset's splits and
 * a page of a split's rows, all of them or those matching a search. With the hub token, so a private
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

/** A page of a split's rows from `offset`; with a `query`, the rows a search finds (`/search`). */
export async function viewerRows(
	where: { dataset: string; config: string; split: string; offset: number; query?: string },
	options: ApiOptions = {},
): Promise<ViewerRowsAnswer> {
	const query = where.query?.trim();
	const url = apiUrl(options.baseUrl, query ? "/datasets-server/search" : "/datasets-server/rows", {
		dataset: where.dataset,
		config: where.config,
		split: where.split,
		offset: where.offset,
		length: VIEWER_PAGE_ROWS,
		...(query ? { query } : {}),
	});
	const { data } = await getJson<ViewerRowsAnswer>(url, options);
	return data;
}
