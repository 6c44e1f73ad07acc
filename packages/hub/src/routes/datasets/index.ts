import type { FastifyInstance } from "fastify";
import type { DatasetListParameters } from "../../api/datasets.js";
import {
	DATASET_FULL_LIST_PROPERTIES,
	DATASET_LIST_PROPERTIES,
	isDatasetProperty,
} from "../../datasets/properties.js";
import { REPO_TYPE_URLS } from "../../repo-identity.js";
import { datasetCount, datasetPage, type DatasetListQuery } from "../../services/datasets.js";
import { DATASET_EXPAND_PROPERTIES, type DatasetProperty } from "../../vocabulary.js";
import {
	addExpanded,
	cachedCountRoute,
	cachedListRoute,
	expandValues,
	listAuthor,
	listCursor,
	listFilters,
	listGated,
	listPaging,
	MAX_SEARCH_VALUES,
	searchTerms,
	type ParsedListing,
} from "../list-query.js";
import { upstreamListing } from "../mirror.js";
import type { ModelRoutesOptions } from "../models/context.js";
import { flag, invalidParameter, many, type RawQuery } from "../query.js";

/** The dataset listing's path, from the table of repository types (`/api/datasets`). */
export const DATASET_LIST_PATH = `/api/${REPO_TYPE_URLS.dataset.api}`;

/**
 * Reads what huggingface_hub's list_datasets sends (2.0 and 1.33): `search` (repeated when it also names
 * `dataset_name`: the words of all must occur), `filter` (its `language=`, `task_categories=`, … become
 * `key:value` filters), `author`, `gated`, `sort`, `direction`, `limit`, `full`, `expand`.
 */
export function parseDatasetListQuery(
	q: RawQuery<keyof DatasetListParameters>,
): ParsedListing<Omit<DatasetListQuery, "viewer">> {
	const canonical = new URLSearchParams();
	const searches = many(q, "search", MAX_SEARCH_VALUES);
	const terms = searchTerms(searches.length > 0 ? searches.join(" ") : undefined, canonical);
	const filters = listFilters(q, canonical);
	const author = listAuthor(q, canonical);
	const gated = listGated(q, canonical);
	const { sort, direction, limit } = listPaging(q, canonical);

	const full = flag(q, "full") === true;
	const expand = expandValues(q, DATASET_EXPAND_PROPERTIES);
	if (full && expand.length > 0) throw invalidParameter("expand", "cannot be used with full");
	if (full) canonical.set("full", "true");
	// `expand` answers with exactly the properties it names (huggingface_hub: "… to return
	// specific properties"), as the public hub does.
	const properties = new Set<DatasetProperty>(
		expand.length > 0 ? [] : full ? DATASET_FULL_LIST_PROPERTIES : DATASET_LIST_PROPERTIES,
	);
	addExpanded(expand, properties, isDatasetProperty, DATASET_EXPAND_PROPERTIES, canonical);

	const query: Omit<DatasetListQuery, "viewer"> = { sort, direction, limit, properties };
	if (terms) query.searchTerms = terms;
	if (filters.length > 0) query.filters = filters;
	if (author) query.author = author;
	if (gated !== undefined) query.gated = gated;
	const after = listCursor(q, sort, direction);
	if (after) query.after = after;
	return { query, canonical };
}

/**
 * `GET /api/datasets`: the dataset listing, paged by cursor like the model listing; and
 * `GET /api/datasets-count`: how many datasets the same filters match in all (the web app's "N datasets").
 */
export function datasetRoutes(app: FastifyInstance, options: ModelRoutesOptions): void {
	cachedListRoute(
		app,
		options,
		DATASET_LIST_PATH,
		parseDatasetListQuery,
		(request, query) =>
			datasetPage(options, { ...query, viewer: request.viewer }).then((page) => ({
				items: page.datasets,
				...(page.next ? { next: page.next } : {}),
			})),
		upstreamListing(options.mirror, "dataset"),
	);
	cachedCountRoute(app, options, `${DATASET_LIST_PATH}-count`, parseDatasetListQuery, (request, query, cap) =>
		datasetCount(options, { ...query, viewer: request.viewer }, cap),
	);
}
