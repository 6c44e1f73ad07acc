/**
 * The dataset viewer's answers under `/datasets-server/` (the public viewer's API shapes: its
 * `openapi.json` and `libcommon/dtos.py`). Errors are `{ error }` with an `X-Error-Code`
 * (`ViewerErrorCode`).
 */

/** A `datasets` feature as JSON: `{ dtype, _type: "Value" }`, `{ feature, _type: "List" }`, `{ names, _type: "ClassLabel" }`, a struct as an object of features… */
export type ViewerFeature = {
	[key: string]: ViewerFeature | ViewerFeature[] | string | string[] | number | boolean | null;
};

/** A cell as JSON; a truncated cell is the start of its JSON text, as a string. */
export type ViewerCell = string | number | boolean | null | ViewerCell[] | { [key: string]: ViewerCell };

export interface ViewerSplitItem {
	dataset: string;
	config: string;
	split: string;
}

/** `GET /datasets-server/splits?dataset=…[&config=…]`. */
export interface ViewerSplitsAnswer {
	splits: ViewerSplitItem[];
	/** Always empty: the hub computes on demand. */
	pending: ViewerSplitItem[];
	failed: ViewerSplitItem[];
}

/** `GET /datasets-server/is-valid?dataset=…[&config=…[&split=…]]`. */
export interface ViewerIsValidAnswer {
	preview: boolean;
	viewer: boolean;
	search: boolean;
	filter: boolean;
	/** `/statistics` answers for it. */
	statistics: boolean;
}

export interface ViewerFeatureItem {
	feature_idx: number;
	name: string;
	type: ViewerFeature;
}

export interface ViewerRowItem {
	/** The row's index in the split. */
	row_idx: number;
	row: Record<string, ViewerCell>;
	/** Columns whose cell was cut (its JSON was longer than the viewer shows). */
	truncated_cells: string[];
}

/** `GET /datasets-server/first-rows?dataset=…&config=…&split=…`: the first 100 rows. */
export interface ViewerFirstRowsAnswer extends ViewerSplitItem {
	features: ViewerFeatureItem[];
	rows: ViewerRowItem[];
	/** True when the split has more rows than these. */
	truncated: boolean;
}

/** `/rows`, `/search` and `/filter` (the public viewer's `PaginatedResponse`). */
export interface ViewerRowsAnswer {
	features: ViewerFeatureItem[];
	rows: ViewerRowItem[];
	/** Rows of the split (`/rows`) or rows that match (`/search`, `/filter`). */
	num_rows_total: number;
	/** The most rows one page holds (100). */
	num_rows_per_page: number;
	/** True when only the first files of a large split were read (MODELHUB_VIEWER_MAX_SPLIT_BYTES). */
	partial: boolean;
}

export interface ViewerSplitSize extends ViewerSplitItem {
	num_bytes_original_files: number;
	/** The split's Parquet files' bytes (0 for CSV and JSON: the hub converts nothing). */
	num_bytes_parquet_files: number;
	num_bytes_memory: number;
	num_rows: number;
	num_columns: number;
	estimated_num_rows: number | null;
}

export type ViewerConfigSize = Omit<ViewerSplitSize, "split">;

export interface ViewerDatasetSize {
	dataset: string;
	num_bytes_original_files: number;
	num_bytes_parquet_files: number;
	num_bytes_memory: number;
	num_rows: number;
	estimated_num_rows: number | null;
}

/** `GET /datasets-server/size?dataset=…` (with `config=…`: `{ size: { config, splits }, partial }`). */
export interface ViewerSizeAnswer {
	size: {
		dataset?: ViewerDatasetSize;
		config?: ViewerConfigSize;
		configs?: ViewerConfigSize[];
		splits: ViewerSplitSize[];
	};
	pending: ViewerSplitItem[];
	failed: ViewerSplitItem[];
	partial: boolean;
}

/** One config's `datasets` DatasetInfo, as the public viewer dumps it. */
export interface ViewerDatasetInfo {
	description: string;
	citation: string;
	homepage: string;
	license: string;
	features: Record<string, ViewerFeature>;
	builder_name: string;
	dataset_name: string;
	config_name: string;
	version: { version_str: string; major: number; minor: number; patch: number };
	splits: Record<string, { name: string; num_bytes: number; num_examples: number; dataset_name: string }>;
	download_size: number;
	dataset_size: number;
}

/** `GET /datasets-server/info?dataset=…`: by config (with `config=…`: that config's info itself). */
export interface ViewerInfoAnswer {
	dataset_info: Record<string, ViewerDatasetInfo> | ViewerDatasetInfo;
	pending: ViewerSplitItem[];
	failed: ViewerSplitItem[];
	partial: boolean;
}

export interface ViewerParquetFile extends ViewerSplitItem {
	/** The file on this hub, at the commit the answer was made from. */
	url: string;
	filename: string;
	size: number;
}

/** `GET /datasets-server/parquet?dataset=…[&config=…]`: the Parquet files of Parquet configs (nothing is converted). */
export interface ViewerParquetAnswer {
	parquet_files: ViewerParquetFile[];
	pending: ViewerSplitItem[];
	failed: ViewerSplitItem[];
	partial: boolean;
}

/** A histogram: counts per bin, and the bins' edges (one more than the counts). */
export interface ViewerHistogram {
	hist: number[];
	bin_edges: number[];
}

/** Statistics of an int, float or list column (of list lengths) or a string column's text lengths. */
export interface ViewerNumericalStatistics {
	nan_count: number;
	nan_proportion: number;
	min: number | null;
	max: number | null;
	mean: number | null;
	median: number | null;
	std: number | null;
	histogram: ViewerHistogram | null;
}

/** Statistics of a ClassLabel column or of a string column read as categories. */
export interface ViewerCategoricalStatistics {
	nan_count: number;
	nan_proportion: number;
	no_label_count: number;
	no_label_proportion: number;
	n_unique: number;
	frequencies: Record<string, number>;
}

export interface ViewerBoolStatistics {
	nan_count: number;
	nan_proportion: number;
	frequencies: Record<string, number>;
}

export interface ViewerColumnStatistics {
	column_name: string;
	column_type: "int" | "float" | "bool" | "class_label" | "string_label" | "string_text" | "list";
	column_statistics: ViewerNumericalStatistics | ViewerCategoricalStatistics | ViewerBoolStatistics;
}

/** `GET /datasets-server/statistics?dataset=…&config=…&split=…`: per column, sorted by name. */
export interface ViewerStatisticsAnswer {
	num_examples: number;
	statistics: ViewerColumnStatistics[];
	partial: boolean;
}

/** The `X-Error-Code` values of the viewer's error answers (the public viewer's names). */
export type { ViewerErrorCode } from "../viewer/errors.js";
