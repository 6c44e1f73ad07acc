/** Rows and affected-row count of one statement. */
export interface QueryResult<R> {
	rows: R[];
	rowCount: number;
}

export interface QueryOptions {
	/**
	 * A hot statement of a fixed text (one of a few per call site): PostgreSQL keeps it prepared on each
	 * connection, so it is parsed and planned once rather than on every run. On a primary-key lookup the
	 * planning took three times the execution (0.36–0.48 ms against 0.08–0.15 ms at 1,000,000 models).
	 */
	prepare?: boolean;
}

/** Something that runs SQL: the database itself or an open transaction. */
export interface Queryable {
	/** Runs one parameterised statement (`$1`, `$2`, ...). */
	query<R = Record<string, unknown>>(
		sql: string,
		params?: readonly unknown[],
		options?: QueryOptions,
	): Promise<QueryResult<R>>;
	/** Runs a script of several statements without parameters (migrations). */
	exec(sql: string): Promise<void>;
}

/**
 * The one database interface the hub uses. Both implementations speak PostgreSQL (embedded PGlite and
 * a real server through `pg`), so the schema and every query are shared.
 */
export interface Database extends Queryable {
	readonly kind: "pglite" | "postgres";
	/** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
	transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
	/**
	 * Calls `onChange` with the payload of each change notification (PostgreSQL LISTEN/NOTIFY: other
	 * processes' and this one's own), and `onReset` whenever notifications may have been missed
	 * (connection lost). Absent for the embedded database, which only one process can open.
	 */
	subscribe?(
		onChange: (payload: string) => void,
		onReset: (connected: boolean) => void,
	): Promise<() => Promise<void>>;
	close(): Promise<void>;
}

/** The channel writes notify, so every hub process sharing a PostgreSQL database drops its caches. */
export const CHANGE_CHANNEL = "modelhub_changes";

/** PostgreSQL error codes the hub turns into client errors. */
export const PG_UNIQUE_VIOLATION = "23505";

export function pgErrorCode(error: unknown): string | undefined {
	if (typeof error === "object" && error !== null && "code" in error) {
		const code = (error as { code: unknown }).code;
		return typeof code === "string" ? code : undefined;
	}
	return undefined;
}
