/**
 * Which files make which config and split of a dataset, as the `datasets` library (5.0) and the public
 * viewer derive them: the card's `configs:` (`config_name`, `data_files` as a pattern, a list of
 * patterns, or `{ split, path }` entries, `data_dir`, `default`), else one config `default` whose splits
 * come from the file layout (datasets' `data_files.py`): first the sharded names `push_to_hub` writes
 * (`data/{split}-00000-of-00001.parquet`), then split keywords in folder names, then in file names, then
 * every file in `train`. Pure: no I/O.
 */

import { dataFormat, extensionOf } from "../datasets/tags.js";
import {
	archiveFiles,
	archiveFormat,
	isFolderKind,
	isMediaPath,
	MAX_ARCHIVES_FOR_FORMAT,
	type FolderKind,
} from "./folder.js";
import { globMatcher } from "./glob.js";

/** A data file of the revision. */
export interface LayoutFile {
	path: string;
	size: number;
	sha256: string;
}

/** The formats the viewer reads (the `datasets` builders of the same names). */
export const VIEWER_FORMATS = ["parquet", "csv", "json"] as const;
export type ViewerFormat = (typeof VIEWER_FORMATS)[number];

export interface SplitLayout {
	name: string;
	/** In the order `datasets` reads them (sorted by path). */
	files: LayoutFile[];
	/** A folder's metadata files its patterns match (sorted by path). */
	metadata?: LayoutFile[];
	/** A folder's `.zip` archives its patterns match (sorted by path), whose files it reads after its own. */
	archives?: LayoutFile[];
}

/** The entry names of a revision's `.zip` files the layout may look into (by path; others are not looked into). */
export type ArchiveListings = ReadonlyMap<string, readonly string[]>;

export interface ConfigLayout {
	name: string;
	/** The format of most of its files; undefined when it is not one the viewer reads. */
	format: ViewerFormat | undefined;
	/** What the files are when the viewer cannot read them (`imagefolder`, `text`, …). */
	otherFormat?: string;
	splits: SplitLayout[];
	/** The `json` builder's `field` (the card's): a `.json` document's records are the array under this key. */
	jsonField?: string;
	/** An audio or image folder whose files metadata files (metadata.csv, .jsonl, .parquet) describe. */
	hasMetadata?: boolean;
	/**
	 * An audio or image folder's labels from folder names: `always` or `never` when the card's config says
	 * (`drop_labels`), or when metadata files are found (never); undefined: when the folders make them.
	 */
	labels?: "always" | "never";
}

/** A folder builder's options from the card's config (`drop_labels`, `drop_metadata`; undefined: not given). */
export interface FolderOptions {
	dropLabels?: boolean;
	dropMetadata?: boolean;
}

/** Most configs and splits a dataset may have (the public viewer refuses datasets with more). */
export const MAX_CONFIGS = 3000;
export const MAX_SPLITS = 30;

/** datasets' split keywords (`SPLIT_KEYWORDS`), in its order of splits. */
const SPLIT_KEYWORDS: ReadonlyArray<[string, readonly string[]]> = [
	["train", ["train", "training"]],
	["validation", ["validation", "valid", "dev", "val"]],
	["test", ["test", "testing", "eval", "evaluation"]],
];
/** `NON_WORDS_CHARS`: what may stand around a keyword. */
const SEP = "-._ 0-9";
/** datasets' base patterns for fsspec ≥ 2023.12 (`KEYWORDS_IN_*_BASE_PATTERNS`). */
const DIR_NAME_PATTERNS = [
	"**/{keyword}/**",
	"**/{keyword}[{sep}]*/**",
	"**/*[{sep}]{keyword}/**",
	"**/*[{sep}]{keyword}[{sep}]*/**",
];
const FILE_NAME_PATTERNS = ["**/{keyword}[{sep}]*", "**/*[{sep}]{keyword}[{sep}]*"];
/** `SPLIT_PATTERN_SHARDED`, with the split name captured. */
const SHARDED = /^data\/([^/]+?)-\d{5}-of-\d{5}[^/]*\.[^/]*$/;
/** datasets' `_split_re`: a split name is a word. */
const SPLIT_NAME = /^\w+(\.\w+)*$/;
/** The folder builders' metadata files (`METADATA_FILENAMES`). */
const METADATA_NAMES = ["metadata.csv", "metadata.jsonl", "metadata.parquet"];
/** `FILES_TO_IGNORE` and the folder builders' metadata files. */
const IGNORED_NAMES: ReadonlySet<string> = new Set([
	"readme.md",
	"config.json",
	"dataset_info.json",
	"dataset_infos.json",
	"dummy_data.zip",
	"dataset_dict.json",
	...METADATA_NAMES,
]);

