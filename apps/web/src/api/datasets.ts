/** The hub's dataset routes; the answers' types are the hub's API contract (`@modelhub/hub/api`). */
import type { DatasetAnswer, DatasetCount, DatasetListParameters } from "@modelhub/hub/api";
import { apiUrl, getJson, repoApi, type ApiOptions } from "./http";

/** What the dataset list filters by (no sort, no paging): also what the count is asked for. */
export type DatasetFilterQuery = Pick<DatasetListParameters, "search" | "author" | "filter">;

export type DatasetQuery = DatasetFilterQuery &
	Pick<DatasetListParameters, "sort" | "direction" | "limit" | "cursor">;

export interface DatasetPage {
	datasets: DatasetAnswer[];
	/** Cursor of the next page; undefined on the last page. */
	nextCursor?: string;
}

type ParameterValue = string | number | string[] | undefined;

function filterParams(query: DatasetFilterQuery): { [Name in keyof DatasetListParameters]?: ParameterValue } {
	return { search: query.search, author: query.author, filter: query.filter };
}

export async function listDatasets(query: DatasetQuery, options: ApiOptions = {}): Promise<DatasetPage> {
	const url = apiUrl(options.baseUrl, "/api/datasets", {
		...filterParams(query),
		sort: query.sort,
		direction: query.direction,
		limit: query.limit,
		cursor: query.cursor,
	} satisfies { [Name in keyof DatasetListParameters]?: ParameterValue });
	const { data, headers } = await getJson<DatasetAnswer[]>(url, options);
	const nextCursor = headers.get("X-Next-Cursor") ?? undefined;
	return { datasets: Array.isArray(data) ? data : [], nextCursor: nextCursor || undefined };
}

/** How many datasets match the filters in all (`GET /api/datasets-count`); `exact` is false past the hub's cap. */
export async function countDatasets(
	query: DatasetFilterQuery,
	options: ApiOptions = {},
): Promise<DatasetCount> {
	const { data } = await getJson<DatasetCount>(
		apiUrl(options.baseUrl, "/api/datasets-count", filterParams(query)),
		options,
	);
	return data;
}

/** Dataset info with each file's size (`blobs=true`: the page shows the total). */
export async function getDataset(id: string, options: ApiOptions = {}): Promise<DatasetAnswer> {
	const url = apiUrl(options.baseUrl, repoApi(id, { repoType: "dataset" }), { blobs: "true" });
	const { data } = await getJson<DatasetAnswer>(url, options);
	return data;
}
