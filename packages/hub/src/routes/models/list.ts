import type { FastifyInstance } from "fastify";
import type { ModelListParameters } from "../../api/models.js";
import { PIPELINE_TYPES } from "@modelhub/tasks";
import { HubError } from "../../errors.js";
import { FULL_LIST_PROPERTIES, isModelProperty, LIST_PROPERTIES } from "../../models/properties.js";
import { REPO_TYPE_URLS } from "../../repo-identity.js";
import { modelPage, type ListQuery, type ProviderFilter } from "../../services/models.js";
import { EXPAND_PROPERTIES, type ModelProperty } from "../../vocabulary.js";
import {
	addExpanded,
	cachedListRoute,
	expandValues,
	listAuthor,
	listCursor,
	listFilters,
	listGated,
	listPaging,
	searchTerms,
	type ParsedListing,
} from "../list-query.js";
import { choice, flag, invalidParameter, many, matching, one, type RawQuery } from "../query.js";
import { upstreamListing } from "../mirror.js";
import type { ModelRoutesOptions } from "./context.js";

const MAX_PROVIDERS = 30;
const PROVIDER = /^[a-z0-9][a-z0-9-]{0,63}$/;

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

/** Reads every parameter huggingface_hub 2.0's list_models sends (and the web app's). */
export function parseListQuery(
	q: RawQuery<keyof ModelListParameters>,
): ParsedListing<Omit<ListQuery, "viewer">> {
	const canonical = new URLSearchParams();
	const terms = searchTerms(one(q, "search")?.trim(), canonical);
	const filters = listFilters(q, canonical);
	const pipelineTag = choice(q, "pipeline_tag", PIPELINE_TYPES);
	if (pipelineTag) canonical.set("pipeline_tag", pipelineTag);
	const library = matching(
		q,
		"library",
		/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/,
		'must be a library key such as "transformers"',
	);
	if (library) canonical.set("library", library);
	const author = listAuthor(q, canonical);

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
	const gated = listGated(q, canonical);
	if (many(q, "apps", 1000).length > 0) {
		throw new HubError(
			"Invalid",
			"query parameter 'apps' is not supported by this hub: it keeps no local-app compatibility data",
		);
	}
	const numParametersText = one(q, "num_parameters");
	const numParameters = numParametersText === undefined ? undefined : parseNumParameters(numParametersText);
	if (numParametersText) canonical.set("num_parameters", numParametersText);

	const { sort, direction, limit } = listPaging(q, canonical);

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
	addExpanded(expandValues(q, EXPAND_PROPERTIES), properties, isModelProperty, EXPAND_PROPERTIES, canonical);

	const query: Omit<ListQuery, "viewer"> = { sort, direction, limit, properties };
	if (terms) query.searchTerms = terms;
	if (filters.length > 0) query.filters = filters;
	if (pipelineTag) query.pipelineTag = pipelineTag;
	if (library) query.library = library;
	if (author) query.author = author;
	if (providers) query.providers = providers;
	if (gated !== undefined) query.gated = gated;
	if (numParameters) query.numParameters = numParameters;

	const after = listCursor(q, sort, direction);
	if (after) query.after = after;
	return { query, canonical };
}

/** The model listing's path, from the table of repository types (`/api/models`). */
export const MODEL_LIST_PATH = `/api/${REPO_TYPE_URLS.model.api}`;

export function listRoute(app: FastifyInstance, options: ModelRoutesOptions): void {
	cachedListRoute(
		app,
		options,
		MODEL_LIST_PATH,
		parseListQuery,
		(request, query) =>
			modelPage(options, { ...query, viewer: request.viewer }).then((page) => ({
				items: page.models,
				...(page.next ? { next: page.next } : {}),
			})),
		upstreamListing(options.mirror, "model"),
	);
}
