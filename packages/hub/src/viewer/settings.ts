/** The dataset viewer's limits (MODELHUB_VIEWER_*; see the README's configuration table). */
export interface ViewerSettings {
	/** Folder of the local copies the engine reads (a folder of its own is made inside); undefined: the OS temp folder. */
	spoolDir: string | undefined;
	/** Bytes of local copies kept at most (least recently used first out); a split needing more is refused. */
	spoolBytes: number;
	/** Bytes of a split's files read at most: beyond them the answer covers the first files only (`partial`). */
	maxSplitBytes: number;
	/** Time one request may spend in the engine; then it is interrupted and answered with an error. */
	timeoutMs: number;
	/** Memory of the engine per request (DuckDB's `memory_limit`), in MiB. */
	memoryMb: number;
	/** Engine threads per request. */
	threads: number;
	/** Requests in the engine at once; others wait in a queue of `queue`, beyond which 503. */
	concurrency: number;
	queue: number;
	/** Longest cell (characters of its JSON) answered whole; longer ones are cut and listed in `truncated_cells`. */
	cellChars: number;
	/** Characters of all cells of one row at most (each cell then gets its share, at least 100). */
	rowChars: number;
	/** Most columns a split may have. */
	maxColumns: number;
	/** Byte budget of what is remembered per commit (layouts, features, row counts). */
	cacheBytes: number;
}

export const DEFAULT_VIEWER_SETTINGS: ViewerSettings = {
	spoolDir: undefined,
	spoolBytes: 8 * 1024 ** 3,
	// The public viewer reads the first 5 GB of a split (its `partial`).
	maxSplitBytes: 5_000_000_000,
	timeoutMs: 20_000,
	memoryMb: 512,
	threads: 1,
	concurrency: 2,
	queue: 32,
	cellChars: 10_000,
	rowChars: 200_000,
	// The public viewer's TooManyColumnsError bound.
	maxColumns: 1000,
	cacheBytes: 8 * 1024 * 1024,
};
