import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { getMeta, setMeta } from "./db/meta.js";
import type { Database } from "./db/types.js";
import { ModelInputError, parseModelList, type ModelRecord } from "./models/input.js";
import { countModels } from "./models/store.js";
import { seedDir } from "./paths.js";
import { saveModels, type ImportResult, type SaveOptions } from "./services/import.js";
import { repoPathProblem } from "./repos/paths.js";
import type { BlobStore } from "./storage/types.js";

const SEEDED_KEY = "seeded_at";
/** Serialises seeding when several hubs start on one PostgreSQL database. */
const SEED_LOCK = 7_261_950_432;
/** The record of a model folder (see readModelDir). */
export const MODEL_DIR_RECORD = "model.json";
/** Files in a model folder, at most. */
const MAX_DIR_FILES = 10_000;

function parseJsonFile(text: string, path: string): unknown {
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new ModelInputError(`${path} is not valid JSON: ${(error as Error).message}`);
	}
}

/**
 * Reads a JSON file of models in the public hub's shape (one model or a list) and validates every
 * record. The local paths in a record's `files` are relative to the JSON file's folder.
 */
export async function readModelFile(path: string): Promise<ModelRecord[]> {
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		throw new ModelInputError(`cannot read ${path}: ${(error as Error).message}`);
	}
	let models: ModelRecord[];
	try {
		models = parseModelList(parseJsonFile(text, path));
	} catch (error) {
		if (error instanceof ModelInputError) throw new ModelInputError(`${path}: ${error.message}`);
		throw error;
	}
	const base = dirname(resolve(path));
	for (const model of models) {
		for (const file of model.files ?? []) file.source = resolve(base, file.source);
		await checkSources(model, path);
	}
	return models;
}

async function checkSources(model: ModelRecord, where: string): Promise<void> {
	for (const file of model.files ?? []) {
		const info = await stat(file.source).catch(() => undefined);
		if (!info?.isFile())
			throw new ModelInputError(`${where}: ${model.id}: ${file.path}: ${file.source} is not a readable file`);
	}
}

async function walk(dir: string, out: string[]): Promise<void> {
	for (const entry of await readdir(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) {
			if (entry.name === ".git") continue;
			await walk(path, out);
		} else if (entry.isFile()) {
			out.push(path);
			if (out.length > MAX_DIR_FILES) throw new ModelInputError(`${dir}: more than ${MAX_DIR_FILES} files`);
		}
	}
}

/**
 * Reads a model folder: `model.json` (one model in the public hub's shape) and, as the model's files,
 * everything else in the folder (sub-folders included, `.git` left out), e.g. a snapshot downloaded
 * with `hf download` plus the model's API JSON.
 */
export async function readModelDir(dir: string): Promise<ModelRecord> {
	const recordPath = join(dir, MODEL_DIR_RECORD);
	const [model] = await readModelFile(recordPath);
	if (!model || Array.isArray(JSON.parse(await readFile(recordPath, "utf8")))) {
		throw new ModelInputError(`${recordPath} must hold one model (an object), not a list`);
	}
	if (model.files)
		throw new ModelInputError(
			`${recordPath}: a model folder's files are the folder itself; leave 'files' out`,
		);
	const paths: string[] = [];
	await walk(dir, paths);
	model.files = paths
		.filter((path) => path !== recordPath)
		.sort()
		.map((path) => {
			const repoPath = relative(dir, path).split(sep).join("/");
			const problem = repoPathProblem(repoPath);
			if (problem) throw new ModelInputError(`${path}: ${problem}`);
			return { path: repoPath, source: path };
		});
	return model;
}

/** Reads one import argument: a JSON file of records, or a model folder. */
export async function readImportSource(path: string): Promise<ModelRecord[]> {
	const info = await stat(path).catch(() => undefined);
	if (!info) throw new ModelInputError(`cannot read ${path}: no such file or folder`);
	return info.isDirectory() ? [await readModelDir(path)] : readModelFile(path);
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
 * Loads the seed the first time a hub starts on an empty database (each model with its generated
 * model card and config files). Returns how many models were loaded, or undefined when the database
 * was seeded before or already holds models.
 */
export async function seedIfEmpty(
	db: Database,
	storage: BlobStore,
	dir?: string,
): Promise<number | undefined> {
	// A cheap look first: hubs that start on a seeded database store no files at all.
	if ((await getMeta(db, SEEDED_KEY)) !== undefined || (await countModels(db)) > 0) return undefined;
	const models = await loadSeedModels(dir);
	const result = await saveModels(db, storage, models, {
		// Checked again under a lock, in the writing transaction: hubs starting together seed once.
		guard: async (tx) => {
			await tx.query("SELECT pg_advisory_xact_lock($1)", [SEED_LOCK]);
			if ((await getMeta(tx, SEEDED_KEY)) !== undefined || (await countModels(tx)) > 0) return false;
			await setMeta(tx, SEEDED_KEY, new Date().toISOString());
			return true;
		},
	});
	return result === undefined ? undefined : models.length;
}

/** Loads (creates or replaces) every seed model again, in one transaction. Other models are kept. */
export async function reloadSeed(
	db: Database,
	storage: BlobStore,
	dir?: string,
	options?: SaveOptions,
): Promise<ImportResult> {
	const models = await loadSeedModels(dir);
	const result = await saveModels(db, storage, models, options);
	await setMeta(db, SEEDED_KEY, new Date().toISOString());
	return result;
}
