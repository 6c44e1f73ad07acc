import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { CachedResponse } from "../cache.js";
import { JSON_TYPE } from "../http.js";
import { decodeCursor, type CursorPosition, type Direction } from "../models/cursor.js";
import { ID_PART_PATTERN } from "../models/ids.js";
import { SORT_KEYS, type ModelSort } from "../vocabulary.js";
import { originOf, viewerCacheKey, type ModelRoutesOptions } from "./models/context.js";
import { choice, flag, invalidParameter, many, matching, one, whole, type RawQuery } from "./query.js";

/**
 * The parameters every repository type's listing reads alike (`/api/models`, `/api/datasets`), and the
 * cached route that answers them. Each helper adds what it read to `canonical` (the next page's `Link`
 * URL without its cursor), so a listing's parser calls them in the order its canonical URL lists them.
 */

/** The public hub's largest page; larger `limit`s are capped (the client then follows `Link`). */
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 1000;
const MAX_SEARCH_LENGTH = 200;
const MAX_SEARCH_TERMS = 10;
const MAX_FILTERS = 20;
const MAX_FILTER_LENGTH = 256;
/** An `author` is a user or organisation name: half of a repository id. */
const AUTHOR_NAME = new RegExp(ID_PART_PATTERN);

/** The parameters these helpers read. */
type SharedListParameter =
	"search" | "filter" | "author" | "gated" | "sort" | "direction" | "limit" | "expand" | "cursor";

/** The words of a `search` (at most 10 and 200 characters), or undefined when there is none. */
export function searchTerms(search: string | undefined, canonical: URLSearchParams): string[] | undefined {
	if (!search) return undefined;
	if (search.length > MAX_SEARCH_LENGTH)
		throw invalidParameter("search", `at most ${MAX_SEARCH_LENGTH} characters`);
	const terms = search.split(/\s+/);
	if (terms.length > MAX_SEARCH_TERMS) throw invalidParameter("search", `at most ${MAX_SEARCH_TERMS} words`);
	canonical.set("search", search);
	return terms;
}

/** How many `search` values a listing that repeats the parameter accepts. */
export const MAX_SEARCH_VALUES = MAX_SEARCH_TERMS;

/** The `filter` values (each must match; at most 20 of 256 characters). */
export function listFilters(q: RawQuery<SharedListParameter>, canonical: URLSearchParams): string[] {
	const filters = many(q, "filter", MAX_FILTERS);
	for (const filter of filters) {
		if (filter.length > MAX_FILTER_LENGTH)
			throw invalidParameter("filter", `each value at most ${MAX_FILTER_LENGTH} characters`);
		canonical.append("filter", filter);
	}
	return filters;
}

/** The `author`: a user or organisation name. */
export function listAuthor(q: RawQuery<SharedListParameter>, canonical: URLSearchParams): string | undefined {
	const author = matching(q, "author", AUTHOR_NAME, "must be a user or organisation name");
	if (author) canonical.set("author", author);
	return author;
}

/** `gated=true|false`. */
export function listGated(q: RawQuery<SharedListParameter>, canonical: URLSearchParams): boolean | undefined {
	const gated = flag(q, "gated");
	if (gated !== undefined) canonical.set("gated", String(gated));
	return gated;
}

