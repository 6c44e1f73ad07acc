/**
 * The migrated, empty embedded database new databases start from. PGlite's initdb runs in WASM and is most
 * of a new database's start (13 s of a 19 s first `serve` at load 6, over 100 s at CI load); loading this
 * data-folder tarball takes about half of that, and the migrations it holds need not run again. The build
 * makes it (`modelhub-hub db-template`); a new on-disk data folder and every `memory://` database opened
 * through `openDatabase` start from it when it is there, and start as before (initdb) when it is not.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { MIGRATIONS, migrate, type Migration } from "./migrations.js";
import { dumpMemoryDatabase } from "./pglite.js";

/** PGlite's package folder (its package.json is not among its exports, so found from its entry point). */
function pgliteFolder(): string {
	const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
	let dir = dirname(entry);
	while (!existsSync(join(dir, "package.json"))) {
		const parent = dirname(dir);
		if (parent === dir) throw new Error(`no package.json above ${entry}`);
		dir = parent;
	}
	return dir;
}

let shippedKey: string | undefined;

/**
 * Names the template: a new PGlite release (its data folder format) or a change to the migrations makes
 * another one, so a template never stands for a schema it does not hold.
 */
export function databaseTemplateKey(migrations: readonly Migration[] = MIGRATIONS): string {
	// Asked on every openDatabase: the shipped schema's key is read and hashed once per process.
	if (migrations === MIGRATIONS && shippedKey !== undefined) return shippedKey;
	const { version } = JSON.parse(readFileSync(join(pgliteFolder(), "package.json"), "utf8")) as {
		version: string;
	};
	const hash = createHash("sha256").update(`pglite ${version}\n`);
	for (const migration of migrations) hash.update(`${migration.version}\n${migration.sql}\n`);
	const key = hash.digest("hex").slice(0, 16);
	if (migrations === MIGRATIONS) shippedKey = key;
	return key;
}

/** Where the build keeps templates: node_modules/.cache, beside the PGlite release they were made with. */
export function defaultTemplateFolder(): string {
	return join(pgliteFolder(), "..", "..", ".cache", "modelhub-pglite-template");
}

/**
 * The template file to start new databases from: MODELHUB_DB_TEMPLATE when set (a path, or `off`),
 * else the build's template for this PGlite release and schema when it has been made.
 */
export function findDatabaseTemplate(env: NodeJS.ProcessEnv = process.env): string | undefined {
	const configured = env.MODELHUB_DB_TEMPLATE?.trim();
	if (configured === "off") return undefined;
	if (configured) return configured;
	const file = join(defaultTemplateFolder(), `${databaseTemplateKey()}.tar`);
	return existsSync(file) ? file : undefined;
}

/**
 * Makes the template for this PGlite release and schema unless it exists, written whole or not at all
 * (a temporary file renamed), and removes templates of other releases or schemas. Returns its path.
 */
export async function ensureDatabaseTemplate(folder = defaultTemplateFolder()): Promise<string> {
	const key = databaseTemplateKey();
	const file = join(folder, `${key}.tar`);
	if (existsSync(file)) return file;
	mkdirSync(folder, { recursive: true });
	const tarball = await dumpMemoryDatabase(async (db) => {
		await migrate(db);
	});
	const temporary = `${file}.${process.pid}.tmp`;
	writeFileSync(temporary, tarball);
	renameSync(temporary, file);
	for (const name of readdirSync(folder)) {
		if (name !== `${key}.tar` && /^[0-9a-f]{16}\.tar$/.test(name))
			rmSync(join(folder, name), { force: true });
	}
	return file;
}
