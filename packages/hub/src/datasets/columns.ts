/**
 * A dataset's columns as the modality rules look at them (the `datasets` feature types), read from a card's
 * `dataset_info.features`, from the features `datasets` writes into a Parquet file, from a Parquet schema,
 * or from sample records of CSV and JSON files; and the public hub's `modality:` rules over them
 * (dataset-viewer's `dataset-modalities` job: `detect_features_modalities`). Pure: no I/O.
 */

/** A column's type: a `datasets` Value (by dtype), a media or special feature, a list or a struct. */
export type ColumnType =
	| { kind: "value"; dtype: string }
	| { kind: "image" | "audio" | "video" | "pdf" | "translation" | "class_label" | "other" }
	| { kind: "list"; of: ColumnType }
	| { kind: "struct"; fields: ColumnType[] };

export interface DataColumn {
	name: string;
	type: ColumnType;
}

/** Nesting read before a type is called `other` (a hostile card or file cannot recurse without end). */
const MAX_DEPTH = 16;
/** Columns read from one source at most (the viewer's default column bound). */
export const MAX_COLUMNS = 1000;

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

const OTHER: ColumnType = { kind: "other" };

/** datasets' feature `_type` names of media and special features. */
const SPECIAL_TYPES: Readonly<Record<string, ColumnType>> = {
	Image: { kind: "image" },
	Audio: { kind: "audio" },
	Video: { kind: "video" },
	Pdf: { kind: "pdf" },
	Translation: { kind: "translation" },
	TranslationVariableLanguages: { kind: "translation" },
	ClassLabel: { kind: "class_label" },
};

/**
 * A feature in `Features.to_dict()`'s JSON shape (Parquet files' `huggingface` metadata):
 * `{ dtype, _type: "Value" }`, `{ _type: "Image" }`, `{ feature, _type: "List" | "LargeList" | "Sequence" }`,
 * a struct as an object of features, a list as `[feature]`.
 */
export function featureJsonType(feature: unknown, depth = 0): ColumnType {
	if (depth > MAX_DEPTH) return OTHER;
	if (Array.isArray(feature)) return { kind: "list", of: featureJsonType(feature[0], depth + 1) };
	if (!isRecord(feature)) return OTHER;
	const type = feature._type;
	if (typeof type !== "string") {
		return {
			kind: "struct",
			fields: Object.values(feature)
				.slice(0, MAX_COLUMNS)
				.map((item) => featureJsonType(item, depth + 1)),
		};
	}
	if (type === "Value")
		return typeof feature.dtype === "string" ? { kind: "value", dtype: feature.dtype } : OTHER;
	if (type === "List" || type === "LargeList" || type === "Sequence")
		return { kind: "list", of: featureJsonType(feature.feature, depth + 1) };
	return SPECIAL_TYPES[type] ?? OTHER;
}

/** The columns of a `Features.to_dict()` object. */
export function featuresJsonColumns(features: unknown): DataColumn[] | undefined {
	if (!isRecord(features)) return undefined;
	return Object.entries(features)
		.slice(0, MAX_COLUMNS)
		.map(([name, feature]) => ({ name, type: featureJsonType(feature) }));
}

/**
 * A feature of a card's `dataset_info.features` (the YAML shape `datasets` writes): `dtype: string`,
 * `dtype: image`, `dtype: { class_label: … }`, `sequence: …`, `list: …`, `struct: [ … ]`, a dtype list or
 * a mapping as a struct.
 */
