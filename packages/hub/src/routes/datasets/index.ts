import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DatasetListParameters } from "../../api/datasets.js";
import type { CachedResponse } from "../../cache.js";
import {
	DATASET_FULL_LIST_PROPERTIES,
	DATASET_LIST_PROPERTIES,
	isDatasetProperty,
} from "../../datasets/properties.js";
import { JSON_TYPE } from "../../http.js";
import { decodeCursor } from "../../models/cursor.js";
import { ID_PART_PATTERN } from "../../models/ids.js";
import { REPO_TYPE_URLS } from "../../repo-identity.js";
import { datasetPage, type DatasetListQuery } from "../../services/datasets.js";
import {
	DATASET_EXPAND_PROPERTIES,
	SORT_KEYS,
	type DatasetProperty,
	type ModelSort,
} from "../../vocabulary.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../models/list.js";
import { originOf, viewerCacheKey, type ModelRoutesOptions } from "../models/context.js";
import { choice, flag, invalidParameter, many, matching, one, whole, type RawQuery } from "../query.js";

const MAX_SEARCH_LENGTH = 200;
const MAX_SEARCH_TERMS = 10;
const MAX_FILTERS = 20;
const MAX_FILTER_LENGTH = 256;
const AUTHOR_NAME = new RegExp(ID_PART_PATTERN);

/** The dataset listing's path, from the table of repository types (`/api/datasets`). */
export const DATASET_LIST_PATH = `/api/${REPO_TYPE_URLS.dataset.api}`;

interface ParsedDatasetList {
	query: Omit<DatasetListQuery, "viewer">;
	/** Canonical parameters: the `Link` URL of the next page without its cursor. */
	canonical: URLSearchParams;
}

/**
 * Reads what huggingface_hub's list_datasets sends (2.0 and 1.33): `search` (repeated when it also names
 * `dataset_name`: the words of all must occur), `filter` (its `language=`, `task_categories=`, … become
 * `key:value` filters), `author`, `gated`, `sort`, `direction`, `limit`, `full`, `expand`.
 */
export function parseDatasetListQuery(q: RawQuery<keyof DatasetListParameters>): ParsedDatasetList {
	const canonical = new URLSearchParams();
	const searches = many(q, "search", MAX_SEARCH_TERMS);
	let searchTerms: string[] | undefined;
	if (searches.length > 0) {
		const search = searches.join(" ");
		if (search.length > MAX_SEARCH_LENGTH)
			throw invalidParameter("search", `at most ${MAX_SEARCH_LENGTH} characters`);
		searchTerms = search.split(/\s+/);
		if (searchTerms.length > MAX_SEARCH_TERMS)
			throw invalidParameter("search", `at most ${MAX_SEARCH_TERMS} words`);
		canonical.set("search", search);
	}
	const filters = many(q, "filter", MAX_FILTERS);
	for (const filter of filters) {
		if (filter.length > MAX_FILTER_LENGTH)
			throw invalidParameter("filter", `each value at most ${MAX_FILTER_LENGTH} characters`);
		canonical.append("filter", filter);
	}
	const author = matching(q, "author", AUTHOR_NAME, "must be a user or organisation name");
	if (author) canonical.set("author", author);
	const gated = flag(q, "gated");
	if (gated !== undefined) canonical.set("gated", String(gated));
	const sort: ModelSort = choice(q, "sort", SORT_KEYS) ?? "downloads";
	const direction = choice(q, "direction", ["-1", "1"]) === "1" ? 1 : -1;
	const limit = whole(q, "limit", 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE;
	canonical.set("sort", sort);
	canonical.set("direction", String(direction));
	canonical.set("limit", String(limit));

	const full = flag(q, "full") === true;
	const expand = many(q, "expand", DATASET_EXPAND_PROPERTIES.length * 2);
	if (full && expand.length > 0) throw invalidParameter("expand", "cannot be used with full");
	if (full) canonical.set("full", "true");
	// `expand` answers with exactly the properties it names (huggingface_hub: "… to return
	// specific properties"), as the public hub does.
	const properties = new Set<DatasetProperty>(
		expand.length > 0 ? [] : full ? DATASET_FULL_LIST_PROPERTIES : DATASET_LIST_PROPERTIES,
	);
	for (const value of expand) {
		if (!isDatasetProperty(value)) {
			throw invalidParameter(
				"expand",
				`${JSON.stringify(value.slice(0, 64))} is not one of ${DATASET_EXPAND_PROPERTIES.join(", ")}`,
			);
		}
		if (!properties.has(value)) canonical.append("expand[]", value);
		properties.add(value);
	}

	const query: Omit<DatasetListQuery, "viewer"> = { sort, direction, limit, properties };
	if (searchTerms) query.searchTerms = searchTerms;
	if (filters.length > 0) query.filters = filters;
	if (author) query.author = author;
	if (gated !== undefined) query.gated = gated;
	const cursor = one(q, "cursor");
	if (cursor !== undefined) {
		const after = decodeCursor(cursor, sort, direction);
		if (typeof after === "string") throw invalidParameter("cursor", after);
		query.after = after;
	}
	return { query, canonical };
}

/** `GET /api/datasets`: the dataset listing, paged by cursor like the model listing. */
export function datasetRoutes(app: FastifyInstance, options: ModelRoutesOptions): void {
	const { cache } = options;

	function send(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse): void {
		if (entry.next && entry.cursor) {
			reply.header("link", `<${originOf(request)}${entry.next}>; rel="next"`);
			reply.header("x-next-cursor", entry.cursor);
		}
		reply.type(JSON_TYPE).send(entry.body);
	}

	app.get(DATASET_LIST_PATH, (request, reply) => {
		const key = viewerCacheKey("l", request.viewer, request.url);
		const hit = cache.get(key);
		if (hit) {
			send(request, reply, hit);
			return undefined;
		}
		const parsed = parseDatasetListQuery(request.query as RawQuery);
		const version = cache.version;
		return datasetPage(options, { ...parsed.query, viewer: request.viewer }).then((page) => {
			const entry: CachedResponse = { body: Buffer.from(JSON.stringify(page.datasets)) };
			if (page.next) {
				const next = new URLSearchParams(parsed.canonical);
				next.set("cursor", page.next);
				entry.next = `${DATASET_LIST_PATH}?${next.toString()}`;
				entry.cursor = page.next;
			}
			cache.set(key, entry, version);
			send(request, reply, entry);
			return reply;
		});
	});
}