/** Whether datasets would read a file as data: no hidden part (`.x`, `__x`), not the card or metadata. */
export function isDataPath(path: string): boolean {
	return !isHiddenPath(path) && !IGNORED_NAMES.has((path.split("/").at(-1) ?? "").toLowerCase());
}

/** Whether a path is a folder builder's metadata file (not hidden). */
function isMetadataPath(path: string): boolean {
	return !isHiddenPath(path) && METADATA_NAMES.includes((path.split("/").at(-1) ?? "").toLowerCase());
}

/** Whether datasets skips a path as hidden: a part `.x` or `__x`. */
function isHiddenPath(path: string): boolean {
	return path.split("/").some((part) => part.startsWith(".") || part.startsWith("__"));
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function patternsOf(value: unknown): string[] {
	const list = Array.isArray(value) ? value : [value];
	return list.filter((item): item is string => typeof item === "string" && item !== "");
}

function filesMatching(
	files: readonly LayoutFile[],
	patterns: readonly string[],
	base: string,
): LayoutFile[] {
	const matchers = patterns.map((pattern) => globMatcher(base + pattern.replace(/^\.?\//, "")));
	return files.filter((file) => matchers.some((matches) => matches(file.path)));
}

function formatOf(files: readonly LayoutFile[]): Pick<ConfigLayout, "format" | "otherFormat"> {
	const format = dataFormat(files);
	if (format === undefined) return { format: undefined };
	return (VIEWER_FORMATS as readonly string[]).includes(format)
		? { format: format as ViewerFormat }
		: { format: undefined, otherFormat: format };
}

/** A config's files keep only the chosen format's (datasets loads one builder per config). */
function onlyFormat(files: LayoutFile[], format: ViewerFormat | undefined): LayoutFile[] {
	if (format === undefined) return files;
	const extensions =
		format === "parquet" ? ["parquet"] : format === "csv" ? ["csv", "tsv"] : ["json", "jsonl", "ndjson"];
	return files.filter((file) =>
		extensions.includes((/\.([^./]+)$/.exec(file.path)?.[1] ?? "").toLowerCase()),
	);
}

function byPath(a: LayoutFile, b: LayoutFile): number {
	return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function isZipPath(path: string): boolean {
	return extensionOf(path) === "zip";
}

/** Formats whose extension wins a tie of counts against `.zip` in datasets' `infer_module_for_data_files_list`. */
const PREFERRED_FORMATS: ReadonlySet<string> = new Set(["parquet", "lance", "arrow", "json", "csv"]);

/**
 * The folder builder of a config whose `.zip` files are its most common data files, as datasets infers it from
 * the first archives' files; undefined when zips do not dominate, were not listed, or hold no audio or images.
 */
function archiveKind(
	files: readonly LayoutFile[],
	archives: ArchiveListings | undefined,
): FolderKind | undefined {
	if (archives === undefined) return undefined;
	const zips = files.filter((file) => isZipPath(file.path) && isDataPath(file.path)).sort(byPath);
	if (zips.length === 0) return undefined;
	const others = formatOf(files);
	const best = others.format ?? others.otherFormat;
	if (best !== undefined) {
		const count = files.filter(
			(file) => !isZipPath(file.path) && isDataPath(file.path) && dataFormat([file]) === best,
		).length;
		if (count > zips.length || (count === zips.length && PREFERRED_FORMATS.has(best))) return undefined;
	}
	const listings = zips.slice(0, MAX_ARCHIVES_FOR_FORMAT).map((zip) => archives.get(zip.path));
	if (listings.some((listing) => listing === undefined)) return undefined;
	const kind = archiveFormat(listings as string[][]);
	return isFolderKind(kind) ? kind : undefined;
}

function configFrom(
	name: string,
	splits: Array<[string, LayoutFile[]]>,
	options: FolderOptions = {},
	archives?: ArchiveListings,
): ConfigLayout {
	const all = splits.flatMap(([, files]) => files);
	const inArchives = archiveKind(all, archives);
	const { format, otherFormat } =
		inArchives === undefined ? formatOf(all) : { format: undefined, otherFormat: inArchives };
	// A folder builder reads its media files only (others are ignored, as the builder ignores them) and the
	// metadata files its splits' patterns match. Other formats never read metadata files.
	const folder = isFolderKind(otherFormat) ? otherFormat : undefined;
	const keep = (files: LayoutFile[]): LayoutFile[] =>
		folder !== undefined
			? files.filter((file) => isMediaPath(folder, file.path))
			: onlyFormat(
					files.filter((file) => !isMetadataPath(file.path)),
					format,
				);
	// As the folder builders decide (`_split_generators`): metadata files found (unless both options drop
	// everything, when nothing is looked for) mean no labels, and their rows unless `drop_metadata`; without
	// them, labels as `drop_labels` says, or as the folders make them when it is not given.
	const analyze = !(options.dropLabels === true && options.dropMetadata === true);
	const zipsOf = (files: readonly LayoutFile[]): LayoutFile[] =>
		inArchives === undefined
			? []
			: files.filter((file) => isZipPath(file.path) && isDataPath(file.path)).sort(byPath);
	const metadataFound =
		folder !== undefined &&
		analyze &&
		splits.some(
			([, files]) =>
				files.some((file) => isMetadataPath(file.path)) ||
				zipsOf(files).some(
					(zip) => archiveFiles(inArchives ?? folder, archives?.get(zip.path) ?? []).metadata.length > 0,
				),
		);
	const hasMetadata = metadataFound && options.dropMetadata !== true;
	const labels: ConfigLayout["labels"] =
		folder === undefined
			? undefined
			: metadataFound || !analyze || options.dropLabels === true
				? "never"
				: options.dropLabels === false
					? "always"
					: undefined;
	const kept = splits
		.map(([split, files]): SplitLayout => {
			const metadata = hasMetadata ? files.filter((file) => isMetadataPath(file.path)).sort(byPath) : [];
			const zips = zipsOf(files);
			return {
				name: split,
				files: keep([...files]).sort(byPath),
				...(metadata.length > 0 ? { metadata } : {}),
				...(zips.length > 0 ? { archives: zips } : {}),
			};
		})
		// A folder's split of metadata files (or archives) only is a split (its rows are theirs).
		.filter(
			(split) =>
				split.files.length > 0 || (split.metadata?.length ?? 0) > 0 || (split.archives?.length ?? 0) > 0,
		)
		.slice(0, MAX_SPLITS);
	return {
		name,
		format,
		...(otherFormat ? { otherFormat } : {}),
		splits: kept,
		...(hasMetadata ? { hasMetadata } : {}),
		...(labels === undefined ? {} : { labels }),
	};
}

/** Python's truth of a card value (`not self.config.drop_labels`: a string "false" is true), or undefined for none. */
function pythonTruth(value: unknown): boolean | undefined {
	if (value === undefined || value === null) return undefined;
	if (Array.isArray(value)) return value.length > 0;
	if (typeof value === "object") return Object.keys(value).length > 0;
	return Boolean(value);
}

/** The splits of a config from the file layout alone (datasets' `_get_data_files_patterns`). */
function defaultSplits(files: readonly LayoutFile[]): Array<[string, LayoutFile[]]> {
	const sharded = new Map<string, LayoutFile[]>();
	for (const file of files) {
		const split = SHARDED.exec(file.path)?.[1];
		if (split !== undefined && SPLIT_NAME.test(split))
			sharded.set(split, [...(sharded.get(split) ?? []), file]);
	}
	if (sharded.size > 0) {
		const known = SPLIT_KEYWORDS.map(([split]) => split).filter((split) => sharded.has(split));
		const others = [...sharded.keys()].filter((split) => !known.includes(split)).sort();
		return [...known, ...others].map((split) => [split, sharded.get(split) ?? []]);
	}
	for (const bases of [DIR_NAME_PATTERNS, FILE_NAME_PATTERNS]) {
		const found: Array<[string, LayoutFile[]]> = [];
		for (const [split, keywords] of SPLIT_KEYWORDS) {
			const patterns = keywords.flatMap((keyword) =>
				bases.map((base) => base.replaceAll("{keyword}", keyword).replaceAll("{sep}", SEP)),
			);
			// Each split's files are those its patterns match (datasets resolves each split alone).
			const matched = filesMatching(files, patterns, "");
			if (matched.length > 0) found.push([split, matched]);
		}
		if (found.length > 0) return found;
	}
	return files.length > 0 ? [["train", [...files]]] : [];
}

/** The configs of a card's `configs:` entry list (invalid entries are skipped, as the public viewer skips). */
function cardConfigs(
	configs: readonly unknown[],
	files: readonly LayoutFile[],
	archives?: ArchiveListings,
): ConfigLayout[] {
	const layouts: Array<ConfigLayout & { isDefault: boolean }> = [];
	for (const entry of configs.slice(0, MAX_CONFIGS)) {
		if (!isRecord(entry)) continue;
		const name =
			typeof entry.config_name === "string" && entry.config_name !== "" ? entry.config_name : "default";
		if (layouts.some((layout) => layout.name === name)) continue;
		const dataDir = typeof entry.data_dir === "string" ? entry.data_dir.replace(/^\.?\/|\/$/g, "") : "";
		const base = dataDir === "" ? "" : `${dataDir}/`;
		const scoped = files.filter((file) => file.path.startsWith(base));
		let splits: Array<[string, LayoutFile[]]>;
		const dataFiles = entry.data_files;
		if (dataFiles === undefined || dataFiles === null) splits = defaultSplits(scoped.map((f) => f));
		else if (Array.isArray(dataFiles) && dataFiles.some(isRecord)) {
			splits = [];
			for (const item of dataFiles) {
				if (!isRecord(item)) continue;
				const split = typeof item.split === "string" && item.split !== "" ? item.split : "train";
				if (splits.some(([known]) => known === split)) continue;
				splits.push([split, filesMatching(scoped, patternsOf(item.path), base)]);
			}
		} else if (isRecord(dataFiles)) {
			splits = Object.entries(dataFiles).map(([split, paths]) => [
				split,
				filesMatching(scoped, patternsOf(paths), base),
			]);
		} else splits = [["train", filesMatching(scoped, patternsOf(dataFiles), base)]];
		const options: FolderOptions = {};
		const dropLabels = pythonTruth(entry.drop_labels);
		const dropMetadata = pythonTruth(entry.drop_metadata);
		if (dropLabels !== undefined) options.dropLabels = dropLabels;
		if (dropMetadata !== undefined) options.dropMetadata = dropMetadata;
		const config = configFrom(name, splits, options, archives);
		const field = typeof entry.field === "string" && entry.field !== "" ? entry.field : undefined;
		layouts.push({
			...config,
			...(field !== undefined && config.format === "json" ? { jsonField: field } : {}),
			isDefault: entry.default === true,
		});
	}
	// The default config comes first, as the public viewer lists it.
	const ordered = [
		...layouts.filter((layout) => layout.isDefault),
		...layouts.filter((layout) => !layout.isDefault),
	];
	return ordered.map(({ isDefault: _isDefault, ...layout }) => layout);
}

/** The configs and splits of a dataset revision: its card's front matter (or undefined) and its files. */
export function datasetLayout(
	card: Record<string, unknown> | undefined,
	allFiles: readonly LayoutFile[],
	archives?: ArchiveListings,
): ConfigLayout[] {
	// Metadata files are matched by the splits' patterns as data files are (datasets 5.0 lists them with
	// the data files of the split they fall in; a folder builder reads them, the others drop them).
	const files = allFiles.filter((file) => isDataPath(file.path) || isMetadataPath(file.path));
	const configs = card?.configs;
	if (Array.isArray(configs) && configs.length > 0) return cardConfigs(configs, files, archives);
	const config = configFrom("default", defaultSplits(files), {}, archives);
	return config.splits.length > 0 ? [config] : [];
}

/** Whether the viewer shows a config's rows: a format the engine reads, or a folder of audio or image files. */
export function isViewable(config: ConfigLayout): boolean {
	return config.format !== undefined || isFolderKind(config.otherFormat);
}