function cardFeatureType(feature: unknown, depth = 0): ColumnType {
	if (depth > MAX_DEPTH) return OTHER;
	if (typeof feature === "string") return cardDtype(feature);
	if (Array.isArray(feature))
		return {
			kind: "struct",
			fields: feature.slice(0, MAX_COLUMNS).map((item) => cardFeatureType(item, depth + 1)),
		};
	if (!isRecord(feature)) return OTHER;
	for (const key of ["sequence", "list", "large_list"]) {
		if (key in feature) return { kind: "list", of: cardFeatureType(feature[key], depth + 1) };
	}
	if ("struct" in feature)
		return cardFeatureType(Array.isArray(feature.struct) ? feature.struct : [], depth + 1);
	const dtype = feature.dtype;
	if (typeof dtype === "string") return cardDtype(dtype);
	if (isRecord(dtype)) {
		if ("class_label" in dtype) return { kind: "class_label" };
		if ("translation" in dtype || "translation_variable_languages" in dtype) return { kind: "translation" };
		return cardFeatureType(
			Object.entries(dtype).map(([name, item]) => (isRecord(item) ? { name, ...item } : item)),
			depth + 1,
		);
	}
	if (Array.isArray(dtype)) return cardFeatureType(dtype, depth + 1);
	return OTHER;
}

function cardDtype(dtype: string): ColumnType {
	const special: Readonly<Record<string, ColumnType>> = {
		image: { kind: "image" },
		audio: { kind: "audio" },
		video: { kind: "video" },
		pdf: { kind: "pdf" },
	};
	return special[dtype] ?? { kind: "value", dtype };
}

/** The columns of each config a card's `dataset_info` describes (one object, or one per config). */
export function cardColumns(card: Record<string, unknown> | undefined): DataColumn[][] {
	const info = card?.dataset_info;
	const infos = Array.isArray(info) ? info.filter(isRecord) : isRecord(info) ? [info] : [];
	const configs: DataColumn[][] = [];
	for (const entry of infos) {
		const features = entry.features;
		if (!Array.isArray(features)) continue;
		configs.push(
			features
				.filter(isRecord)
				.slice(0, MAX_COLUMNS)
				.map((feature, index) => ({
					name: typeof feature.name === "string" ? feature.name : String(index),
					type: cardFeatureType(feature),
				})),
		);
	}
	return configs;
}

/** The one column `datasets`' json builder makes of records that are not objects (DuckDB would say `json`). */
export const JSON_VALUES_COLUMN = "text";

/** A JSON value's type as the `json` builder (pyarrow) would type its column; null for null. */
function jsonValueType(value: unknown, depth = 0): ColumnType | null {
	if (value === null || value === undefined) return null;
	if (depth > MAX_DEPTH) return OTHER;
	if (typeof value === "string") return { kind: "value", dtype: "string" };
	if (typeof value === "boolean") return { kind: "value", dtype: "bool" };
	if (typeof value === "number")
		return { kind: "value", dtype: Number.isInteger(value) ? "int64" : "float64" };
	if (Array.isArray(value)) {
		let of: ColumnType | null = null;
		for (const item of value.slice(0, 100)) of = mergeTypes(of, jsonValueType(item, depth + 1));
		return { kind: "list", of: of ?? { kind: "value", dtype: "null" } };
	}
	if (isRecord(value))
		return {
			kind: "struct",
			fields: Object.values(value)
				.slice(0, MAX_COLUMNS)
				.map((item) => jsonValueType(item, depth + 1) ?? { kind: "value", dtype: "null" }),
		};
	return OTHER;
}

/** Two samples' types of one column: ints and floats make floats; other differences make `other`. */
function mergeTypes(a: ColumnType | null, b: ColumnType | null): ColumnType | null {
	if (a === null) return b;
	if (b === null) return a;
	if (a.kind === "value" && b.kind === "value") {
		if (a.dtype === b.dtype) return a;
		const numbers = ["int64", "float64"];
		if (numbers.includes(a.dtype) && numbers.includes(b.dtype)) return { kind: "value", dtype: "float64" };
		return OTHER;
	}
	return a.kind === b.kind ? a : OTHER;
}

