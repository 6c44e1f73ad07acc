/**
 * Columns as the public viewer shows them: `datasets` features (`{ dtype, _type: "Value" }`,
 * `{ feature, _type: "List" }`, a struct as an object of features), from the engine's column types
 * (DuckDB's type ids, as `@duckdb/node-api`'s `columnTypesJson` describes them) or, when a Parquet file
 * written by `datasets` carries them, from its `huggingface` schema metadata (ClassLabel names, Image…).
 */

import type { ViewerFeature } from "../api/viewer.js";

/** A `datasets` feature as JSON (datasets' `Features.to_dict()` shape). */
export type Feature = ViewerFeature;

/** A column type as the engine describes it. */
export interface EngineType {
	typeId: number;
	valueType?: EngineType;
	keyType?: EngineType;
	entryNames?: string[];
	entryTypes?: EngineType[];
	width?: number;
	scale?: number;
}

/** Nesting deeper than this is refused (FeaturesError): a hostile schema cannot recurse without end. */
export const MAX_FEATURE_DEPTH = 32;

/** DuckDB type ids (`DuckDBTypeId`) of scalar types and the Arrow dtype `datasets` names for each. */
const VALUE_DTYPES: Readonly<Record<number, string>> = {
	1: "bool",
	2: "int8",
	3: "int16",
	4: "int32",
	5: "int64",
	6: "uint8",
	7: "uint16",
	8: "uint32",
	9: "uint64",
	10: "float32",
	11: "float64",
	12: "timestamp[us]",
	13: "date32",
	14: "time64[us]",
	15: "duration[us]",
	17: "string",
	18: "binary",
	20: "timestamp[s]",
	21: "timestamp[ms]",
	22: "timestamp[ns]",
	23: "string",
	27: "string",
	31: "timestamp[us, tz=UTC]",
	36: "null",
};
const DECIMAL = 19;
const LIST = 24;
const STRUCT = 25;
const MAP = 26;
const ARRAY = 33;

export class FeatureDepthError extends Error {}

/** The feature of a column type; types without a `datasets` counterpart show as strings. */
export function featureOf(type: EngineType, depth = 0): Feature {
	if (depth > MAX_FEATURE_DEPTH)
		throw new FeatureDepthError(`nested deeper than ${MAX_FEATURE_DEPTH} levels`);
	const dtype = VALUE_DTYPES[type.typeId];
	if (dtype !== undefined) return { dtype, _type: "Value" };
	switch (type.typeId) {
		case DECIMAL:
			return { dtype: `decimal128(${type.width ?? 18}, ${type.scale ?? 3})`, _type: "Value" };
		case LIST:
		case ARRAY:
			return { feature: featureOf(type.valueType ?? { typeId: 17 }, depth + 1), _type: "List" };
		case MAP:
			return {
				feature: {
					key: featureOf(type.keyType ?? { typeId: 17 }, depth + 1),
					value: featureOf(type.valueType ?? { typeId: 17 }, depth + 1),
				},
				_type: "List",
			};
		case STRUCT: {
			const names = type.entryNames ?? [];
			const types = type.entryTypes ?? [];
			const struct: Feature = {};
			names.forEach((name, index) => {
				struct[name] = featureOf(types[index] ?? { typeId: 17 }, depth + 1);
			});
			return struct;
		}
		default:
			return { dtype: "string", _type: "Value" };
	}
}

/** The depth of a JSON value (a feature read from a file's metadata is checked before it is shown). */
export function jsonDepth(value: unknown, limit: number, depth = 0): number {
	if (depth > limit || typeof value !== "object" || value === null) return depth;
	let deepest = depth;
	for (const item of Object.values(value)) {
		deepest = Math.max(deepest, jsonDepth(item, limit, depth + 1));
		if (deepest > limit) break;
	}
	return deepest;
}

/**
 * The features `datasets` wrote into a Parquet file's schema metadata (`huggingface` key:
 * `{"info": {"features": {...}}}`), when they name exactly the file's columns; else undefined.
 */
export function storedFeatures(
	metadata: string | undefined,
	columns: readonly string[],
): Record<string, Feature> | undefined {
	if (metadata === undefined || metadata.length > 1_000_000) return undefined;
	let parsed: unknown;
	try {
		parsed = JSON.parse(metadata);
	} catch {
		return undefined;
	}
	const features = (parsed as { info?: { features?: unknown } } | null)?.info?.features;
	if (typeof features !== "object" || features === null || Array.isArray(features)) return undefined;
	if (jsonDepth(features, MAX_FEATURE_DEPTH + 2) > MAX_FEATURE_DEPTH + 1) return undefined;
	const names = Object.keys(features);
	if (names.length !== columns.length || names.some((name, index) => name !== columns[index]))
		return undefined;
	return features as Record<string, Feature>;
}
