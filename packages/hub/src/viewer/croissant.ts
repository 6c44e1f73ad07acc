/**
 * A dataset's Croissant metadata (JSON-LD, https://mlcommons.org/croissant/), as the public hub answers
 * `GET /api/datasets/{id}/croissant`: the shape of dataset-viewer's "croissant crumbs" (a repository FileObject,
 * a FileSet per config, per config a RecordSet of its splits and a RecordSet of its fields, the first of them the
 * record's split read from its file's path) with the hub's own metadata (name, description from the card,
 * license, url, citation). Pure: the caller reads the configs' features and the card.
 */

import type { ViewerFeature } from "../api/viewer.js";
import type { ViewerFormat } from "./layout.js";

/** Fields per RecordSet and configs per document, as dataset-viewer caps them (MAX_COLUMNS, CROISSANT_MAX_CONFIGS). */
export const CROISSANT_MAX_FIELDS = 1000;
export const CROISSANT_MAX_CONFIGS = 100;

/** A split of a config and its data files, as repository paths. */
export interface CroissantSplit {
	name: string;
	files: readonly string[];
}

/** One config as the viewer reads it. */
export interface CroissantConfig {
	name: string;
	format: ViewerFormat;
	/** In the viewer's order; their files are the config's FileSet. */
	splits: readonly CroissantSplit[];
	features: Readonly<Record<string, ViewerFeature>>;
	/** Only the first files of a split were read (MODELHUB_VIEWER_MAX_SPLIT_BYTES). */
	partial: boolean;
}

export interface CroissantInput {
	/** `namespace/name`. */
	id: string;
	/** The dataset's page (`{origin}/datasets/{id}`). */
	url: string;
	/** The revision the files are read at (a branch name or commit). */
	revision: string;
	/** The README's text, when there is one. */
	card?: string;
	/** The card's `license:` (an id or a list of ids). */
	license?: unknown;
	/** At most CROISSANT_MAX_CONFIGS configs are described. */
	configs: readonly CroissantConfig[];
	/** The dataset has more configs than described. */
	configsCut?: boolean;
	maxFields?: number;
}

export type JsonLd = { [key: string]: JsonLdValue };
export type JsonLdValue = string | number | boolean | JsonLd | JsonLdValue[];

/** The JSON-LD context of Croissant 1.1, as dataset-viewer writes it (its GeoCroissant terms left out). */
export const CROISSANT_CONTEXT: Readonly<JsonLd> = {
	"@language": "en",
	"@vocab": "https://schema.org/",
	arrayShape: "cr:arrayShape",
	citeAs: "cr:citeAs",
	column: "cr:column",
	conformsTo: "dct:conformsTo",
	cr: "http://mlcommons.org/croissant/",
	data: { "@id": "cr:data", "@type": "@json" },
	dataBiases: "cr:dataBiases",
	dataCollection: "cr:dataCollection",
	dataType: { "@id": "cr:dataType", "@type": "@vocab" },
	dct: "http://purl.org/dc/terms/",
	extract: "cr:extract",
	field: "cr:field",
	fileProperty: "cr:fileProperty",
	fileObject: "cr:fileObject",
	fileSet: "cr:fileSet",
	format: "cr:format",
	includes: "cr:includes",
	isArray: "cr:isArray",
	isLiveDataset: "cr:isLiveDataset",
	jsonPath: "cr:jsonPath",
	key: "cr:key",
	md5: "cr:md5",
	parentField: "cr:parentField",
	path: "cr:path",
	personalSensitiveInformation: "cr:personalSensitiveInformation",
	recordSet: "cr:recordSet",
	references: "cr:references",
	regex: "cr:regex",
	repeated: "cr:repeated",
	replace: "cr:replace",
	sc: "https://schema.org/",
	separator: "cr:separator",
	source: "cr:source",
	subField: "cr:subField",
	transform: "cr:transform",
};

/** `datasets` Value dtypes and their Croissant data types (dataset-viewer's HF_TO_CROISSANT_VALUE_TYPE). */
export const CROISSANT_VALUE_TYPES: Readonly<Record<string, string>> = {
	binary: "sc:Text",
	bool: "sc:Boolean",
	date32: "sc:Date",
	date64: "sc:Date",
	float8: "sc:Float",
	float16: "cr:Float16",
	float32: "cr:Float32",
	float64: "cr:Float64",
	int8: "cr:Int8",
	int16: "cr:Int16",
	int32: "cr:Int32",
	int64: "cr:Int64",
	large_string: "sc:Text",
	string: "sc:Text",
	time32: "sc:Date",
	time64: "sc:Date",
	"timestamp[ns]": "sc:Date",
	uint8: "cr:UInt8",
	uint16: "cr:UInt16",
	uint32: "cr:UInt32",
	uint64: "cr:UInt64",
};

