import { mkdirSync, readFileSync } from "node:fs";
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
 * The data folder in-memory databases start from, when MODELHUB_MEMORY_DB_TEMPLATE names one (a tarball
 * from `dumpMemoryDatabase`): PGlite's initdb runs in WASM and takes most of a fresh database's start (about
 * 8 s idle, over 100 s at CI load), loading a tarball a fraction of that. Read once per process.
 */
let memoryTemplate: { path: string; data: Blob } | undefined;
function memoryTemplateData(): Blob | undefined {
	const path = process.env.MODELHUB_MEMORY_DB_TEMPLATE;
	if (!path) return undefined;
	if (memoryTemplate?.path !== path) memoryTemplate = { path, data: new Blob([readFileSync(path)]) };
	return memoryTemplate.data;
}

/**
 * A fresh in-memory database, prepared by `prepare` (e.g. migrated), as a data-folder tarball that
 * MODELHUB_MEMORY_DB_TEMPLATE can name. Migrations still run on each database opened from it, so a
 * template behind the newest migration is brought up to date, never wrong.
 */
export async function dumpMemoryDatabase(prepare: (db: Database) => Promise<void>): Promise<Uint8Array> {
	const pg = await PGlite.create(undefined, { extensions: { pg_trgm } });
	const db = asDatabase(pg, () => {});
	try {
		await prepare(db);
		const tarball = await pg.dumpDataDir("none");
		return new Uint8Array(await tarball.arrayBuffer());
	} finally {
		await db.close();
	}
}

/**
 * Opens the embedded PostgreSQL (PGlite). `dataDir` is the hub's data folder: the database lives in
 * `<dataDir>/pglite` and `<dataDir>/lock` keeps a second process out. `memory://` keeps everything in
 * memory (tests); with `fromTemplate`, such a database starts from MODELHUB_MEMORY_DB_TEMPLATE when set
 * (for callers that migrate it next; without, it starts empty).
 */
export async function openPglite(
	dataDir: string,
	options: { fromTemplate?: boolean } = {},
): Promise<Database> {
	let release = (): void => {};
	let pgDir: string | undefined;
	if (dataDir !== "memory://") {
		mkdirSync(dataDir, { recursive: true, mode: 0o700 });
		release = acquireDataDirLock(join(dataDir, "lock"));
		pgDir = join(dataDir, "pglite");
	}
	let pg: PGlite;
	try {
		const template = pgDir === undefined && options.fromTemplate ? memoryTemplateData() : undefined;
		pg = await PGlite.create(pgDir, {
			extensions: { pg_trgm },
			...(template ? { loadDataDir: template } : {}),
		});
	} catch (error) {
		release();
		throw error;
	}
	return asDatabase(pg, release);
}

/** The hub's database interface over one PGlite instance; `release` runs once it is closed. */
function asDatabase(pg: PGlite, release: () => void): Database {
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
