import type * as DuckDb from "@duckdb/node-api";
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { JSON_VALUES_COLUMN } from "../datasets/columns.js";
import { HubError } from "../errors.js";
import { viewerError } from "./errors.js";
import { metadataFolder } from "./folder.js";
import type { EngineType } from "./features.js";
import type { ViewerFormat } from "./layout.js";
import type { ViewerSettings } from "./settings.js";

/**
 * DuckDB's module, loaded at the first viewer request: it takes ~0.5 s to load (a native binding), which
 * every hub start and CLI command would otherwise pay for a feature many hubs never use.
 */
let duckDb: Promise<typeof DuckDb> | undefined;
function loadDuckDb(): Promise<typeof DuckDb> {
	duckDb ??= import("@duckdb/node-api");
	return duckDb;
}
/**
 * The columnar engine: DuckDB (`@duckdb/node-api`), as the public viewer uses for search and filter. Each
 * request gets an in-memory database of its own with its own memory limit and threads, which may read
 * exactly the local copies of the split's files (`allowed_paths`, then `enable_external_access=false` and
 * `lock_configuration`: no other file, no network, no extension download), so a clause that got past
 * where.ts still reaches nothing else. Each query is interrupted at the request's time limit. At most
 * `concurrency` requests run at once; `queue` more wait, beyond which the answer is 503.
 */

/**
 * What the engine's table `data` holds: a split's files, rows the viewer made (a folder of audio or image
 * files), or a folder's metadata files.
 */
export type EngineSource = FileSource | RowsSource | MetadataSource;

/**
 * A folder's metadata files (metadata.csv, .jsonl, .parquet), read as the builder of their format reads
 * files, one after the other; their file name columns (`file_name`, `x_file_name`: strings; `file_names`,
 * `x_file_names`: lists of strings) become media columns in their place, each name `{folder}//{file name}`,
 * the folder being the metadata file's (what the name is relative to: a repository path never holds `//`).
 */
export interface MetadataSource {
	format: "metadata";
	reader: ViewerFormat;
	/** Local copies. */
	paths: readonly string[];
	/** Each file's path in the repository (a virtual path, `x.zip::sub/metadata.csv`, for one inside an archive). */
	names: readonly string[];
	/** The media column a metadata column of strings (or of lists of strings) becomes, or undefined. */
	mediaColumn: (name: string, list: boolean) => string | undefined;
	/** Most columns a metadata file may have. */
	maxColumns: number;
}

/** Separates a metadata file's folder from a file name in a media column's value (see MetadataSource). */
export const METADATA_FOLDER_END = "//";

/** Rows given as they are (no file read): string and integer columns, in order. */
export interface RowsSource {
	format: "rows";
	columns: ReadonlyArray<{ name: string; type: "VARCHAR" | "BIGINT" }>;
	rows: ReadonlyArray<Record<string, string | number>>;
}

/** A split's files as the engine reads them: one view `data` over all of them, in order. */
export interface FileSource {
	format: ViewerFormat;
	paths: readonly string[];
	/** Tab-separated (`.tsv`) CSV. */
	tabs?: boolean;
	/** JSON: the records are the array under this key of each file's top-level object (datasets' `field`). */
	jsonField?: string;
}

/** A media column made from a metadata column: one file per cell, or a list of them (`file_names`). */
export interface MediaColumn {
	column: string;
	list: boolean;
}

/** A metadata column's media column, when it is a file name column of the right type (strings, lists of strings). */
function mediaOf(source: MetadataSource, column: { name: string; type: string }): MediaColumn | undefined {
	const list = column.type === "VARCHAR[]";
	if (column.type !== "VARCHAR" && !list) return undefined;
	const renamed = source.mediaColumn(column.name, list);
	return renamed === undefined ? undefined : { column: renamed, list };
}

export interface EngineResult {
	columns: string[];
	types: EngineType[];
	rows: Array<Record<string, unknown>>;
}

export interface EngineSession {
	query(sql: string, values?: Array<string | number>): Promise<EngineResult>;
	/** For a MetadataSource: the media columns the file name columns became. */
	media?: readonly MediaColumn[];
}

/** A DuckDB string literal. */
export function sqlString(text: string): string {
	return `'${text.replaceAll("'", "''")}'`;
}

/** A DuckDB quoted identifier. */
export function sqlName(name: string): string {
	return `"${name.replaceAll('"', '""')}"`;
}

