/**
 * `/statistics`' pure parts, as the public viewer computes them (dataset-viewer
 * `libcommon/statistics_utils.py`, `split/descriptive_statistics.py`): which columns get statistics and of
 * which type, the histogram's bin edges, rounding to 5 decimals, and when a string column is a category.
 */

import type { ViewerFeature } from "../api/viewer.js";

export type StatisticsColumnType = "int" | "float" | "bool" | "class_label" | "string" | "list";

/** Decimals of the answer's floats (DECIMALS). */
const DECIMALS = 5;
/** Bins of a histogram (NUM_BINS); also the unique strings that make a category whatever their share. */
export const NUM_BINS = 10;
/** A string column is a category at most this share of unique values (MAX_PROPORTION_STRING_LABELS)… */
export const MAX_PROPORTION_STRING_LABELS = 0.2;
/** …and at most this many (MAX_NUM_STRING_LABELS). */
export const MAX_NUM_STRING_LABELS = 1000;

const INTEGER_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"];
const FLOAT_DTYPES = ["float16", "float32", "float64"];
const STRING_DTYPES = ["string", "large_string"];

/** The statistics a column gets from its feature, or undefined (media, structs, dates: not computed here). */
export function statisticsType(feature: ViewerFeature | undefined): StatisticsColumnType | undefined {
	if (feature === undefined) return undefined;
	const type = feature._type;
	if (type === "List" || type === "LargeList" || type === "Sequence") return "list";
	if (type === "ClassLabel") return "class_label";
	if (type !== "Value" || typeof feature.dtype !== "string") return undefined;
	if (INTEGER_DTYPES.includes(feature.dtype)) return "int";
	if (FLOAT_DTYPES.includes(feature.dtype)) return "float";
	if (STRING_DTYPES.includes(feature.dtype)) return "string";
	if (feature.dtype === "bool") return "bool";
	return undefined;
}

/** numpy's `round(x, 5)` (half to even at the fifth decimal). */
export function round5(value: number): number {
	const scaled = value * 10 ** DECIMALS;
	const floor = Math.floor(scaled);
	const rest = scaled - floor;
	const even = rest === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(scaled);
	return even / 10 ** DECIMALS;
}

/** `nan_proportion`: rounded, and exactly 0 without nulls. */
export function proportion(count: number, total: number): number {
	return count === 0 || total === 0 ? 0 : round5(count / total);
}

/**
 * The bin edges of a histogram (`generate_bins`): for ints, bins of ceil((max − min + 1) / 10) values (so
 * maybe fewer than 10); for floats, 10 bins of (max − min) / 10 (`np.arange`, so floating-point may make
 * one more); the maximum always closes the last bin; [min, max] when they are equal.
 */
export function binEdges(min: number, max: number, type: "int" | "float"): number[] {
	if (min === max) return [min, max];
	const size = type === "int" ? Math.ceil((max - min + 1) / NUM_BINS) : (max - min) / NUM_BINS;
	// np.arange(start, stop, step): ceil((stop − start) / step) values start + i·step.
	const count = Math.ceil((max - min) / size);
	const edges: number[] = [];
	for (let index = 0; index < count; index++) {
		const edge = min + index * size;
		edges.push(type === "int" ? Math.trunc(edge) : edge);
	}
	if (edges.at(-1) !== max) edges.push(max);
	return edges;
}

/** Whether a string column of `unique` values (null counts as one) in `samples` rows is a category. */
export function isStringLabel(unique: number, samples: number): boolean {
	return (
		(samples > 0 && unique / samples <= MAX_PROPORTION_STRING_LABELS && unique <= MAX_NUM_STRING_LABELS) ||
		unique <= NUM_BINS
	);
}
