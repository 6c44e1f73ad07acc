import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ModelListParameters } from "../../api/models.js";
import type { CachedResponse } from "../../cache.js";
import { PIPELINE_TYPES } from "@modelhub/tasks";
import { HubError } from "../../errors.js";
import { JSON_TYPE } from "../../http.js";
import { decodeCursor } from "../../models/cursor.js";
import { ID_PART_PATTERN } from "../../models/ids.js";
import { FULL_LIST_PROPERTIES, isModelProperty, LIST_PROPERTIES } from "../../models/properties.js";
import { REPO_TYPE_URLS } from "../../repo-identity.js";
import { modelPage, type ListQuery, type ProviderFilter } from "../../services/models.js";
import { EXPAND_PROPERTIES, SORT_KEYS, type ModelProperty, type ModelSort } from "../../vocabulary.js";
import { choice, flag, invalidParameter, many, matching, one, whole, type RawQuery } from "../query.js";
import { originOf, viewerCacheKey, type ModelRoutesOptions } from "./context.js";

/** The public hub's largest page; larger `limit`s are capped (the client then follows `Link`). */
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 1000;
const MAX_SEARCH_LENGTH = 200;
const MAX_SEARCH_TERMS = 10;
const MAX_FILTERS = 20;
const MAX_FILTER_LENGTH = 256;
const MAX_PROVIDERS = 30;
const PROVIDER = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** An `author` is a user or organisation name: half of a model id. */
const AUTHOR_NAME = new RegExp(ID_PART_PATTERN);

const UNITS: Record<string, number> = { "": 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 };

/** `min:6B,max:128B`, `min:6B`, `max:0.5B` (the public hub's syntax) → bounds in parameters. */
export function parseNumParameters(text: string): { min?: number; max?: number } {
	const bounds: { min?: number; max?: number } = {};
	for (const part of text.split(",")) {
		const match = /^(min|max):(\d{1,15}(?:\.\d{1,6})?)([KMBT]?)$/i.exec(part.trim());
		if (!match)
			throw invalidParameter("num_parameters", "expected min:<n>, max:<n> or both, e.g. min:6B,max:128B");
		const [, bound, number, unit] = match as unknown as [string, "min" | "max", string, string];
		const key = bound.toLowerCase() as "min" | "max";
		if (bounds[key] !== undefined) throw invalidParameter("num_parameters", `${key} is given twice`);
		bounds[key] = Math.round(Number(number) * (UNITS[unit.toUpperCase()] ?? 1));
	}
	if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) {
		throw invalidParameter("num_parameters", "min is larger than max");
	}
	return bounds;
}

interface ParsedList {
	query: Omit<ListQuery, "viewer">;
	/** Canonical parameters: the cache key, and the `Link` URL of the next page without its cursor. */
	canonical: URLSearchParams;
}

