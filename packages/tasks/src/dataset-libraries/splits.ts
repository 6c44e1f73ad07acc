/**
 * Which files of a dataset hold which split, as the `datasets` library resolves them (datasets 5.0,
 * `data_files.py`): the card's `configs:` entries (`data_files` as a pattern, a list, or `{ split, path }`
 * items) when it has them, else split keywords in file or folder names (`train`/`training`,
 * `validation`/`valid`/`dev`/`val`, `test`/`testing`/`eval`/`evaluation`, delimited by `-._ ` or digits),
 * else every data file is `train`. Pure: the snippets of "Use this dataset" read only this.
 */

/** The readers snippets can name, by file extension. */
export const TABLE_FORMATS = {
	parquet: "parquet",
	csv: "csv",
	tsv: "tsv",
	jsonl: "jsonl",
	ndjson: "jsonl",
	json: "json",
} as const;
export type TableFormat = (typeof TABLE_FORMATS)[keyof typeof TABLE_FORMATS];

/** One split and its files, in path order. */
export interface SplitFiles {
	split: string;
	files: string[];
}

/** The config a snippet loads: its name (undefined for a repository without `configs:`) and its splits. */
export interface DatasetLayout {
	config?: string;
	/** Every config the card names, in its order. */
	configs: string[];
	splits: SplitFiles[];
}

/** The splits datasets finds by name, with the words it looks for in paths. */
const SPLIT_KEYWORDS: ReadonlyArray<{ split: string; words: readonly string[] }> = [
	{ split: "train", words: ["train", "training"] },
	{ split: "validation", words: ["validation", "valid", "dev", "val"] },
	{ split: "test", words: ["test", "testing", "eval", "evaluation"] },
];

/** Files that describe a dataset rather than hold it. */
const NOT_DATA = /(^|\/)(\.[^/]*|readme\.md|dataset_infos?\.json|dataset_dict\.json|state\.json)$/i;
/** Paths are bounded so a hostile tree cannot make the matching slow. */
const MAX_FILES = 10_000;

function extension(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** The table format of a file, or undefined for other files. */
export function tableFormat(path: string): TableFormat | undefined {
	const ext = extension(path);
	return Object.hasOwn(TABLE_FORMATS, ext) ? TABLE_FORMATS[ext as keyof typeof TABLE_FORMATS] : undefined;
}

function isDataFile(path: string): boolean {
	return !NOT_DATA.test(path) && !path.split("/").some((part) => part.startsWith("."));
}

/** A `data_files` glob (fsspec's: `*` within a folder, `**` across folders, `?` one character) as a RegExp. */
export function globPattern(glob: string): RegExp {
	let source = "";
	for (let index = 0; index < glob.length; index++) {
		const char = glob[index] as string;
		if (char === "*" && glob[index + 1] === "*") {
			// `**/` matches no folder too.
			const slash = glob[index + 2] === "/";
			source += slash ? "(?:.*/)?" : ".*";
			index += slash ? 2 : 1;
		} else if (char === "*") source += "[^/]*";
		else if (char === "?") source += "[^/]";
		else source += char.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
	}
	return new RegExp(`^${source}$`);
}

/** The split a path names by keyword, as datasets' default patterns find it, or undefined. */
export function splitOfPath(path: string): string | undefined {
	const parts = path.toLowerCase().split("/");
	const name = parts.pop() ?? "";
	for (const { split, words } of SPLIT_KEYWORDS) {
		for (const word of words) {
			// In the file name: the word at its start or after a delimiter, followed by a delimiter.
			const inName = new RegExp(`(^|[-._ 0-9])${word}[-._ 0-9]`);
			// A folder: the whole name, or the word after/before a delimiter.
			const inFolder = new RegExp(`(^|[-._ 0-9])${word}($|[-._ 0-9])`);
			if (inName.test(name) || parts.some((part) => inFolder.test(part))) return split;
		}
	}
	return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] {
	if (typeof value === "string") return [value];
	return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** The `{ split, patterns }` of a config's `data_files` (a bare pattern or list is the `train` split). */
function configPatterns(dataFiles: unknown): Array<{ split: string; patterns: string[] }> {
	if (
		typeof dataFiles === "string" ||
		(Array.isArray(dataFiles) && dataFiles.every((d) => typeof d === "string"))
	)
		return [{ split: "train", patterns: stringList(dataFiles) }];
	if (!Array.isArray(dataFiles)) return [];
	return dataFiles
		.filter(isRecord)
		.filter((item) => typeof item.split === "string")
		.map((item) => ({ split: item.split as string, patterns: stringList(item.path) }));
}

function splitsByKeyword(files: readonly string[]): SplitFiles[] {
	const found = new Map<string, string[]>();
	for (const file of files) {
		const split = splitOfPath(file);
		if (split) found.set(split, [...(found.get(split) ?? []), file]);
	}
	// No split named anywhere: everything is `train` (datasets' default).
	if (found.size === 0) return files.length > 0 ? [{ split: "train", files: [...files] }] : [];
	return SPLIT_KEYWORDS.filter(({ split }) => found.has(split)).map(({ split }) => ({
		split,
		files: found.get(split) ?? [],
	}));
}

/**
 * The config a snippet should load and its split files: the card's default config (`default: true`, else
 * the first), its `data_files` matched against the files; without `configs:`, the data files by keyword.
 */
export function datasetLayout(files: readonly string[], cardData: unknown): DatasetLayout {
	const dataFiles = files.slice(0, MAX_FILES).filter(isDataFile).sort();
	const configs =
		isRecord(cardData) && Array.isArray(cardData.configs) ? cardData.configs.filter(isRecord) : [];
	const named = configs.filter((config) => typeof config.config_name === "string");
	if (named.length === 0) return { configs: [], splits: splitsByKeyword(dataFiles) };
	const chosen = named.find((config) => config.default === true) ?? named[0];
	const splits: SplitFiles[] = [];
	for (const { split, patterns } of configPatterns(chosen?.data_files)) {
		const regexes = patterns.map(globPattern);
		const matched = dataFiles.filter((file) => regexes.some((regex) => regex.test(file)));
		if (matched.length > 0) splits.push({ split, files: matched });
	}
	return {
		config: chosen?.config_name as string,
		configs: named.map((config) => config.config_name as string),
		splits,
	};
}

/**
 * The one table format and one file per split a pandas or polars snippet can read, or undefined when
 * the files do not allow it (a split in several shards, mixed formats, no table files).
 */
export function singleFileSplits(
	layout: DatasetLayout,
): { format: TableFormat; splits: Array<{ split: string; file: string }> } | undefined {
	if (layout.splits.length === 0) return undefined;
	let format: TableFormat | undefined;
	const splits: Array<{ split: string; file: string }> = [];
	for (const { split, files } of layout.splits) {
		const [file] = files;
		if (files.length !== 1 || file === undefined) return undefined;
		const fileFormat = tableFormat(file);
		if (fileFormat === undefined || (format !== undefined && fileFormat !== format)) return undefined;
		format = fileFormat;
		splits.push({ split, file });
	}
	return format ? { format, splits } : undefined;
}
