import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Database } from "./db/types.js";
import { ModelInputError, parseModelList, type ModelRecord } from "./models/input.js";
import { countModels, getMeta, setMeta, writeModels, type ImportResult } from "./models/store.js";
import { seedDir } from "./paths.js";

const SEEDED_KEY = "seeded_at";
/** Serialises seeding when several hubs start on one PostgreSQL database. */
const SEED_LOCK = 7_261_950_432;

/** Reads a JSON file of models in the public hub's shape (one model or a list) and validates every record. */
export async function readModelFile(path: string): Promise<ModelRecord[]> {
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		throw new ModelInputError(`cannot read ${path}: ${(error as Error).message}`);
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new ModelInputError(`${path} is not valid JSON: ${(error as Error).message}`);
	}
	try {
		return parseModelList(value);
	} catch (error) {
		if (error instanceof ModelInputError) throw new ModelInputError(`${path}: ${error.message}`);
		throw error;
	}
}

/** The curated seed models: every `*.json` file of the seed folder, in file-name order, ids unique. */
export async function loadSeedModels(dir: string = seedDir()): Promise<ModelRecord[]> {
	const files = (await readdir(dir)).filter((name) => name.endsWith(".json")).sort();
	const models: ModelRecord[] = [];
	const seen = new Map<string, string>();
	for (const file of files) {
		for (const model of await readModelFile(join(dir, file))) {
			const key = model.id.toLowerCase();
			const other = seen.get(key);
			if (other !== undefined) throw new ModelInputError(`${model.id} is in both ${other} and ${file}`);
			seen.set(key, file);
			models.push(model);
		}
	}
	return models;
}

/**
 * Loads the seed the first time a hub starts on an empty database. Returns how many models were loaded,
 * or undefined when the database was seeded before or already holds models.
 */
export async function seedIfEmpty(db: Database, dir?: string): Promise<number | undefined> {
	const models = await loadSeedModels(dir);
	return db.transaction(async (tx) => {
		await tx.query("SELECT pg_advisory_xact_lock($1)", [SEED_LOCK]);
		if ((await getMeta(tx, SEEDED_KEY)) !== undefined || (await countModels(tx)) > 0) return undefined;
		await writeModels(tx, models);
		await setMeta(tx, SEEDED_KEY, new Date().toISOString());
		return models.length;
	});
}

/** Loads (creates or replaces) every seed model again, in one transaction. Other models are kept. */
export async function reloadSeed(db: Database, dir?: string): Promise<ImportResult> {
	const models = await loadSeedModels(dir);
	return db.transaction(async (tx) => {
		const result = await writeModels(tx, models);
		await setMeta(tx, SEEDED_KEY, new Date().toISOString());
		return result;
	});
}
