/**
 * The tags of a dataset, derived from its card and its files as the public hub derives them (its dataset
 * pages and `filter=` values): the card's metadata as `key:value` tags, the data format the `datasets`
 * library would load it with (`format:…`), what its data holds (`modality:…`), its size in rows
 * (`size_categories:…`) and the libraries that read that format (`library:…`). Pure: no I/O.
 */

import { isValidTag } from "../cards/front-matter.js";
import { cardColumns, columnModalities, type DataColumn } from "./columns.js";

/** A file of the revision: its path and size. */
export interface DatasetFile {
	path: string;
	size: number;
}

/** Card keys the public hub turns into `key:value` tags (huggingface_hub's DatasetCardData fields). */
const CARD_TAG_KEYS = [
	"task_categories",
	"task_ids",
	"annotations_creators",
	"language_creators",
	"language",
	"license",
	"multilinguality",
	"size_categories",
	"source_datasets",
] as const;

/**
 * Data formats by file extension, in the order a tie is broken: the `datasets` library's packaged
 * builders (parquet, csv, json, text, arrow, webdataset, imagefolder, audiofolder, videofolder) and the
 * extensions each reads (datasets 5.0 `packaged_modules/__init__.py`).
 */
const FORMATS: ReadonlyArray<{ format: string; extensions: readonly string[] }> = [
	{ format: "parquet", extensions: ["parquet"] },
	{ format: "csv", extensions: ["csv", "tsv"] },
	{ format: "json", extensions: ["json", "jsonl", "ndjson"] },
	{ format: "text", extensions: ["txt"] },
	{ format: "arrow", extensions: ["arrow"] },
	{ format: "webdataset", extensions: ["tar"] },
	{ format: "imagefolder", extensions: ["png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff"] },
	{ format: "audiofolder", extensions: ["wav", "mp3", "flac", "ogg", "opus", "m4a"] },
	{ format: "videofolder", extensions: ["mp4", "avi", "mov", "mkv", "webm"] },
];

/** The file extensions (lower case, no dot) of one of the formats above; none for another name. */
export function formatExtensions(format: string): readonly string[] {
	return FORMATS.find((entry) => entry.format === format)?.extensions ?? [];
}

/** The format of a file extension (lower case, no dot), or undefined for one no format above has. */
export function extensionFormat(extension: string): string | undefined {
	return FORMATS.find((entry) => entry.extensions.includes(extension))?.format;
}

/** Files of a folder dataset that describe the data rather than hold it (datasets' metadata files). */
const METADATA_NAMES: ReadonlySet<string> = new Set([
	"readme.md",
	"metadata.csv",
	"metadata.jsonl",
	"metadata.parquet",
	"dataset_infos.json",
	"dataset_info.json",
	"dataset_dict.json",
	"state.json",
]);

/** The modality of each folder format's files. */
const FOLDER_MODALITY: Readonly<Record<string, string>> = {
	imagefolder: "image",
	audiofolder: "audio",
	videofolder: "video",
	text: "text",
};

/**
 * The public hub's modalities of file types, by extension (dataset-viewer's detect_modalities_from_filetypes, which
 * looks at every file of the repository): images, audio (and `.ogg`), video (and containers that may be audio),
 * geospatial (vector and raster, `.tif` among them), 3D models, and text (`.txt`). In its order: an extension is
 * the first modality listing it.
 */
const FILETYPE_MODALITIES: ReadonlyArray<readonly [string, readonly string[]]> = [
	[
		"image",
		["apng", "avif", "gif", "jpg", "jpeg", "jfif", "pjpeg", "pjp", "png", "svg", "webp", "bmp", "ico", "cur"],
	],
	[
		"audio",
		[
			"aac",
			"flac",
			"mp3",
			"m4a",
			"oga",
			"wav",
			"weba",
			"opus",
			"spx",
			"wma",
			"aiff",
			"ape",
			"mka",
			"wv",
			"tak",
			"ogg",
		],
	],
	["video", ["m4v", "m4p", "ogv", "mov", "mkv", "avi", "wmv", "flv", "3gp", "mpg", "mpeg", "mp4", "webm"]],
	[
		"geospatial",
		[
			"shp",
			"shx",
			"dbf",
			"prj",
			"cpg",
			"kml",
			"kmz",
			"gpx",
			"geojson",
			"topojson",
			"gml",
			"geoparquet",
			"fgb",
			"img",
			"bil",
			"bip",
			"bsq",
			"tif",
			"tiff",
			"gpkg",
			"mbtiles",
			"pmtiles",
		],
	],
	["3d", ["fbx", "dae", "dxf", "obj", "stl", "ply", "gltf", "glb", "usdz"]],
	["text", ["txt"]],
];

