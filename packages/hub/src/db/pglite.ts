import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { acquireDataDirLock } from "./lock.js";
import type { Database, Queryable, QueryResult } from "./types.js";

function wrap(target: PGlite | Transaction): Queryable {
	return {
		async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
			const result = await target.query<R>(sql, params as unknown[]);
			return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
		},
		async exec(sql: string): Promise<void> {
			await target.exec(sql);
		},
	};
}

/**
 * Opens the embedded PostgreSQL (PGlite). `dataDir` is the hub's data folder: the database lives in
 * `<dataDir>/pglite` and `<dataDir>/lock` keeps a second process out. `memory://` keeps everything in
 * memory (tests).
 */
export async function openPglite(dataDir: string): Promise<Database> {
	let release = (): void => {};
	let pgDir: string | undefined;
	if (dataDir !== "memory://") {
		mkdirSync(dataDir, { recursive: true, mode: 0o700 });
		release = acquireDataDirLock(join(dataDir, "lock"));
		pgDir = join(dataDir, "pglite");
	}
	let pg: PGlite;
	try {
		pg = await PGlite.create(pgDir, { extensions: { pg_trgm } });
	} catch (error) {
		release();
		throw error;
	}
	const base = wrap(pg);
	let closed = false;
	return {
		kind: "pglite",
		query: base.query,
		exec: base.exec,
		transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
			return pg.transaction((tx) => fn(wrap(tx)));
		},
		async close(): Promise<void> {
			if (closed) return;
			closed = true;
			try {
				await pg.close();
			} finally {
				release();
			}
		},
	};
}