/** `sort`, `direction` and `limit`, with the public hub's defaults (downloads, descending, 1000). */
export function listPaging(
	q: RawQuery<SharedListParameter>,
	canonical: URLSearchParams,
): { sort: ModelSort; direction: Direction; limit: number } {
	const sort: ModelSort = choice(q, "sort", SORT_KEYS) ?? "downloads";
	const direction = choice(q, "direction", ["-1", "1"]) === "1" ? 1 : -1;
	const limit = whole(q, "limit", 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE;
	canonical.set("sort", sort);
	canonical.set("direction", String(direction));
	canonical.set("limit", String(limit));
	return { sort, direction, limit };
}

/** The `expand` values as given (at most two per known property name). */
export function expandValues(q: RawQuery<SharedListParameter>, names: readonly string[]): string[] {
	return many(q, "expand", names.length * 2);
}

/** Adds each `expand` value to `properties`, refusing any that is not one of `names`. */
export function addExpanded<Property extends string>(
	values: readonly string[],
	properties: Set<Property>,
	isProperty: (value: string) => value is Property,
	names: readonly string[],
	canonical: URLSearchParams,
): void {
	for (const value of values) {
		if (!isProperty(value)) {
			throw invalidParameter(
				"expand",
				`${JSON.stringify(value.slice(0, 64))} is not one of ${names.join(", ")}`,
			);
		}
		if (!properties.has(value)) canonical.append("expand[]", value);
		properties.add(value);
	}
}

/** The position a `cursor` continues after; it must have been made for the same sort and direction. */
export function listCursor(
	q: RawQuery<SharedListParameter>,
	sort: ModelSort,
	direction: Direction,
): CursorPosition | undefined {
	const cursor = one(q, "cursor");
	if (cursor === undefined) return undefined;
	const after = decodeCursor(cursor, sort, direction);
	if (typeof after === "string") throw invalidParameter("cursor", after);
	return after;
}

/** A parsed listing: the store's query, and the canonical parameters of its `Link` URL. */
export interface ParsedListing<Query> {
	query: Query;
	/** Canonical parameters: the `Link` URL of the next page without its cursor. */
	canonical: URLSearchParams;
}

/** A page of a listing: its items and the cursor of the next page, when there is one. */
export interface ListingPage {
	items: unknown[];
	next?: string;
}

/** In mirror mode, a listing by id also shows the upstream's repositories (routes/mirror.ts). */
export interface UpstreamListing<Query> {
	/** Whether the request (its raw query, read before the cache) may be a listing by id. */
	asks(q: RawQuery): boolean;
	/** The page with the upstream's items added. */
	merge(request: FastifyRequest, query: Query, page: ListingPage): Promise<ListingPage>;
}

/**
 * `GET path`: a listing answered from the response cache (keyed by viewer and raw URL, which names the
 * type) or, on a miss, parsed and fetched, with the next page in `Link` and `X-Next-Cursor`.
 */
export function cachedListRoute<Query>(
	app: FastifyInstance,
	options: ModelRoutesOptions,
	path: string,
	parse: (q: RawQuery) => ParsedListing<Query>,
	page: (request: FastifyRequest, query: Query) => Promise<ListingPage>,
	upstream?: UpstreamListing<NoInfer<Query>>,
): void {
	const { cache } = options;

	function send(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse): void {
		if (entry.next && entry.cursor) {
			reply.header("link", `<${originOf(request)}${entry.next}>; rel="next"`);
			reply.header("x-next-cursor", entry.cursor);
		}
		reply.type(JSON_TYPE).send(entry.body);
	}

	// Not an async function: a cache hit is answered without parsing or a promise.
	app.get(path, (request, reply) => {
		const key = viewerCacheKey("l", request.viewer, request.url);
		// A listing the upstream's answer is merged into is never cached: it follows the upstream.
		const live = upstream?.asks(request.query as RawQuery) === true;
		const hit = live ? undefined : cache.get(key);
		if (hit) {
			send(request, reply, hit);
			return undefined;
		}
		const parsed = parse(request.query as RawQuery);
		const version = cache.version;
		const local = page(request, parsed.query);
		const merged = upstream && live ? local.then((p) => upstream.merge(request, parsed.query, p)) : local;
		return merged.then(({ items, next }) => {
			const entry: CachedResponse = { body: Buffer.from(JSON.stringify(items)) };
			if (next) {
				const nextParameters = new URLSearchParams(parsed.canonical);
				nextParameters.set("cursor", next);
				entry.next = `${path}?${nextParameters.toString()}`;
				entry.cursor = next;
			}
			if (!live) cache.set(key, entry, version);
			send(request, reply, entry);
			return reply;
		});
	});
}

/** Counting stops here: past it the answer is "at least this many" (`exact: false`). */
export const MAX_LIST_COUNT = 100_000;

/**
 * `GET {path}` (`/api/models-count`, `/api/datasets-count`): how many items the listing with the same
 * filters would list in all, as `{ count, exact }`. Counted per viewer (private repositories count only
 * for those who may read them) and cached like the listings.
 */
export function cachedCountRoute<Query>(
	app: FastifyInstance,
	options: ModelRoutesOptions,
	path: string,
	parse: (q: RawQuery) => ParsedListing<Query>,
	count: (request: FastifyRequest, query: Query, cap: number) => Promise<{ count: number; exact: boolean }>,
): void {
	const { cache } = options;
	app.get(path, async (request, reply) => {
		const key = viewerCacheKey("c", request.viewer, request.url);
		const hit = cache.get(key);
		if (hit) return reply.type(JSON_TYPE).send(hit.body);
		const query = parse(request.query as RawQuery).query;
		const version = cache.version;
		const body = Buffer.from(JSON.stringify(await count(request, query, MAX_LIST_COUNT)));
		cache.set(key, { body }, version);
		return reply.type(JSON_TYPE).send(body);
	});
}
