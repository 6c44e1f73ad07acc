import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "./migrations.js";
import { openDatabase } from "./open.js";
import { dumpMemoryDatabase, openPglite } from "./pglite.js";
import { databaseTemplateKey, ensureDatabaseTemplate, findDatabaseTemplate } from "./template.js";
import type { Database } from "./types.js";

/** Every column of the public schema, and the migrations recorded: what a migrated database is. */
async function shape(db: Database): Promise<unknown> {
	const columns = await db.query(
		`SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
		 WHERE table_schema = 'public' ORDER BY table_name, column_name`,
	);
	const indexes = await db.query(
		`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`,
	);
	const versions = await db.query(`SELECT version, name FROM modelhub_migrations ORDER BY version`);
	return { columns: columns.rows, indexes: indexes.rows, versions: versions.rows };
}

async function hasTable(db: Database, name: string): Promise<boolean> {
	const found = await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = $1", [name]);
	return found.rows.length === 1;
}

describe("new databases start from a template (MODELHUB_DB_TEMPLATE)", () => {
	const saved = process.env.MODELHUB_DB_TEMPLATE;
	const dirs: string[] = [];
	const tempDir = () => {
		const dir = mkdtempSync(join(tmpdir(), "modelhub-template-"));
		dirs.push(dir);
		return dir;
	};
	/** A template one migration behind the newest, with a marker table that shows it was used (made once). */
	let marked: string | undefined;
	const markedDir = mkdtempSync(join(tmpdir(), "modelhub-template-"));
	afterAll(() => rmSync(markedDir, { recursive: true, force: true }));
	const markedTemplate = async () => {
		if (marked) return marked;
		const file = join(markedDir, "template.tar");
		writeFileSync(
			file,
			await dumpMemoryDatabase(async (db) => {
				await migrate(db, MIGRATIONS.slice(0, -1));
				await db.query("CREATE TABLE template_marker (x integer)");
			}),
		);
		marked = file;
		return file;
	};
	afterEach(() => {
		if (saved === undefined) delete process.env.MODELHUB_DB_TEMPLATE;
		else process.env.MODELHUB_DB_TEMPLATE = saved;
		for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
	});

	it("in memory: opens as a freshly migrated database, a template behind the newest migration brought up to date", async () => {
		process.env.MODELHUB_DB_TEMPLATE = await markedTemplate();
		// A caller that does not migrate (openPglite alone) gets an empty database, whatever the template
		// setting; migrated here, it is the reference: every migration run on a freshly made database, as
		// openDatabase does without a template (one initdb serves both, each a few seconds of WASM at load).
		const fresh = await openPglite("memory://");
		let expected: unknown;
		try {
			const tables = await fresh.query(
				"SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
			);
			expect(tables.rows).toEqual([]);
			await migrate(fresh);
			expect(await hasTable(fresh, "template_marker")).toBe(false);
			expected = await shape(fresh);
		} finally {
			await fresh.close();
		}

		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		try {
			expect(await hasTable(db, "template_marker")).toBe(true);
			await db.query("DROP TABLE template_marker");
			expect(await shape(db)).toEqual(expected);
		} finally {
			await db.close();
		}
	}, 240_000);

	it("on disk: a new data folder starts from it, keeps what is written, and an existing folder is never replaced", async () => {
		process.env.MODELHUB_DB_TEMPLATE = await markedTemplate();
		const dataDir = join(tempDir(), "data");
		const db = await openDatabase({ databaseUrl: undefined, dataDir });
		expect(await hasTable(db, "template_marker")).toBe(true);
		expect(existsSync(join(dataDir, "pglite.creating"))).toBe(false);
		await db.query("INSERT INTO template_marker VALUES (42)");
		await db.close();

		// Reopened (another template configured): the same database, with its row.
		process.env.MODELHUB_DB_TEMPLATE = "off";
		const again = await openDatabase({ databaseUrl: undefined, dataDir });
		try {
			expect((await again.query("SELECT x FROM template_marker")).rows).toEqual([{ x: 42 }]);
			const versions = await again.query<{ n: number }>("SELECT count(*)::int AS n FROM modelhub_migrations");
			expect(versions.rows[0]?.n).toBe(MIGRATIONS.length);
		} finally {
			await again.close();
		}
	}, 240_000);

	it("on disk: a folder whose making was cut off is made again; a damaged template gives way to initdb", async () => {
		const damaged = join(tempDir(), "damaged.tar");
		writeFileSync(damaged, "not a tarball of a data folder");
		process.env.MODELHUB_DB_TEMPLATE = damaged;
		const dataDir = join(tempDir(), "data");
		// What a process killed while making the database leaves: the marker and half a folder.
		mkdirSync(join(dataDir, "pglite"), { recursive: true });
		writeFileSync(join(dataDir, "pglite", "PG_VERSION"), "17\n");
		writeFileSync(join(dataDir, "pglite.creating"), "");
		const warnings: string[] = [];
		const onWarning = (warning: Error) => warnings.push(warning.message);
		process.on("warning", onWarning);
		try {
			const db = await openDatabase({ databaseUrl: undefined, dataDir });
			try {
				expect(await hasTable(db, "template_marker")).toBe(false);
				expect(await hasTable(db, "modelhub_migrations")).toBe(true);
			} finally {
				await db.close();
			}
			await new Promise((resolve) => setImmediate(resolve));
			expect(warnings.join("\n")).toContain(`the database template ${damaged} could not be loaded`);
			expect(existsSync(join(dataDir, "pglite.creating"))).toBe(false);
		} finally {
			process.off("warning", onWarning);
		}
	}, 240_000);

	it("is made once per PGlite release and schema, stale ones removed; `off` turns it off", async () => {
		const folder = tempDir();
		writeFileSync(join(folder, "0123456789abcdef.tar"), "a template of another schema");
		writeFileSync(join(folder, "notes.txt"), "not a template");
		const file = await ensureDatabaseTemplate(folder);
		expect(file).toBe(join(folder, `${databaseTemplateKey()}.tar`));
		expect(readdirSync(folder).sort()).toEqual([`${databaseTemplateKey()}.tar`, "notes.txt"].sort());
		expect(await ensureDatabaseTemplate(folder)).toBe(file);
		// Another schema, another key.
		expect(databaseTemplateKey(MIGRATIONS.slice(0, -1))).not.toBe(databaseTemplateKey());
		expect(findDatabaseTemplate({ MODELHUB_DB_TEMPLATE: "off" })).toBeUndefined();
		expect(findDatabaseTemplate({ MODELHUB_DB_TEMPLATE: file })).toBe(file);
	}, 240_000);
});
