/**
 * The dataset list's state, kept in the URL as the public hub's dataset list keeps it
 * (`/datasets?task_categories=task_categories:text-classification&modality=modality:image&sort=likes`):
 * reading it (prefixed or bare values), writing it back without defaults, the hub query (each filter is a
 * tag of the dataset: `GET /api/datasets?filter=…`), the chips of the active filters and the links of a
 * dataset's tags. Plain functions, unit-tested.
 */
import type { DatasetFilterQuery, DatasetQuery } from "../api/datasets";
import { DEFAULT_SORT, LICENSES, MODEL_SORTS } from "./model-filters";
import type { ModelSort } from "@modelhub/hub/api";

/** The tag filters, by their URL parameter (also the tag's prefix). */
export const DATASET_TAG_FILTERS = [
	"task_categories",
	"modality",
	"format",
	"size_categories",
	"license",
] as const;
export type DatasetTagFilter = (typeof DATASET_TAG_FILTERS)[number];

export interface DatasetListState {
	search: string;
	author: string;
	/** Each tag filter's value, without its prefix ("" when not set). */
	tags: Record<DatasetTagFilter, string>;
	/** Other tags every listed dataset must carry (`?tag=library:pandas`, as the model list has them). */
	otherTags: string[];
	sort: ModelSort;
	cursor: string;
}

/** The sorts of the hub's listing (the same keys for models and datasets). */
export const DATASET_SORTS = MODEL_SORTS;

/** Modalities the public hub files datasets under (`modality:…` tags). */
export const MODALITIES: ReadonlyArray<{ value: string; label: string }> = [
	{ value: "text", label: "Text" },
	{ value: "image", label: "Image" },
	{ value: "audio", label: "Audio" },
	{ value: "video", label: "Video" },
	{ value: "tabular", label: "Tabular" },
	{ value: "timeseries", label: "Time series" },
	{ value: "document", label: "Document" },
	{ value: "geospatial", label: "Geospatial" },
	{ value: "3d", label: "3D" },
];

/** Formats the hub derives from data files (`format:…` tags: the `datasets` library's builders). */
export const FORMATS: ReadonlyArray<{ value: string; label: string }> = [
	{ value: "parquet", label: "Parquet" },
	{ value: "csv", label: "CSV" },
	{ value: "json", label: "JSON" },
	{ value: "text", label: "Text" },
	{ value: "arrow", label: "Arrow" },
	{ value: "webdataset", label: "WebDataset" },
	{ value: "imagefolder", label: "Image folder" },
	{ value: "audiofolder", label: "Audio folder" },
	{ value: "videofolder", label: "Video folder" },
];

/** The public hub's size categories, by rows (`size_categories:…` tags). */
export const SIZES: ReadonlyArray<{ value: string; label: string }> = [
	{ value: "n<1K", label: "< 1K rows" },
	{ value: "1K<n<10K", label: "1K – 10K" },
	{ value: "10K<n<100K", label: "10K – 100K" },
	{ value: "100K<n<1M", label: "100K – 1M" },
	{ value: "1M<n<10M", label: "1M – 10M" },
	{ value: "10M<n<100M", label: "10M – 100M" },
	{ value: "100M<n<1B", label: "100M – 1B" },
	{ value: "1B<n<10B", label: "1B – 10B" },
	{ value: "10B<n<100B", label: "10B – 100B" },
	{ value: "100B<n<1T", label: "100B – 1T" },
	{ value: "n>1T", label: "> 1T" },
];

export { LICENSES };

/** Each filter's label in the panel and its chips. */
export const TAG_FILTER_LABELS: Record<DatasetTagFilter, string> = {
	task_categories: "Task",
	modality: "Modality",
	format: "Format",
	size_categories: "Size (rows)",
	license: "License",
};

const NO_TAGS: Record<DatasetTagFilter, string> = {
	task_categories: "",
	modality: "",
	format: "",
	size_categories: "",
	license: "",
};

const MAX_OTHER_TAGS = 10;

function isSort(value: string | null): value is ModelSort {
	return DATASET_SORTS.some((option) => option.value === value);
}

/** A filter's value from the URL: `modality:image` as the public hub writes it, or a bare `image`. */
function tagValue(params: URLSearchParams, key: DatasetTagFilter): string {
	const raw = params.get(key) ?? "";
	return raw.startsWith(`${key}:`) ? raw.slice(key.length + 1) : raw;
}

export function readDatasetListState(params: URLSearchParams): DatasetListState {
	const sort = params.get("sort");
	const tags = { ...NO_TAGS };
	for (const key of DATASET_TAG_FILTERS) tags[key] = tagValue(params, key);
	return {
		search: params.get("search") ?? "",
		author: params.get("author") ?? "",
		tags,
		otherTags: [...new Set(params.getAll("tag").filter(Boolean))].slice(0, MAX_OTHER_TAGS),
		sort: isSort(sort) ? sort : DEFAULT_SORT,
		cursor: params.get("cursor") ?? "",
	};
}