/**
 * The columns of sample JSON records: objects' keys in order of first appearance; values that are not objects
 * (strings, numbers, lists: an array of them) are the one `text` column `datasets`' json builder makes of them
 * (load_dataset("json") of `["a", "b"]` or `[1, 2]`). Undefined when the samples mix the two.
 */
export function jsonRecordColumns(records: readonly unknown[]): DataColumn[] | undefined {
	const types = new Map<string, ColumnType | null>();
	const objects = records.filter(isRecord).length;
	if (objects > 0 && objects < records.length) return undefined;
	for (const record of records) {
		if (!isRecord(record)) {
			types.set(JSON_VALUES_COLUMN, mergeTypes(types.get(JSON_VALUES_COLUMN) ?? null, jsonValueType(record)));
			continue;
		}
		for (const [name, value] of Object.entries(record)) {
			if (!types.has(name) && types.size >= MAX_COLUMNS) continue;
			types.set(name, mergeTypes(types.get(name) ?? null, jsonValueType(value)));
		}
	}
	if (types.size === 0) return undefined;
	return [...types].map(([name, type]) => ({ name, type: type ?? { kind: "value", dtype: "null" } }));
}

const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|nan|NaN|inf|-inf|Infinity)$/;

/**
 * The columns of a CSV header and sample records as pandas types them (which `datasets` reads CSV
 * with): all integers int64, numbers (or integers with empty cells) float64, True/False bool, else string.
 */
export function csvColumns(header: readonly string[], records: readonly (readonly string[])[]): DataColumn[] {
	return header.slice(0, MAX_COLUMNS).map((name, index) => {
		const cells = records.map((record) => record[index] ?? "");
		const filled = cells.filter((cell) => cell.trim() !== "");
		let dtype = "string";
		if (filled.length === 0) dtype = "float64";
		else if (filled.every((cell) => INTEGER.test(cell.trim())))
			dtype = filled.length === cells.length ? "int64" : "float64";
		else if (filled.every((cell) => FLOAT.test(cell.trim()))) dtype = "float64";
		else if (filled.every((cell) => /^(True|False|true|false|TRUE|FALSE)$/.test(cell.trim()))) dtype = "bool";
		return { name, type: { kind: "value", dtype } };
	});
}

/**
 * The public hub's modalities of a config's columns (dataset-viewer `detect_features_modalities`):
 * Audio → audio, Image → image, string Values and Translation → text, Pdf → document (anywhere in the
 * columns); tabular when there is no audio or image and at least two top-level int or float Values;
 * timeseries when a top-level column whose name has no "emb" (embeddings) is a list of float32 Values.
 */
export function columnModalities(columns: readonly DataColumn[]): Set<string> {
	const modalities = new Set<string>();
	const visit = (type: ColumnType, depth: number): void => {
		if (depth > MAX_DEPTH) return;
		switch (type.kind) {
			case "audio":
				modalities.add("audio");
				return;
			case "image":
				modalities.add("image");
				return;
			case "pdf":
				modalities.add("document");
				return;
			case "translation":
				modalities.add("text");
				return;
			case "value":
				if (type.dtype === "string" || type.dtype === "large_string") modalities.add("text");
				return;
			case "list":
				visit(type.of, depth + 1);
				return;
			case "struct":
				for (const field of type.fields) visit(field, depth + 1);
				return;
			default:
				return;
		}
	};
	for (const column of columns) visit(column.type, 0);
	const numeric = columns.filter(
		(column) =>
			column.type.kind === "value" &&
			(column.type.dtype.includes("int") || column.type.dtype.includes("float")),
	);
	if (!modalities.has("audio") && !modalities.has("image") && numeric.length >= 2) modalities.add("tabular");
	const isFloat32List = (type: ColumnType): boolean =>
		type.kind === "list" && type.of.kind === "value" && type.of.dtype === "float32";
	if (columns.some((column) => !column.name.includes("emb") && isFloat32List(column.type)))
		modalities.add("timeseries");
	return modalities;
}