/** Reads every parameter huggingface_hub 2.0's list_models sends (and the web app's). */
export function parseListQuery(q: RawQuery<keyof ModelListParameters>): ParsedList {
	const canonical = new URLSearchParams();
	const search = one(q, "search")?.trim();
	let searchTerms: string[] | undefined;
	if (search) {
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
	const pipelineTag = choice(q, "pipeline_tag", PIPELINE_TYPES);
	if (pipelineTag) canonical.set("pipeline_tag", pipelineTag);
	const library = matching(
		q,
		"library",
		/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/,
		'must be a library key such as "transformers"',
	);
	if (library) canonical.set("library", library);
	const author = matching(q, "author", AUTHOR_NAME, "must be a user or organisation name");
	if (author) canonical.set("author", author);

	let providers: ProviderFilter | undefined;
	const named = many(q, "inference_provider", MAX_PROVIDERS, true);
	if (named.length > 0) {
		for (const provider of named) {
			if (provider !== "all" && !PROVIDER.test(provider)) {
				throw invalidParameter(
					"inference_provider",
					`${JSON.stringify(provider.slice(0, 64))} is not a provider name (or "all")`,
				);
			}
			canonical.append("inference_provider", provider);
		}
		providers = named.includes("all") ? { kind: "all" } : { kind: "some", providers: named };
	}
	if (choice(q, "inference", ["warm"]) === "warm") {
		providers ??= { kind: "all" };
		canonical.set("inference", "warm");
	}
	const gated = flag(q, "gated");
	if (gated !== undefined) canonical.set("gated", String(gated));
	if (many(q, "apps", 1000).length > 0) {
		throw new HubError(
			"Invalid",
			"query parameter 'apps' is not supported by this hub: it keeps no local-app compatibility data",
		);
	}
	const numParametersText = one(q, "num_parameters");
	const numParameters = numParametersText === undefined ? undefined : parseNumParameters(numParametersText);
	if (numParametersText) canonical.set("num_parameters", numParametersText);

	const sort: ModelSort = choice(q, "sort", SORT_KEYS) ?? "downloads";
	const direction = choice(q, "direction", ["-1", "1"]) === "1" ? 1 : -1;
	const limit = whole(q, "limit", 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE;
	canonical.set("sort", sort);
	canonical.set("direction", String(direction));
	canonical.set("limit", String(limit));

	const properties = new Set<ModelProperty>(flag(q, "full") ? FULL_LIST_PROPERTIES : LIST_PROPERTIES);
	if (flag(q, "full")) canonical.set("full", "true");
	if (flag(q, "config")) {
		properties.add("config");
		canonical.set("config", "true");
	}
	if (flag(q, "cardData")) {
		properties.add("cardData");
		canonical.set("cardData", "true");
	}
	for (const value of many(q, "expand", EXPAND_PROPERTIES.length * 2)) {
		if (!isModelProperty(value)) {
			throw invalidParameter(
				"expand",
				`${JSON.stringify(value.slice(0, 64))} is not one of ${EXPAND_PROPERTIES.join(", ")}`,
			);
		}
		if (!properties.has(value)) canonical.append("expand[]", value);
		properties.add(value);
	}

	const query: Omit<ListQuery, "viewer"> = { sort, direction, limit, properties };
	if (searchTerms) query.searchTerms = searchTerms;
	if (filters.length > 0) query.filters = filters;
	if (pipelineTag) query.pipelineTag = pipelineTag;
	if (library) query.library = library;
	if (author) query.author = author;
	if (providers) query.providers = providers;
	if (gated !== undefined) query.gated = gated;
	if (numParameters) query.numParameters = numParameters;

	const cursor = one(q, "cursor");
	if (cursor !== undefined) {
		const after = decodeCursor(cursor, sort, direction);
		if (typeof after === "string") throw invalidParameter("cursor", after);
		query.after = after;
	}
	return { query, canonical };
}

/** The model listing's path, from the table of repository types (`/api/models`). */
export const MODEL_LIST_PATH = `/api/${REPO_TYPE_URLS.model.api}`;

export function listRoute(app: FastifyInstance, options: ModelRoutesOptions): void {
	const { cache } = options;

	function send(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse): void {
		if (entry.next && entry.cursor) {
			reply.header("link", `<${originOf(request)}${entry.next}>; rel="next"`);
			reply.header("x-next-cursor", entry.cursor);
		}
		reply.type(JSON_TYPE).send(entry.body);
	}

	// Not an async function: a cache hit (keyed by the raw URL, which names the type) is answered without
	// parsing or a promise.
	app.get(MODEL_LIST_PATH, (request, reply) => {
		const key = viewerCacheKey("l", request.viewer, request.url);
		const hit = cache.get(key);
		if (hit) {
			send(request, reply, hit);
			return undefined;
		}
		const parsed = parseListQuery(request.query as RawQuery);
		const version = cache.version;
		return modelPage(options, { ...parsed.query, viewer: request.viewer }).then((page) => {
			const entry: CachedResponse = { body: Buffer.from(JSON.stringify(page.models)) };
			if (page.next) {
				const next = new URLSearchParams(parsed.canonical);
				next.set("cursor", page.next);
				entry.next = `${MODEL_LIST_PATH}?${next.toString()}`;
				entry.cursor = page.next;
			}
			cache.set(key, entry, version);
			send(request, reply, entry);
			return reply;
		});
	});
}
