import { createReadStream } from "node:fs";
import { markAnalysedAtMain } from "../analysis/store.js";
import type { AuditEntry } from "../audit/log.js";
import { generatedFiles } from "../cards/card.js";
import type { Database, Queryable } from "../db/types.js";
import type { ModelRecord } from "../models/input.js";
import { putModels } from "../models/store.js";
import { chunksOf } from "../storage/digest.js";
import type { BlobStore, StoredBlob } from "../storage/types.js";
import { writeCommits, type CommitFile, type CommitInput } from "../repos/commits.js";
import { modelRepo, type RepoType } from "../repo-identity.js";
import { GITATTRIBUTES } from "../repos/lfs.js";
import { reposWithMain } from "../repos/read.js";
import { GENERATED_COMMIT_TITLES, HUB_AUTHOR } from "../repos/catalogue-commit.js";

/** What an import writes: model records. */
const MODEL: RepoType = "model";
import { ChangeEvents } from "./changes.js";
import { write } from "./write.js";

export interface SaveOptions {
	/**
	 * Write a model card and config files for new models without files of their own (the default); when
	 * false they get only `.gitattributes`.
	 */
	generateFiles?: boolean;
	/** Largest file an import may store. */
	maxFileBytes?: number;
	/** Files stored at once. */
	concurrency?: number;
	/**
	 * Runs first inside the transaction; when it returns false nothing is written (saveModels then
	 * returns undefined). Seeding uses it to write only into an empty database, atomically.
	 */
	guard?: (tx: Queryable) => Promise<boolean>;
	/**
	 * Runs last inside the transaction, after the writes: an answer read here shows what was written,
	 * even when a concurrent delete commits right after (a read after the commit could find nothing).
	 */
	readBack?: (tx: Queryable) => Promise<void>;
	/** Written to the audit log in the same transaction. */
	audit?: readonly AuditEntry[];
	/** The bus of this process's server, when it has one (the import's change is emitted on it). */
	changes?: ChangeEvents;
}

export interface ImportResult {
	created: number;
	updated: number;
	/** Commits written (new models, and models given files). */
	commits: number;
}

export { HUB_AUTHOR } from "../repos/catalogue-commit.js";

/** Imports of at least this many models refresh the planner statistics. */
const ANALYZE_AFTER = 10_000;

/** Models per statement batch inside the import transaction. */
const BATCH = 1000;

/** Runs `task` over `items` with at most `limit` at once, in order of results. */
async function mapLimit<T, R>(
	items: readonly T[],
	limit: number,
	task: (item: T) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(items.length);
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < items.length) {
			const index = next++;
			results[index] = await task(items[index] as T);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	return results;
}

/**
 * Stores the files of each model that needs a commit and returns the commit inputs. Generated files
 * with the same text (every `.gitattributes`) are stored once.
 */
async function prepareCommits(
	storage: BlobStore,
	models: readonly ModelRecord[],
	options: SaveOptions,
): Promise<CommitInput[]> {
	const byContent = new Map<string, Promise<StoredBlob>>();
	const putText = (text: string): Promise<StoredBlob> => {
		let stored = byContent.get(text);
		if (!stored) {
			stored = storage.put(chunksOf(text));
			byContent.set(text, stored);
		}
		return stored;
	};
	return mapLimit(models, options.concurrency ?? 8, async (model): Promise<CommitInput> => {
		let files: CommitFile[];
		let title: string;
		if (model.files) {
			files = [];
			for (const file of model.files) {
				const stored = await storage.put(createReadStream(file.source), {
					...(options.maxFileBytes !== undefined ? { maxBytes: options.maxFileBytes } : {}),
				});
				files.push({ path: file.path, sha256: stored.sha256, size: stored.size, gitOid: stored.gitOid });
			}
			title = "Import files";
		} else {
			const generated =
				options.generateFiles === false
					? [{ path: ".gitattributes", content: GITATTRIBUTES }]
					: generatedFiles(model);
			files = [];
			for (const file of generated) {
				const stored = await putText(file.content);
				files.push({ path: file.path, sha256: stored.sha256, size: stored.size, gitOid: stored.gitOid });
			}
			title = options.generateFiles === false ? GENERATED_COMMIT_TITLES.bare : GENERATED_COMMIT_TITLES.card;
		}
		return { repo: modelRepo(model.id), files, title, ...HUB_AUTHOR, date: new Date(model.lastModified) };
	});
}

/**
 * Creates or replaces models, in ONE transaction: either all of them are stored (metadata, mappings and
 * revisions) or none is. A new model gets a first commit on `main` (its own files, or the generated
 * ones); an existing one gets a new commit only when the record brings files, and otherwise keeps its
 * files as they are. File bytes go to `storage` before the transaction (a failed import may leave
 * unreferenced blobs, never a reference to missing bytes).
 */
export async function saveModels(
	db: Database,
	storage: BlobStore,
	models: readonly ModelRecord[],
	options: SaveOptions & { guard: NonNullable<SaveOptions["guard"]> },
): Promise<ImportResult | undefined>;
export async function saveModels(
	db: Database,
	storage: BlobStore,
	models: readonly ModelRecord[],
	options?: SaveOptions,
): Promise<ImportResult>;
export async function saveModels(
	db: Database,
	storage: BlobStore,
	models: readonly ModelRecord[],
	options: SaveOptions = {},
): Promise<ImportResult | undefined> {
	const withMain = await reposWithMain(
		db,
		MODEL,
		models.map((model) => model.id),
	);
	const needCommit = models.filter((model) => model.files !== undefined || !withMain.has(model.id));
	const prepared = await prepareCommits(storage, needCommit, options);
	const changes = options.changes ?? new ChangeEvents();
	const result = await write({ db, changes }, async (tx) => {
		if (options.guard && !(await options.guard(tx))) return { value: undefined };
		let created = 0;
		for (let start = 0; start < models.length; start += BATCH) {
			created += (await putModels(tx, models.slice(start, start + BATCH))).size;
		}
		// Looked at again under the write locks: a concurrent writer may have given the model its first
		// commit meanwhile, and a model without files of its own keeps the files it has.
		const nowWithMain = await reposWithMain(
			tx,
			MODEL,
			prepared.map((commit) => commit.repo.id),
		);
		const withFiles = new Set(models.filter((model) => model.files !== undefined).map((model) => model.id));
		const commits = prepared.filter(
			(commit) => withFiles.has(commit.repo.id) || !nowWithMain.has(commit.repo.id),
		);
		let written = 0;
		for (let start = 0; start < commits.length; start += BATCH) {
			written += (await writeCommits(tx, commits.slice(start, start + BATCH))).length;
		}
		// A record without files is the truth about its model (a catalogue entry): its files (generated,
		// or kept) are not analysed over it. Records with files are analysed after the import.
		const withoutFiles = models.filter((model) => model.files === undefined).map((model) => model.id);
		for (let start = 0; start < withoutFiles.length; start += BATCH) {
			await markAnalysedAtMain(tx, MODEL, withoutFiles.slice(start, start + BATCH));
		}
		await options.readBack?.(tx);
		return {
			value: { created, updated: models.length - created, commits: written },
			audit: options.audit,
			change: { type: "repos.imported", repoType: MODEL, ids: models.map((model) => model.id) },
		};
	});
	// Fresh planner statistics after a bulk load, so that the first queries on the new data get good plans.
	if (result && models.length >= ANALYZE_AFTER) await db.exec("ANALYZE");
	return result;
}
