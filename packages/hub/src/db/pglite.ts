import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
 * PostgreSQL's shared buffers (its page cache) for a database a server keeps open: PostgreSQL's own
 * default.
 */
export const SERVER_SHARED_BUFFERS = "128MB";

/**
 * Shared buffers for a database opened for moments (a CLI command) or kept in memory (`memory://`: tests,
 * templates). PostgreSQL zeroes all of its shared buffers at start, which PGlite does in WebAssembly:
 * 128 MB took about 1 s of the 1.5–2.4 s a PGlite start takes (PGlite 0.5.16, `memset` at the top of a CPU
 * profile), and they stay in the process's memory; 16 MB starts in 0.7–1.2 s. A short-lived or small
 * database has no use for the larger cache.
 */
export const SMALL_SHARED_BUFFERS = "16MB";

function startOptions(sharedBuffers: string): { startParams: string[] } {
	return { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`] };
}

/** Template tarballs read so far, by path: a process opening many databases reads each once. */
const templates = new Map<string, Blob>();
function templateData(path: string): Blob {
	let data = templates.get(path);
	if (!data) {
		try {
			data = new Blob([readFileSync(path)]);
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			throw new Error(
				`the database template ${path} cannot be read (${reason}); set MODELHUB_DB_TEMPLATE=off to start without one`,
			);
		}
		templates.set(path, data);
	}
	return data;
}

/**
 * A fresh in-memory database, prepared by `prepare` (e.g. migrated), as a data-folder tarball new
 * databases can start from (src/db/template.ts). Migrations still run on each database opened from it, so
 * a template behind the newest migration is brought up to date, never wrong.
 */
export async function dumpMemoryDatabase(prepare: (db: Database) => Promise<void>): Promise<Uint8Array> {
	const pg = await PGlite.create(undefined, {
		extensions: { pg_trgm },
		...startOptions(SMALL_SHARED_BUFFERS),
	});
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
 * memory (tests). A new database (in memory, or a data folder without one yet) starts from `template`, a
 * data-folder tarball (src/db/template.ts), when given; else PGlite makes an empty one (initdb).
 * `sharedBuffers`: SERVER_SHARED_BUFFERS for a data folder, SMALL_SHARED_BUFFERS in memory, unless given.
 */
export async function openPglite(
	dataDir: string,
	options: { template?: string; sharedBuffers?: string } = {},
): Promise<Database> {
	let release = (): void => {};
	let pgDir: string | undefined;
	if (dataDir !== "memory://") {
		mkdirSync(dataDir, { recursive: true, mode: 0o700 });
		release = acquireDataDirLock(join(dataDir, "lock"));
		pgDir = join(dataDir, "pglite");
	}
	const sharedBuffers =
		options.sharedBuffers ?? (pgDir === undefined ? SMALL_SHARED_BUFFERS : SERVER_SHARED_BUFFERS);
	try {
		const pg =
			pgDir === undefined
				? await createInMemory(options.template, sharedBuffers)
				: await createOnDisk(pgDir, options.template, sharedBuffers);
		return asDatabase(pg, release);
	} catch (error) {
		release();
		throw error;
	}
}

function createInMemory(template: string | undefined, sharedBuffers: string): Promise<PGlite> {
	return PGlite.create(undefined, {
		extensions: { pg_trgm },
		...startOptions(sharedBuffers),
		...(template ? { loadDataDir: templateData(template) } : {}),
	});
}

/**
 * Opens the database folder, making it first when there is none. While it is being made a marker file lies
 * beside it: a process killed then leaves the marker, and the next start makes the folder again (nothing
 * was stored in it yet) instead of failing on half a database. A template that fails to load (damaged,
 * or from another PGlite release) gives way to initdb, with a warning.
 */
async function createOnDisk(
	pgDir: string,
	template: string | undefined,
	sharedBuffers: string,
): Promise<PGlite> {
	const options = { extensions: { pg_trgm }, ...startOptions(sharedBuffers) };
	const marker = `${pgDir}.creating`;
	if (existsSync(marker)) rmSync(pgDir, { recursive: true, force: true });
	else if (existsSync(pgDir)) return PGlite.create(pgDir, options);
	writeFileSync(marker, "");
	let pg: PGlite;
	try {
		pg = await PGlite.create(pgDir, {
			...options,
			...(template ? { loadDataDir: templateData(template) } : {}),
		});
	} catch (error) {
		if (!template) throw error;
		const reason = error instanceof Error ? error.message : String(error);
		process.emitWarning(
			`the database template ${template} could not be loaded (${reason}); making an empty database instead`,
		);
		rmSync(pgDir, { recursive: true, force: true });
		pg = await PGlite.create(pgDir, options);
	}
	rmSync(marker, { force: true });
	return pg;
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