/** The URL parameters of a state (filters as the public hub writes them); empty values and the default sort left out. */
export function writeDatasetListState(state: DatasetListState): URLSearchParams {
	const params = new URLSearchParams();
	if (state.search.trim()) params.set("search", state.search.trim());
	for (const key of DATASET_TAG_FILTERS) if (state.tags[key]) params.set(key, `${key}:${state.tags[key]}`);
	if (state.author.trim()) params.set("author", state.author.trim());
	for (const tag of state.otherTags) params.append("tag", tag);
	if (state.sort !== DEFAULT_SORT) params.set("sort", state.sort);
	if (state.cursor) params.set("cursor", state.cursor);
	return params;
}

/** A new state with `patch` applied; any change of filter or sort starts again at the first page. */
export function patchDatasetListState(
	state: DatasetListState,
	patch: Partial<Omit<DatasetListState, "tags">> & { tags?: Partial<Record<DatasetTagFilter, string>> },
): DatasetListState {
	return { ...state, cursor: "", ...patch, tags: { ...state.tags, ...patch.tags } };
}

/** The hub query of the filters (no sort, no paging): also what the count is asked for. */
export function datasetFilterQuery(state: DatasetListState): DatasetFilterQuery {
	const filter = [
		...DATASET_TAG_FILTERS.filter((key) => state.tags[key]).map((key) => `${key}:${state.tags[key]}`),
		...state.otherTags,
	];
	return {
		...(state.search.trim() ? { search: state.search.trim() } : {}),
		...(state.author.trim() ? { author: state.author.trim() } : {}),
		...(filter.length > 0 ? { filter } : {}),
	};
}

export function datasetListQuery(state: DatasetListState, limit: number): DatasetQuery {
	return {
		...datasetFilterQuery(state),
		sort: state.sort,
		// Names read A to Z; every other order shows the most first.
		direction: state.sort === "id" ? 1 : -1,
		limit,
		...(state.cursor ? { cursor: state.cursor } : {}),
	};
}

/** One removable chip per active filter, in the order of the filter panel. */
export function datasetChips(
	state: DatasetListState,
	names: { task: (id: string) => string },
): Array<{ label: string; without: Parameters<typeof patchDatasetListState>[1] }> {
	const chips: Array<{ label: string; without: Parameters<typeof patchDatasetListState>[1] }> = [];
	if (state.search.trim()) chips.push({ label: `Search: ${state.search.trim()}`, without: { search: "" } });
	for (const key of DATASET_TAG_FILTERS) {
		const value = state.tags[key];
		if (!value) continue;
		const shown = key === "task_categories" ? names.task(value) : optionLabel(key, value);
		chips.push({ label: `${TAG_FILTER_LABELS[key]}: ${shown}`, without: { tags: { [key]: "" } } });
	}
	if (state.author.trim()) chips.push({ label: `Author: ${state.author.trim()}`, without: { author: "" } });
	for (const tag of state.otherTags)
		chips.push({
			label: `Tag: ${tag}`,
			without: { otherTags: state.otherTags.filter((other) => other !== tag) },
		});
	return chips;
}

const OPTIONS: Partial<Record<DatasetTagFilter, ReadonlyArray<{ value: string; label: string }>>> = {
	modality: MODALITIES,
	format: FORMATS,
	size_categories: SIZES,
};

/** The label of a filter's value ("image" → "Image"), or the value itself. */
export function optionLabel(key: DatasetTagFilter, value: string): string {
	return OPTIONS[key]?.find((option) => option.value === value)?.label ?? value;
}

export interface DatasetTagLink {
	tag: string;
	/** "Task", "Modality", … for the filters' tags; undefined for other tags. */
	kind?: string;
	label: string;
	href: string;
}

/** The chips of a dataset's tags, each a link to the dataset list filtered by it. */
export function datasetTagLinks(
	tags: readonly string[] | undefined,
	names: { task: (id: string) => string },
): DatasetTagLink[] {
	return (tags ?? []).map((tag) => {
		const colon = tag.indexOf(":");
		const prefix = colon > 0 ? tag.slice(0, colon) : "";
		const value = colon > 0 ? tag.slice(colon + 1) : tag;
		const filter = DATASET_TAG_FILTERS.find((key) => key === prefix);
		const empty = readDatasetListState(new URLSearchParams());
		if (filter) {
			const state = patchDatasetListState(empty, { tags: { [filter]: value } });
			return {
				tag,
				kind: TAG_FILTER_LABELS[filter],
				label: filter === "task_categories" ? names.task(value) : optionLabel(filter, value),
				href: `/datasets?${writeDatasetListState(state).toString()}`,
			};
		}
		const state = patchDatasetListState(empty, { otherTags: [tag] });
		return {
			tag,
			...(prefix ? { kind: prefix.replace(/_/g, " ") } : {}),
			label: value,
			href: `/datasets?${writeDatasetListState(state).toString()}`,
		};
	});
}