/** Media types of the viewer's formats (mlcroissant's encoding formats). */
const ENCODING_FORMATS: Readonly<Record<ViewerFormat, string>> = {
	parquet: "application/x-parquet",
	csv: "text/csv",
	json: "application/jsonlines",
};

/** The repository's FileObject id. */
const REPO_ID = "repo";

/** Longest split regex written (its exact-path form grows with the files): longer, the split field is left out. */
export const CROISSANT_MAX_SPLIT_REGEX = 16_384;

/**
 * An id or name as Croissant takes it: `/` delimits ids, so every character outside `[A-Za-z0-9._-]` becomes `_`,
 * and ids are unique (`_0` appended until they are), as dataset-viewer's escape_ids does.
 */
export function escapeId(id: string, taken: Set<string>): string {
	let escaped = id.replace(/[^a-zA-Z0-9\-_.]/g, "_");
	while (taken.has(escaped)) escaped = `${escaped}_0`;
	taken.add(escaped);
	return escaped;
}

/** A struct key as a JSONPath step: bare when plain, else quoted with `'`, `[` and `]` escaped. */
export function jsonPathKey(key: string): string {
	if (/^[a-zA-Z0-9_]+$/.test(key)) return key;
	return `['${key.replace(/(?<!\\)(['[\]])/g, "\\$1")}']`;
}

/** A file path as a glob matching only itself (`*`, `?`, `[`, `]` bracketed). */
function literalGlob(path: string): string {
	return path.replace(/[*?[\]]/g, (character) => `[${character}]`);
}

function sourceOf(fileSet: string, column: string, jsonPath: readonly string[]): JsonLd {
	const source: JsonLd = { fileSet: { "@id": fileSet }, extract: { column } };
	if (jsonPath.length === 1) source.transform = { jsonPath: jsonPath[0] ?? "" };
	else if (jsonPath.length > 1) source.transform = jsonPath.map((path) => ({ jsonPath: path }));
	return source;
}

function isStruct(feature: ViewerFeature): boolean {
	return feature._type === undefined;
}

/** A `datasets` feature as a Croissant field, or undefined when Croissant has no type for it. */
function fieldOf(
	fileSet: string,
	id: string,
	column: string,
	feature: ViewerFeature,
	taken: Set<string>,
	jsonPath: readonly string[],
): JsonLd | undefined {
	const kind = feature._type;
	const typed = (dataType: string, source: JsonLd): JsonLd => ({
		"@type": "cr:Field",
		"@id": id,
		dataType,
		source,
	});
	if (kind === "Value" && typeof feature.dtype === "string") {
		const dataType = CROISSANT_VALUE_TYPES[feature.dtype];
		return dataType === undefined ? undefined : typed(dataType, sourceOf(fileSet, column, jsonPath));
	}
	if (kind === "ClassLabel") return typed("sc:Integer", sourceOf(fileSet, column, jsonPath));
	if (kind === "Image") {
		// An Image cell is a struct {bytes, path}: the image is its bytes.
		const source = sourceOf(fileSet, column, jsonPath);
		const bytes: JsonLd = { jsonPath: "bytes" };
		const before = source.transform;
		source.transform = before === undefined ? bytes : [...(Array.isArray(before) ? before : [before]), bytes];
		return typed("sc:ImageObject", source);
	}
	if (kind === "List" || kind === "LargeList" || kind === "Sequence") {
		const shape: number[] = [];
		let inner: ViewerFeature = feature;
		while (
			(inner._type === "List" || inner._type === "LargeList" || inner._type === "Sequence") &&
			typeof inner.feature === "object" &&
			inner.feature !== null &&
			!Array.isArray(inner.feature)
		) {
			shape.push(typeof inner.length === "number" && inner.length > 0 ? inner.length : -1);
			inner = inner.feature;
		}
		if (inner === feature) return undefined;
		const field = fieldOf(fileSet, id, column, inner, taken, jsonPath);
		if (field === undefined) return undefined;
		return { ...field, isArray: true, arrayShape: shape.join(",") };
	}
	if (isStruct(feature)) {
		const subFields: JsonLd[] = [];
		for (const [key, sub] of Object.entries(feature)) {
			if (typeof sub !== "object" || sub === null || Array.isArray(sub)) continue;
			const field = fieldOf(fileSet, `${id}/${escapeId(key, taken)}`, column, sub, taken, [
				...jsonPath,
				jsonPathKey(key),
			]);
			if (field !== undefined) subFields.push(field);
		}
		return { "@type": "cr:Field", "@id": id, subField: subFields };
	}
	return undefined;
}

/** Text as a regular expression matching only itself, in the syntax Python's `re` and JavaScript share. */
function literalRegex(text: string): string {
	return text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
}