/** The table function that reads a split's files. */
function readerOf(source: Pick<FileSource, "format" | "paths" | "tabs">): string {
	const list = `[${source.paths.map(sqlString).join(", ")}]`;
	switch (source.format) {
		case "parquet":
			return `read_parquet(${list})`;
		case "csv":
			return `read_csv(${list}, header = true${source.tabs ? ", delim = '\\t'" : ""})`;
		case "json":
			// Deeper values stay JSON text (a hostile file cannot make the schema recurse without end).
			return `read_json(${list}, format = 'auto', maximum_depth = 32)`;
	}
}

/** A DuckDB type that holds an object's keys (a JSON object read as a record, not a value). */
function isObjectType(type: string): boolean {
	return /^(STRUCT|MAP|JSON)\b/.test(type);
}

/**
 * What the view `data` selects from. JSON is read as `datasets` reads it: objects are records with their keys as
 * columns; records that are not objects (an array of strings or numbers) are one column named `text`, as its json
 * builder names it (DuckDB would name it `json`); with the card's `field`, the array under that key, one row per
 * element. Which one is asked of the engine first (the type it infers from its sample of the files).
 */
async function viewSource(connection: DuckDBConnection, source: FileSource): Promise<string> {
	const reader = readerOf(source);
	if (source.format !== "json") return reader;
	const typesOf = async (sql: string): Promise<string[]> =>
		(await connection.runAndReadAll(`DESCRIBE ${sql}`))
			.getRowObjectsJS()
			.map((row) => String(row.column_type));
	const list = `[${source.paths.map(sqlString).join(", ")}]`;
	if (source.jsonField === undefined) {
		const asValues = `read_json(${list}, format = 'auto', records = false, maximum_depth = 32)`;
		const [type, ...more] = await typesOf(`SELECT * FROM ${asValues}`);
		return type !== undefined && more.length === 0 && !isObjectType(type)
			? `(SELECT "json" AS ${sqlName(JSON_VALUES_COLUMN)} FROM ${asValues})`
			: reader;
	}
	const field = sqlName(source.jsonField);
	const [type] = await typesOf(`SELECT ${field} FROM ${reader}`);
	// The field's array, one row per element: its objects' keys as columns (list, then struct), else its values.
	return type !== undefined && type.endsWith("[]") && !isObjectType(type)
		? `(SELECT unnest(${field}) AS ${sqlName(JSON_VALUES_COLUMN)} FROM ${reader})`
		: `(SELECT unnest(${field}, max_depth := 2) FROM ${reader})`;
}

/**
 * The view over a folder's metadata files (MetadataSource): every file must have the first one's columns
 * (datasets refuses metadata files of different features), at most `maxColumns`, one of them a file name.
 */
async function metadataView(
	connection: DuckDBConnection,
	source: MetadataSource,
): Promise<{ sql: string; media: MediaColumn[] }> {
	const selects: string[] = [];
	let first: Array<{ name: string; type: string }> | undefined;
	let media: MediaColumn[] = [];
	for (const [index, path] of source.paths.entries()) {
		const name = source.names[index] ?? "metadata";
		const reader = readerOf({ format: source.reader, paths: [path] });
		const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${reader}`);
		const columns = described
			.getRowObjectsJS()
			.map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
		if (columns.length > source.maxColumns) {
			throw viewerError(
				"Unprocessable",
				"TooManyColumnsError",
				`The metadata file '${name}' has ${columns.length} columns, more than the viewer shows (MODELHUB_VIEWER_MAX_COLUMNS=${source.maxColumns}).`,
			);
		}
		if (first === undefined) {
			first = columns;
			media = columns.flatMap((column) => mediaOf(source, column) ?? []);
			if (media.length === 0) {
				throw viewerError(
					"Unprocessable",
					"DatasetGenerationError",
					`The metadata file '${name}' has no file name column: \`file_name\` or \`*_file_name\` (strings), or \`file_names\` or \`*_file_names\` (lists of strings) must be one of its columns.`,
				);
			}
			const names = columns.map((column) => mediaOf(source, column)?.column ?? column.name);
			const twice = names.find((column, position) => names.indexOf(column) !== position);
			if (twice !== undefined) {
				throw viewerError(
					"Unprocessable",
					"DatasetGenerationError",
					`The metadata file '${name}' names the column '${twice}' twice (a file name column becomes '${twice}').`,
				);
			}
		} else if (JSON.stringify(columns) !== JSON.stringify(first)) {
			throw viewerError(
				"Unprocessable",
				"DatasetGenerationError",
				`The metadata files '${source.names[0] ?? "metadata"}' and '${name}' have different columns or types.`,
			);
		}
		// A metadata file inside an archive names its files relative to its folder there (`x.zip::sub`).
		const folder = metadataFolder(name);
		const prefix = sqlString(folder + METADATA_FOLDER_END);
		const list = columns.map((column) => {
			const made = mediaOf(source, column);
			if (made === undefined) return sqlName(column.name);
			const value = made.list
				? `list_transform(${sqlName(column.name)}, lambda name: ${prefix} || name)`
				: `${prefix} || ${sqlName(column.name)}`;
			return `${value} AS ${sqlName(made.column)}`;
		});
		selects.push(`SELECT ${list.join(", ")} FROM ${reader}`);
	}
	return { sql: `(${selects.join(" UNION ALL ")})`, media };
}

