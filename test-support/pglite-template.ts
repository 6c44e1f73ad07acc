/**
 * The migrated, empty embedded database every in-memory test database starts from (MODELHUB_MEMORY_DB_TEMPLATE,
 * read by packages/hub/src/db/pglite.ts). Made once per PGlite release and schema, kept under
 * node_modules/.cache; without it every `memory://` database runs PGlite's initdb and all migrations.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "../packages/hub/src/db/migrations.js";
import { dumpMemoryDatabase } from "../packages/hub/src/db/pglite.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The template's file, made when missing; its key changes with the PGlite release and the migrations. */
export async function ensurePgliteTemplate(): Promise<string> {
	const pgliteManifest = join(root, "node_modules", "@electric-sql", "pglite", "package.json");
	const { version } = JSON.parse(readFileSync(pgliteManifest, "utf8")) as { version: string };
	const key = createHash("sha256")
		.update(version)
		.update(readFileSync(join(root, "packages", "hub", "src", "db", "migrations.ts")))
		.digest("hex")
		.slice(0, 16);
	const dir = join(root, "node_modules", ".cache", "modelhub-pglite-template");
	const file = join(dir, `${key}.tar`);
	if (existsSync(file)) return file;
	mkdirSync(dir, { recursive: true });
	const tarball = await dumpMemoryDatabase(async (db) => {
		await migrate(db);
	});
	const temporary = `${file}.${process.pid}.tmp`;
	writeFileSync(temporary, tarball);
	renameSync(temporary, file);
	return file;
}