/**
 * Where a split's name is in a file's path: the first occurrence not inside a longer word (as `datasets` finds
 * split keywords between separators), else the first occurrence; undefined when the path does not hold it.
 */
function splitNameAt(path: string, split: string): number | undefined {
	let fallback: number | undefined;
	for (let at = path.indexOf(split); at >= 0; at = path.indexOf(split, at + 1)) {
		const before = path[at - 1];
		const after = path[at + split.length];
		const bounded = (character: string | undefined) => character === undefined || !/[A-Za-z]/.test(character);
		if (bounded(before) && bounded(after)) return at;
		fallback ??= at;
	}
	return fallback;
}

/** The split a regex gives a path, as mlcroissant reads it (`re.match`, then the first group that matched). */
function splitByRegex(regex: RegExp, path: string): string | undefined {
	const match = regex.exec(path);
	return match?.slice(1).find((group) => group !== undefined);
}

/**
 * The regex of the config's `split` field: applied to a file's repository path (`fileProperty: fullpath`), its
 * capture is the file's split, as in dataset-viewer's `{config}/(?:partial-)?(train|test)/.+parquet$`. The files
 * keep the repository's layout, so it is made from their paths: each path with its split's name captured and its
 * digit runs generalised (`data/(train|test)-[0-9]+-of-[0-9]+\\.parquet$` for push_to_hub's files), else each
 * path exactly. It is checked against every file; undefined when no regex can say a file's split (a split whose
 * name is not in its files' paths, as a card's `data_files` may name them) or it would be too long.
 */
export function splitRegex(splits: readonly CroissantSplit[]): string | undefined {
	const parts: Array<{ split: string; prefix: string; suffix: string }> = [];
	for (const split of splits) {
		for (const path of split.files) {
			const at = splitNameAt(path, split.name);
			if (at === undefined) return undefined;
			parts.push({
				split: split.name,
				prefix: path.slice(0, at),
				suffix: path.slice(at + split.name.length),
			});
		}
	}
	if (parts.length === 0) return undefined;
	const general = (text: string) => literalRegex(text).replace(/[0-9]+/g, "[0-9]+");
	const alternatives = (shape: (text: string) => string): string => {
		// One alternative per path shape, with the splits that have it: one group when all share one shape.
		const shapes = new Map<string, { prefix: string; suffix: string; splits: string[] }>();
		for (const part of parts) {
			const prefix = shape(part.prefix);
			const suffix = shape(part.suffix);
			const key = `${prefix}\u0000${suffix}`;
			const entry = shapes.get(key) ?? { prefix, suffix, splits: [] };
			if (!entry.splits.includes(part.split)) entry.splits.push(part.split);
			shapes.set(key, entry);
		}
		return [...shapes.values()]
			.map(({ prefix, suffix, splits: names }) => `${prefix}(${names.map(literalRegex).join("|")})${suffix}$`)
			.join("|");
	};
	for (const candidate of [alternatives(general), alternatives(literalRegex)]) {
		if (candidate.length > CROISSANT_MAX_SPLIT_REGEX) continue;
		const regex = new RegExp(`^(?:${candidate})`);
		const path = (part: (typeof parts)[number]) => `${part.prefix}${part.split}${part.suffix}`;
		if (parts.every((part) => splitByRegex(regex, path(part)) === part.split)) return candidate;
	}
	return undefined;
}

/** The card's text after its YAML front matter. */
export function cardBody(card: string): string {
	const text = card.startsWith("\ufeff") ? card.slice(1) : card;
	const front = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
	return (front ? text.slice(front[0].length) : text).trim();
}

/** The first BibTeX block of a card's text (```bibtex … ```), as the dataset's citation. */
export function cardCitation(body: string): string | undefined {
	const block = /```bibtex[^\n]*\n([\s\S]*?)```/i.exec(body);
	const citation = block?.[1]?.trim();
	return citation === undefined || citation === "" ? undefined : citation;
}

/** License ids as URLs (choosealicense.com names the common ids), other values as given. */
function licenseOf(license: unknown): JsonLdValue | undefined {
	const ids = (Array.isArray(license) ? license : [license]).filter(
		(item): item is string => typeof item === "string" && item.trim() !== "",
	);
	const urls = ids.map((id) =>
		/^[a-z0-9][a-z0-9.+-]*$/.test(id) ? `https://choosealicense.com/licenses/${id}/` : id,
	);
	if (urls.length === 0) return undefined;
	return urls.length === 1 ? (urls[0] ?? "") : urls;
}