/** Engine errors that mean "this request took too long" (DuckDB's interrupt). */
function isInterrupt(error: unknown): boolean {
	return error instanceof Error && /INTERRUPT/i.test(error.message);
}

export class ViewerEngine {
	private running = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(private readonly settings: ViewerSettings) {}

	private async slot(): Promise<() => void> {
		if (this.running >= this.settings.concurrency) {
			if (this.waiting.length >= this.settings.queue) {
				throw viewerError(
					"Unavailable",
					"ResponseNotReady",
					"the dataset viewer is busy (MODELHUB_VIEWER_CONCURRENCY, MODELHUB_VIEWER_QUEUE); retry in a few seconds",
				);
			}
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		} else this.running += 1;
		return () => {
			const next = this.waiting.shift();
			if (next) next();
			else this.running -= 1;
		};
	}

	/**
	 * Runs `work` against a database whose view `data` reads `source`, within the request's limits;
	 * `describe` turns an engine error into the answer's (it names the files in the repository's words).
	 * `threads` overrides the settings' (files still arriving are read by one thread: it reads row groups
	 * in order and stops at a `LIMIT`, where more threads would start on later ones).
	 */
	async run<T>(
		source: EngineSource,
		work: (session: EngineSession) => Promise<T>,
		describe: (message: string) => string,
		threads = this.settings.threads,
	): Promise<T> {
		const release = await this.slot();
		let instance: DuckDBInstance | undefined;
		let connection: DuckDBConnection | undefined;
		let timedOut = false;
		let media: MediaColumn[] | undefined;
		const timer = setTimeout(() => {
			timedOut = true;
			connection?.interrupt();
		}, this.settings.timeoutMs);
		try {
			const { DuckDBInstance } = await loadDuckDb();
			instance = await DuckDBInstance.create(":memory:", {
				memory_limit: `${this.settings.memoryMb}MB`,
				threads: String(threads),
				autoinstall_known_extensions: "false",
				autoload_known_extensions: "false",
			});
			connection = await instance.connect();
			const paths = source.format === "rows" ? [] : source.paths;
			await connection.run(`SET allowed_paths = [${paths.map(sqlString).join(", ")}]`);
			await connection.run("SET enable_external_access = false");
			await connection.run("SET lock_configuration = true");
			if (source.format === "rows") {
				// One JSON parameter, read by the engine's own JSON reader: no value is ever SQL text.
				const shape = JSON.stringify([
					Object.fromEntries(source.columns.map((column) => [column.name, column.type])),
				]);
				await connection.run(
					`CREATE TEMP TABLE data AS SELECT unnest(from_json(?::VARCHAR, ${sqlString(shape)}), recursive := true)`,
					[JSON.stringify(source.rows)],
				);
			} else if (source.format === "metadata") {
				const view = await metadataView(connection, source);
				media = view.media;
				await connection.run(`CREATE TEMP VIEW data AS SELECT * FROM ${view.sql}`);
			} else {
				await connection.run(
					`CREATE TEMP VIEW data AS SELECT * FROM ${await viewSource(connection, source)}`,
				);
			}
			const open = connection;
			const session: EngineSession = {
				...(media === undefined ? {} : { media }),
				query: async (sql, values) => {
					if (timedOut) throw new Error("INTERRUPT");
					const reader = await open.runAndReadAll(sql, values);
					return {
						columns: reader.columnNames(),
						types: reader.columnTypesJson() as unknown as EngineType[],
						rows: reader.getRowObjectsJS() as Array<Record<string, unknown>>,
					};
				},
			};
			return await work(session);
		} catch (error) {
			if (timedOut || isInterrupt(error)) {
				throw viewerError(
					"Unprocessable",
					"ComputationError",
					`the query took longer than the viewer's time limit of ${this.settings.timeoutMs} ms (MODELHUB_VIEWER_TIMEOUT_MS)`,
				);
			}
			if (error instanceof HubError) throw error;
			const message = error instanceof Error ? error.message : String(error);
			throw viewerError("Unprocessable", "StreamingRowsError", describe(message), error);
		} finally {
			clearTimeout(timer);
			connection?.closeSync();
			instance?.closeSync();
			release();
		}
	}
}
