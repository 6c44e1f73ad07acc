import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "./migrations.js";
import { openDatabase } from "./open.js";
import { dumpMemoryDatabase, openPglite } from "./pglite.js";
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

describe("in-memory databases from a template (MODELHUB_MEMORY_DB_TEMPLATE)", () => {
	const saved = process.env.MODELHUB_MEMORY_DB_TEMPLATE;
	const dirs: string[] = [];
	afterEach(() => {
		if (saved === undefined) delete process.env.MODELHUB_MEMORY_DB_TEMPLATE;
		else process.env.MODELHUB_MEMORY_DB_TEMPLATE = saved;
		for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
	});

	it("open as a freshly migrated database, a template behind the newest migration brought up to date", async () => {
		delete process.env.MODELHUB_MEMORY_DB_TEMPLATE;
		const fresh = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const expected = await shape(fresh);
		await fresh.close();

		const dir = mkdtempSync(join(tmpdir(), "modelhub-template-"));
		dirs.push(dir);
		const behind = MIGRATIONS.slice(0, -1);
		const file = join(dir, "template.tar");
		writeFileSync(
			file,
			await dumpMemoryDatabase(async (db) => {
				await migrate(db, behind);
				await db.query("CREATE TABLE template_marker (x integer)");
			}),
		);
		process.env.MODELHUB_MEMORY_DB_TEMPLATE = file;
		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		try {
			// Made from the template (its marker table is there), then migrated to the newest version.
			const marker = await db.query("SELECT count(*)::int AS n FROM template_marker");
			expect(marker.rows).toEqual([{ n: 0 }]);
			await db.query("DROP TABLE template_marker");
			expect(await shape(db)).toEqual(expected);
		} finally {
			await db.close();
		}

		// A caller that does not migrate (openPglite alone) still gets an empty database.
		const empty = await openPglite("memory://");
		try {
			const tables = await empty.query(
				"SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
			);
			expect(tables.rows).toEqual([]);
		} finally {
			await empty.close();
		}
	}, 180_000);
});