/** The Croissant document of a dataset. */
export function croissantDocument(input: CroissantInput): JsonLd {
	const maxFields = input.maxFields ?? CROISSANT_MAX_FIELDS;
	const taken = new Set<string>([REPO_ID]);
	const distribution: JsonLd[] = [
		{
			"@type": "cr:FileObject",
			"@id": REPO_ID,
			name: REPO_ID,
			description: "The Hugging Face git repository.",
			contentUrl: `${input.url}/tree/${encodeURIComponent(input.revision)}`,
			encodingFormat: "git+https",
			// What dataset-viewer writes: a git repository has no single checksum (mlcommons/croissant#80).
			sha256: "https://github.com/mlcommons/croissant/issues/80",
		},
	];
	const recordSets: JsonLd[] = [];
	const configs = input.configs.slice(0, CROISSANT_MAX_CONFIGS);
	const cut = input.configsCut === true || input.configs.length > CROISSANT_MAX_CONFIGS;
	for (const config of configs) {
		const fileSet = escapeId(`${config.format}-files-for-config-${config.name}`, taken);
		const includes = config.splits.flatMap((split) => split.files.map(literalGlob));
		distribution.push({
			"@type": "cr:FileSet",
			"@id": fileSet,
			containedIn: { "@id": REPO_ID },
			encodingFormat: ENCODING_FORMATS[config.format],
			includes: includes.length === 1 ? (includes[0] ?? "") : includes,
		});
		// Croissant ids are unique: a config named as the dataset gets a prefix (dataset-viewer's get_record_set).
		const recordSet = escapeId(config.name === input.id ? `record_set_${config.name}` : config.name, taken);
		const splitsSet = `${recordSet}_splits`;
		recordSets.push({
			"@type": "cr:RecordSet",
			dataType: "cr:Split",
			key: { "@id": `${splitsSet}/split_name` },
			"@id": splitsSet,
			name: splitsSet,
			description: `Splits for the ${recordSet} config.`,
			field: [{ "@type": "cr:Field", "@id": `${splitsSet}/split_name`, dataType: "sc:Text" }],
			data: config.splits.map((split) => ({ [`${splitsSet}/split_name`]: split.name })),
		});
		const fields: JsonLd[] = [];
		// Each record's split, read from its file's path, referencing the splits record set (as dataset-viewer's).
		const regex = splitRegex(config.splits);
		if (regex !== undefined) {
			fields.push({
				"@type": "cr:Field",
				"@id": `${recordSet}/split`,
				dataType: "sc:Text",
				source: { fileSet: { "@id": fileSet }, extract: { fileProperty: "fullpath" }, transform: { regex } },
				references: { field: { "@id": `${splitsSet}/split_name` } },
			});
		}
		const skipped: string[] = [];
		const fieldIds = new Set<string>();
		const columns = Object.entries(config.features);
		for (const [column, feature] of columns.slice(0, maxFields)) {
			const field = fieldOf(
				fileSet,
				`${recordSet}/${escapeId(column, fieldIds)}`,
				column,
				feature,
				taken,
				[],
			);
			if (field === undefined) skipped.push(column);
			else fields.push(field);
		}
		let description = `${input.id} - '${config.name}' subset`;
		if (config.partial) description += " (first files only)";
		if (cut)
			description += ` (only the first ${CROISSANT_MAX_CONFIGS} subsets are included in this metadata)`;
		const notes: string[] = [];
		const plural = (count: number, word: string): string => `${count} ${word}${count > 1 ? "s" : ""}`;
		const splitNames = config.splits.map((split) => split.name);
		if (config.splits.length > 1)
			notes.push(`- ${plural(splitNames.length, "split")}: ${splitNames.join(", ")}`);
		if (regex === undefined) notes.push("- no split field: the files' paths do not tell their splits apart");
		if (skipped.length > 0)
			notes.push(`- ${plural(skipped.length, "skipped column")}: ${skipped.join(", ")}`);
		if (columns.length > maxFields)
			notes.push(`- ${plural(columns.length - maxFields, "skipped column")} (max number of columns reached)`);
		if (notes.length > 0) description += `\n\nAdditional information:\n${notes.join("\n")}`;
		recordSets.push({ "@type": "cr:RecordSet", "@id": recordSet, description, field: fields });
	}
	const body = input.card === undefined ? "" : cardBody(input.card);
	const citation = cardCitation(body);
	const license = licenseOf(input.license);
	return {
		"@context": { ...CROISSANT_CONTEXT },
		"@type": "sc:Dataset",
		name: input.id.slice(input.id.lastIndexOf("/") + 1),
		alternateName: [input.id],
		conformsTo: "http://mlcommons.org/croissant/1.1",
		description: body === "" ? `${input.id} dataset` : body,
		url: input.url,
		...(license === undefined ? {} : { license }),
		...(citation === undefined ? {} : { citeAs: citation }),
		distribution,
		recordSet: recordSets,
	};
}