/** Compression suffixes whose file's type is the extension before them (`clip.wav.gz` is audio). */
const COMPRESSIONS: ReadonlySet<string> = new Set(["gz", "bz2", "xz", "zst", "lz4", "zip", "7z"]);

/** The modalities the repository's file types show (FILETYPE_MODALITIES), whatever the data format. */
export function fileTypeModalities(files: readonly DatasetFile[]): Set<string> {
	const extensions = new Set<string>();
	for (const file of files) {
		const name = file.path.slice(file.path.lastIndexOf("/") + 1).toLowerCase();
		const parts = name.split(".").slice(1);
		const last = parts.at(-1);
		if (last !== undefined) extensions.add(last);
		if (last !== undefined && COMPRESSIONS.has(last) && parts.length > 1) extensions.add(parts.at(-2) ?? "");
	}
	const modalities = new Set<string>();
	for (const extension of extensions) {
		const found = FILETYPE_MODALITIES.find(([, listed]) => listed.includes(extension));
		if (found) modalities.add(found[0]);
	}
	return modalities;
}

/** The libraries whose readers load a format (the public hub's "Use this dataset" libraries). */
const FORMAT_LIBRARIES: Readonly<Record<string, readonly string[]>> = {
	parquet: ["datasets", "pandas", "polars"],
	csv: ["datasets", "pandas", "polars"],
	json: ["datasets", "pandas", "polars"],
};

/**
 * The public hub's size categories by row count: `n<1K`, `1K<n<10K`, … `n>1T` (the values of
 * huggingface_hub's DatasetCardData `size_categories` and of the hub's size filter).
 */
const SIZE_STEPS: ReadonlyArray<[number, string]> = [
	[1e3, "n<1K"],
	[1e4, "1K<n<10K"],
	[1e5, "10K<n<100K"],
	[1e6, "100K<n<1M"],
	[1e7, "1M<n<10M"],
	[1e8, "10M<n<100M"],
	[1e9, "100M<n<1B"],
	[1e10, "1B<n<10B"],
	[1e11, "10B<n<100B"],
	[1e12, "100B<n<1T"],
];

export function sizeCategory(rows: number): string {
	for (const [bound, name] of SIZE_STEPS) if (rows < bound) return name;
	return "n>1T";
}

const MAX_TAGS = 1000;

