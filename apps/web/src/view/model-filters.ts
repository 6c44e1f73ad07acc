/**
 * The model list's state, kept in the URL (so every filtered list is a link): reading it, writing it
 * back without defaults, turning it into the hub query, the chips of the active filters, and the link
 * each tag of a model leads to. Plain functions, unit-tested.
 */
import type { ModelSort } from "@modelhub/hub/api";
import type { ModelFilterQuery, ModelQuery } from "../api/models";

export interface ModelListState {
	search: string;
	pipelineTag: string;
	library: string;
	provider: string;
	author: string;
	license: string;
	language: string;
	/** Other tags every listed model must carry. */
	tags: string[];
	sort: ModelSort;
	cursor: string;
}

/** The hub's sorts, with the names the public hub's model list gives them. */
export const MODEL_SORTS: ReadonlyArray<{ value: ModelSort; label: string }> = [
	{ value: "trendingScore", label: "Trending" },
	{ value: "downloads", label: "Most downloads" },
	{ value: "likes", label: "Most likes" },
	{ value: "createdAt", label: "Recently created" },
	{ value: "lastModified", label: "Recently updated" },
	{ value: "id", label: "Name (A–Z)" },
];

export const DEFAULT_SORT: ModelSort = "downloads";

/** Licenses offered in the filter (the public hub's license ids); others come from a model's tag links. */
export const LICENSES: readonly string[] = [
	"apache-2.0",
	"mit",
	"openrail",
	"openrail++",
	"creativeml-openrail-m",
	"bigscience-bloom-rail-1.0",
	"cc-by-4.0",
	"cc-by-sa-4.0",
	"cc-by-nc-4.0",
	"cc-by-nc-sa-4.0",
	"cc0-1.0",
	"bsd-3-clause",
	"agpl-3.0",
	"gpl-3.0",
	"llama2",
	"llama3.1",
	"llama3.2",
	"llama3.3",
	"gemma",
	"apple-amlr",
	"other",
];

/** Languages offered in the filter: ISO 639-1 codes as the hub tags them, plus "multilingual". */
export const LANGUAGES: readonly string[] = [
	"en",
	"zh",
	"fr",
	"de",
	"es",
	"pt",
	"it",
	"ar",
	"ja",
	"ko",
	"hi",
	"ru",
	"th",
	"ro",
	"pl",
	"tr",
	"nl",
	"vi",
	"sv",
	"id",
	"el",
	"sw",
	"ur",
	"multilingual",
];

const LANGUAGE_SET = new Set(LANGUAGES);

/** The English name of a language code ("fr" → "French"), or the code itself. */
export function languageName(code: string): string {
	if (code === "multilingual") return "Multilingual";
	try {
		return new Intl.DisplayNames(["en"], { type: "language" }).of(code) ?? code;
	} catch {
		return code;
	}
}

const MAX_TAGS = 10;

function isSort(value: string | null): value is ModelSort {
	return MODEL_SORTS.some((option) => option.value === value);
}

export function readListState(params: URLSearchParams): ModelListState {
	const sort = params.get("sort");
	return {
		search: params.get("search") ?? "",
		pipelineTag: params.get("pipeline_tag") ?? "",
		library: params.get("library") ?? "",
		provider: params.get("inference_provider") ?? "",
		author: params.get("author") ?? "",
		license: params.get("license") ?? "",
		language: params.get("language") ?? "",
		tags: [...new Set(params.getAll("tag").filter(Boolean))].slice(0, MAX_TAGS),
		sort: isSort(sort) ? sort : DEFAULT_SORT,
		cursor: params.get("cursor") ?? "",
	};
}

/** The URL parameters of a state; empty values and the default sort are left out. */
export function writeListState(state: ModelListState): URLSearchParams {
	const params = new URLSearchParams();
	const set = (key: string, value: string) => {
		if (value) params.set(key, value);
	};
	set("search", state.search.trim());
	set("pipeline_tag", state.pipelineTag);
	set("library", state.library);
	set("inference_provider", state.provider);
	set("author", state.author.trim());
	set("license", state.license);
	set("language", state.language);
	for (const tag of state.tags) params.append("tag", tag);
	if (state.sort !== DEFAULT_SORT) params.set("sort", state.sort);
	set("cursor", state.cursor);
	return params;
}

