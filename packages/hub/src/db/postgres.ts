import { createHash } from "node:crypto";
import pg from "pg";
import { DEFAULT_POSTGRES_POOL, type PostgresPoolSettings } from "../config.js";
import {
	CHANGE_CHANNEL,
	type Database,
	type Queryable,
	type QueryOptions,
	type QueryResult,
} from "./types.js";

// bigint (int8) columns arrive as numbers; the hub's counts stay far below 2^53.
const INT8_OID = 20;
const types = {
	getTypeParser(oid: number, format?: string) {
		if (oid === INT8_OID) return (value: string) => Number(value);
		return pg.types.getTypeParser(oid, format as "text");
	},
};

type Client = pg.Pool | pg.PoolClient;

/**
 * Names of prepared statements, one per distinct text, for at most `limit` texts (after that, statements
 * run unnamed as before): each connection keeps every statement it has prepared until it closes, so the
 * number of texts bounds the memory that costs on the server.
 */
function statementNames(limit: number): (sql: string) => string | undefined {
	const names = new Map<string, string>();
	return (sql) => {
		const known = names.get(sql);
		if (known !== undefined || names.size >= limit) return known;
		// pg refuses one name for two texts: a digest of the text cannot collide in practice.
		const name = `mh_${createHash("sha256").update(sql).digest("base64url").slice(0, 24)}`;
		names.set(sql, name);
		return name;
	};
}

function wrap(client: Client, nameOf: (sql: string) => string | undefined): Queryable {
	return {
		async query<R>(
			sql: string,
			params: readonly unknown[] = [],
			options?: QueryOptions,
		): Promise<QueryResult<R>> {
			const name = options?.prepare === true ? nameOf(sql) : undefined;
			const result =
				name === undefined
					? await client.query(sql, params as unknown[])
					: await client.query({ name, text: sql, values: params as unknown[] });
			return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
		},
		async exec(sql: string): Promise<void> {
			// Without parameters pg uses the simple protocol, which accepts several statements.
			await client.query(sql);
		},
	};
}

/** Opens a pool on a real PostgreSQL server. */
export async function openPostgres(
	connectionString: string,
	settings: PostgresPoolSettings = DEFAULT_POSTGRES_POOL,
): Promise<Database> {
	// A database that does not answer fails requests after 5 s (a 503 for the client) instead of queueing them.
	// Statements are cut off after 30 s: a backlog of slow queries cannot grow without bound (503s then).
	const pool = new pg.Pool({
		connectionString,
		types,
		max: settings.size,
		idleTimeoutMillis: 30_000,
		connectionTimeoutMillis: 5000,
		statement_timeout: 30_000,
	});
	// An idle client losing its connection must not crash the process; the pool replaces it.
	pool.on("error", () => {});
	// Fail fast with the server's own message when it cannot be reached.
	const probe = await pool.connect();
	probe.release();

	const nameOf = statementNames(settings.preparedStatements);
	const base = wrap(pool, nameOf);
	const listeners = new Set<pg.Client>();
	let closed = false;

	return {
		kind: "postgres",
		query: base.query,
		exec: base.exec,
		async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
			const client = await pool.connect();
			let broken = false;
			try {
				await client.query("BEGIN");
				const result = await fn(wrap(client, nameOf));
				await client.query("COMMIT");
				return result;
			} catch (error) {
				try {
					await client.query("ROLLBACK");
				} catch {
					broken = true;
				}
				throw error;
			} finally {
				client.release(broken);
			}
		},
		async subscribe(onChange, onReset) {
			let stopped = false;
			let current: pg.Client | undefined;
			let retry: ReturnType<typeof setTimeout> | undefined;
			const connect = async (): Promise<void> => {
				if (stopped || closed) return;
				const client = new pg.Client({ connectionString });
				const lost = (): void => {
					if (current !== client) return;
					current = undefined;
					listeners.delete(client);
					client.removeAllListeners("notification");
					client.end().catch(() => {});
					onReset(false);
					if (!stopped && !closed) retry = setTimeout(() => void connect(), 1000);
				};
				client.on("error", lost);
				client.on("end", lost);
				client.on("notification", (message) => {
					if (message.channel === CHANGE_CHANNEL) onChange(message.payload ?? "");
				});
				current = client;
				listeners.add(client);
				try {
					await client.connect();
					await client.query(`LISTEN ${CHANGE_CHANNEL}`);
					onReset(true);
				} catch {
					lost();
				}
			};
			await connect();
			return async () => {
				stopped = true;
				if (retry) clearTimeout(retry);
				const client = current;
				current = undefined;
				if (client) {
					listeners.delete(client);
					await client.end().catch(() => {});
				}
			};
		},
		async close(): Promise<void> {
			if (closed) return;
			closed = true;
			await Promise.all([...listeners].map((client) => client.end().catch(() => {})));
			listeners.clear();
			await pool.end();
		},
	};
}