function strings(value: unknown): string[] {
	const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
	return list
		.filter((item): item is string => typeof item === "string" && item.trim() !== "")
		.map((item) => item.trim());
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function extensionOf(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** Whether a path is a data file: not hidden, not the card or a metadata file. */
function isDataFile(path: string): boolean {
	if (path.split("/").some((part) => part.startsWith("."))) return false;
	return !METADATA_NAMES.has(path.slice(path.lastIndexOf("/") + 1).toLowerCase());
}

/** The data files of the dominant format (see dataFormat), which row counting reads. */
export function dataFiles<File extends DatasetFile>(files: readonly File[], format: string): File[] {
	const extensions = FORMATS.find((entry) => entry.format === format)?.extensions ?? [];
	return files.filter((file) => isDataFile(file.path) && extensions.includes(extensionOf(file.path)));
}

/** Whether a card's metadata gives the dataset's size (its `size_categories` or `dataset_info` row counts). */
export function cardGivesSize(card: Record<string, unknown> | undefined): boolean {
	return strings(card?.size_categories).length > 0 || cardRowCount(card) !== undefined;
}

/**
 * The `field` the card's `configs:` give the `json` builder (the key of a `.json` document's array of
 * records, `{"data": [...]}` with `field: data`): the one they agree on, else undefined.
 */
export function cardJsonField(card: Record<string, unknown> | undefined): string | undefined {
	const configs = Array.isArray(card?.configs) ? card.configs.filter(isRecord) : [];
	const fields = new Set(configs.map((config) => config.field).filter((item) => typeof item === "string"));
	return fields.size === 1 ? ([...fields][0] as string) : undefined;
}

/** The format of most of the data files (ties go to the earlier format in FORMATS), if any. */
export function dataFormat(files: readonly DatasetFile[]): string | undefined {
	const counts = new Map<string, number>();
	for (const file of files) {
		if (!isDataFile(file.path)) continue;
		const extension = extensionOf(file.path);
		const format = FORMATS.find((entry) => entry.extensions.includes(extension))?.format;
		if (format) counts.set(format, (counts.get(format) ?? 0) + 1);
	}
	let best: string | undefined;
	for (const { format } of FORMATS) {
		const count = counts.get(format) ?? 0;
		if (count > 0 && (best === undefined || count > (counts.get(best) ?? 0))) best = format;
	}
	return best;
}

/** The `dataset_info` entries of a card: one object, or one per config. */
function datasetInfos(card: Record<string, unknown> | undefined): Record<string, unknown>[] {
	const info = card?.dataset_info;
	if (Array.isArray(info)) return info.filter(isRecord);
	return isRecord(info) ? [info] : [];
}

/** Rows of the largest config the card's `dataset_info` describes (the sum of its splits' `num_examples`). */
export function cardRowCount(card: Record<string, unknown> | undefined): number | undefined {
	let largest: number | undefined;
	for (const info of datasetInfos(card)) {
		const splits = Array.isArray(info.splits) ? info.splits.filter(isRecord) : [];
		let rows = 0;
		let known = false;
		for (const split of splits) {
			const n = split.num_examples;
			if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0) {
				rows += n;
				known = true;
			}
		}
		if (known && (largest === undefined || rows > largest)) largest = rows;
	}
	return largest;
}

/** Whether the card's `dataset_info` describes columns (then the modalities come from it alone). */
export function cardGivesColumns(card: Record<string, unknown> | undefined): boolean {
	return cardColumns(card).some((columns) => columns.length > 0);
}

/**
 * A dataset's tags: the card's metadata (`task_categories:…`, `language:…`, `license:…`, its own `tags`),
 * then `format:`, `modality:` (from the card's `dataset_info.features`, else `fileColumns`, the columns read
 * from the data files, from folder formats, and from the file types of every file: an image or audio file
 * beside a CSV makes the dataset image or audio too), `size_categories:` (the card's, else from its `dataset_info` row counts,
 * else from `fileRows`, the rows counted in the data files) and `library:` tags derived from the files.
 */
export function datasetTags(
	files: readonly DatasetFile[],
	card: Record<string, unknown> | undefined,
	fileRows?: number,
	fileColumns?: readonly DataColumn[],
): string[] {
	const tags: string[] = [...strings(card?.tags)];
	for (const key of CARD_TAG_KEYS) for (const value of strings(card?.[key])) tags.push(`${key}:${value}`);
	const format = dataFormat(files);
	if (format) tags.push(`format:${format}`);
	// The public hub's rules per config's columns: the card's, else those read from the data files.
	const described = cardColumns(card).filter((columns) => columns.length > 0);
	const modalities = new Set<string>();
	for (const columns of described.length > 0 ? described : fileColumns ? [fileColumns] : [])
		for (const modality of columnModalities(columns)) modalities.add(modality);
	const folder = format ? FOLDER_MODALITY[format] : undefined;
	if (folder) modalities.add(folder);
	for (const modality of fileTypeModalities(files)) modalities.add(modality);
	for (const modality of [...modalities].sort()) tags.push(`modality:${modality}`);
	if (strings(card?.size_categories).length === 0) {
		const rows = cardRowCount(card) ?? fileRows;
		if (rows !== undefined) tags.push(`size_categories:${sizeCategory(rows)}`);
	}
	if (format) for (const library of FORMAT_LIBRARIES[format] ?? ["datasets"]) tags.push(`library:${library}`);
	return [...new Set(tags.filter(isValidTag))].slice(0, MAX_TAGS);
}