/** A new state with `patch` applied; any change of filter or sort starts again at the first page. */
export function patchListState(state: ModelListState, patch: Partial<ModelListState>): ModelListState {
	return { ...state, cursor: "", ...patch };
}

/** The hub query of the filters (no sort, no paging): also what the count is asked for. */
export function filterQuery(state: ModelListState): ModelFilterQuery {
	const filter = [
		...(state.license ? [`license:${state.license}`] : []),
		...(state.language ? [state.language] : []),
		...state.tags,
	];
	return {
		...(state.search.trim() ? { search: state.search.trim() } : {}),
		...(state.pipelineTag ? { pipeline_tag: state.pipelineTag } : {}),
		...(state.library ? { library: state.library } : {}),
		...(state.provider ? { inference_provider: state.provider } : {}),
		...(state.author.trim() ? { author: state.author.trim() } : {}),
		...(filter.length > 0 ? { filter } : {}),
	};
}

export function listQuery(state: ModelListState, limit: number): ModelQuery {
	return {
		...filterQuery(state),
		sort: state.sort,
		// Names read A to Z; every other order shows the most first.
		direction: state.sort === "id" ? 1 : -1,
		limit,
		...(state.cursor ? { cursor: state.cursor } : {}),
	};
}

export interface FilterChip {
	/** What the chip says, e.g. "Author: Qwen". */
	label: string;
	/** The state without this filter. */
	without: Partial<ModelListState>;
}

/** One removable chip per active filter, in the order of the filter panel. */
export function activeChips(
	state: ModelListState,
	names: {
		task: (id: string) => string;
		library: (key: string) => string;
		provider: (id: string) => string;
	},
): FilterChip[] {
	const chips: FilterChip[] = [];
	if (state.search.trim()) chips.push({ label: `Search: ${state.search.trim()}`, without: { search: "" } });
	if (state.pipelineTag)
		chips.push({ label: `Task: ${names.task(state.pipelineTag)}`, without: { pipelineTag: "" } });
	if (state.library)
		chips.push({ label: `Library: ${names.library(state.library)}`, without: { library: "" } });
	if (state.provider)
		chips.push({ label: `Inference provider: ${names.provider(state.provider)}`, without: { provider: "" } });
	if (state.author.trim()) chips.push({ label: `Author: ${state.author.trim()}`, without: { author: "" } });
	if (state.license) chips.push({ label: `License: ${state.license}`, without: { license: "" } });
	if (state.language)
		chips.push({ label: `Language: ${languageName(state.language)}`, without: { language: "" } });
	for (const tag of state.tags) {
		chips.push({ label: `Tag: ${tag}`, without: { tags: state.tags.filter((other) => other !== tag) } });
	}
	return chips;
}

/** Tags that say nothing a person filters by (hosting details), left out of a model's tag chips. */
const HIDDEN_TAG =
	/^(region:|endpoints_compatible$|autotrain_compatible$|text-generation-inference$|deploy:)/;

export interface TagLink {
	tag: string;
	/** "license", "language", "base model", "dataset", "arxiv" or undefined for plain tags. */
	kind?: string;
	label: string;
	href: string;
}

/** The chips of a model's tags, each a link to the model list filtered by it. */
export function tagLinks(tags: readonly string[] | undefined): TagLink[] {
	const links: TagLink[] = [];
	for (const tag of tags ?? []) {
		if (HIDDEN_TAG.test(tag)) continue;
		const colon = tag.indexOf(":");
		const prefix = colon > 0 ? tag.slice(0, colon) : "";
		const value = colon > 0 ? tag.slice(colon + 1) : tag;
		if (prefix === "license") {
			links.push({
				tag,
				kind: "license",
				label: value,
				href: `/models?license=${encodeURIComponent(value)}`,
			});
		} else if (!prefix && LANGUAGE_SET.has(tag)) {
			links.push({
				tag,
				kind: "language",
				label: languageName(tag),
				href: `/models?language=${encodeURIComponent(tag)}`,
			});
		} else {
			const kind = prefix === "base_model" ? "base model" : prefix || undefined;
			links.push({
				tag,
				...(kind ? { kind } : {}),
				label: prefix === "base_model" ? value.replace(/^(adapter|finetune|quantized|merge):/, "") : value,
				href: `/models?tag=${encodeURIComponent(tag)}`,
			});
		}
	}
	return links;
}
