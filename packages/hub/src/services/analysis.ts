import type { DatasetDerivation, StoredDerivation } from "../analysis/effective.js";
import { readmeFacts, type ReadmeFacts } from "../datasets/readme.js";
import {
	cardGivesColumns,
	cardGivesSize,
	cardJsonField,
	dataFiles,
	dataFormat,
	datasetTags,
} from "../datasets/tags.js";
import { csvColumns, jsonRecordColumns, type DataColumn } from "../datasets/columns.js";
import {
	csvRows,
	csvSample,
	jsonDocumentRows,
	jsonSample,
	parquetFooterColumns,
	jsonLinesRows,
	PARQUET_TAIL_BYTES,
	parquetFooterLength,
	parquetFooterRows,
} from "../datasets/row-counts.js";
import { analysedFiles, isAnalysedPath } from "../analysis/analysed-paths.js";
import type { SkippedFile } from "../analysis/read.js";
import type { RevisionSnapshot } from "../analysis/snapshot.js";
import { analysisState, carryAnalysisForward, pendingAnalyses, saveDerivation } from "../analysis/store.js";
import type { ReadRange, RevisionFile } from "../analysis/types.js";
import type { Database } from "../db/types.js";
import type { ParseJobInput, ParseJobName, ParseJobOutput } from "../parsing/jobs.js";
import type { ParsePool } from "../parsing/pool.js";
import { repoKeyText, type RepoKey } from "../repo-identity.js";
import { listFiles } from "../repos/read.js";
import { rootTrees, someChangedPath } from "../repos/trees.js";
import type { BlobStore } from "../storage/types.js";
import type { ChangeEvent, ChangeEvents, ChangeOrigin } from "./changes.js";
import { write } from "./write.js";
import type { BlobLocation } from "../blobs/small.js";
import { readBlobLocated, type BlobContext } from "./blobs.js";

/** The bounds of repository analysis (one hub process). */
export interface AnalysisSettings {
	/** Analyses run at once (the machine's cores serve requests first). */
	concurrency: number;
	/** Repositories waiting; past this, commits are caught up later from the database. */
	maxQueued: number;
	/** Wall time of one analysis: reads after it fail, the files they were for are skipped. */
	timeoutMs: number;
	/** Bytes one analysis may read from storage. */
	maxReadBytes: number;
}

export const DEFAULT_ANALYSIS_SETTINGS: AnalysisSettings = {
	concurrency: 1,
	maxQueued: 10_000,
	timeoutMs: 30_000,
	maxReadBytes: 32 * 1024 * 1024,
};

/** Where analysis reports: one line per analysis that skipped files or failed. */
export interface AnalysisLog {
	warn(fields: Record<string, unknown>, message: string): void;
	error(fields: Record<string, unknown>, message: string): void;
}

/** The head of a dataset's README.md read for its description and citation. */
const DATASET_README_BYTES = 300 * 1024;

/** The head of a CSV or JSON data file read for its columns (its header and first records). */
const SAMPLE_HEAD_BYTES = 64 * 1024;

/** Repositories looked up per page while catching up. */
const CATCH_UP_PAGE = 500;

class AnalysisBoundError extends Error {}

/**
 * A Parquet file's footer (its Thrift FileMetaData): the 8-byte tail names its length. The first one
 * read is kept in `footers` for the analysis, since the row count and the columns both read the first
 * data file's footer; only one, so a dataset of many files holds no more than one footer in memory.
 */
async function parquetFooter(
	read: ReadRange,
	file: { path: string; size: number },
	footers: Map<string, Uint8Array>,
): Promise<Uint8Array> {
	const known = footers.get(file.path);
	if (known) return known;
	const tail = await read(file.path, file.size - PARQUET_TAIL_BYTES, file.size);
	const footerEnd = file.size - PARQUET_TAIL_BYTES;
	const footer = await read(file.path, footerEnd - parquetFooterLength(tail, file.size), footerEnd);
	if (footers.size === 0) footers.set(file.path, footer);
	return footer;
}

/** A ranged reader over one revision's files that stops at the analysis's byte and time bounds. */
export function boundedReader(
	blobs: BlobContext,
	files: readonly (RevisionFile & { sha256: string })[],
	settings: AnalysisSettings,
	stopped: () => boolean,
): ReadRange {
	const byPath = new Map(files.map((file) => [file.path, file]));
	/** Where each file's bytes were found by its first read: its later ranges are read from there. */
	const located = new Map<string, BlobLocation>();
	const deadline = Date.now() + settings.timeoutMs;
	let budget = settings.maxReadBytes;
	return async (path, start, end) => {
		const file = byPath.get(path);
		if (!file) throw new Error(`${path} is not in the revision`);
		const from = Math.max(0, Math.min(start, file.size));
		const to = Math.max(from, Math.min(end, file.size));
		if (to - from > budget) throw new AnalysisBoundError("the analysis read budget is spent");
		if (Date.now() > deadline) throw new AnalysisBoundError("the analysis took too long");
		if (stopped()) throw new AnalysisBoundError("the hub is stopping");
		budget -= to - from;
		const { stream, storedIn } = await readBlobLocated(
			blobs,
			{ ...file, storedIn: located.get(path) },
			{ start: from, end: to },
		);
		located.set(path, storedIn);
		const chunks: Buffer[] = [];
		let length = 0;
		for await (const chunk of stream) {
			const bytes = chunk as Buffer;
			length += bytes.byteLength;
			if (length > to - from) {
				stream.destroy();
				throw new Error(`${path}: storage returned more bytes than asked for`);
			}
			if (Date.now() > deadline) {
				stream.destroy();
				throw new AnalysisBoundError("the analysis took too long");
			}
			chunks.push(bytes);
		}
		return new Uint8Array(Buffer.concat(chunks, length));
	};
}

/**
 * Analyses a repository's `main` after each commit, off the commit's path: commits are announced on
 * the change bus once they are answered for; each repository waits in a bounded queue at most once
 * (repeated commits coalesce into one analysis of the latest `main`), analyses run a few at a time,
 * each bounded in time and bytes. The commit analysed is recorded with the result, so a hub that
 * stops mid-analysis (or another hub process on the same database) catches up at start.
 */
export class RepositoryAnalysis {
	private readonly settings: AnalysisSettings;
	private readonly pending = new Map<string, RepoKey>();
	private readonly running = new Set<string>();
	/** Repositories committed to while being analysed: analysed again after. */
	private readonly again = new Set<string>();
	private overflowed = false;
	private catchingUp: Promise<void> | undefined;
	private stopped = false;
	private unsubscribe: (() => void) | undefined;
	private idleWaiters: Array<() => void> = [];

	constructor(
		private readonly context: { db: Database; storage: BlobStore; changes: ChangeEvents; parsing: ParsePool },
		private readonly log: AnalysisLog,
		settings: Partial<AnalysisSettings> = {},
	) {
		this.settings = { ...DEFAULT_ANALYSIS_SETTINGS, ...settings };
	}

	/** Listens for this process's commits and catches up with the database in the background. */
	start(): void {
		this.unsubscribe = this.context.changes.on((event, origin) => this.onChange(event, origin));
		this.catchUp();
	}

	/** Stops taking work and waits for the analyses running (their reads stop at once; nothing is saved). */
	async close(): Promise<void> {
		this.stopped = true;
		this.unsubscribe?.();
		this.pending.clear();
		await this.catchingUp;
		await this.idle();
	}

	/** Resolves once nothing is queued or running. */
	idle(): Promise<void> {
		if (this.pending.size === 0 && this.running.size === 0 && !this.catchingUp) return Promise.resolve();
		return new Promise((resolve) => this.idleWaiters.push(resolve));
	}

	enqueue(repo: RepoKey): void {
		if (this.stopped) return;
		const key = repoKeyText(repo);
		if (this.running.has(key)) {
			this.again.add(key);
			return;
		}
		if (this.pending.has(key)) return;
		if (this.pending.size >= this.settings.maxQueued) {
			this.overflowed = true;
			return;
		}
		this.pending.set(key, { type: repo.type, id: repo.id });
		this.pump();
	}

	private onChange(event: ChangeEvent, origin: ChangeOrigin): void {
		// The process that made a write analyses it; the others catch up at their start.
		if (origin !== "this-process") return;
		if (event.type === "repo.committed") {
			if (event.refs.some((ref) => ref.kind === "branch" && ref.name === "main" && ref.to !== null)) {
				this.enqueue(event.repo);
			}
		} else if (event.type === "repo.created") {
			this.enqueue(event.repo);
		} else if (event.type === "repos.imported") {
			this.catchUp({ type: event.repoType, ids: event.ids });
		}
	}

	/** Queues the repositories whose main moved past their analysis (all, or among `only`). */
	private catchUp(only?: { type: RepoKey["type"]; ids: readonly string[] }): void {
		const previous = this.catchingUp ?? Promise.resolve();
		const run = previous.then(() => this.catchUpPages(only));
		const tracked = run.then(
			() => {
				if (this.catchingUp === tracked) this.catchingUp = undefined;
				this.settle();
			},
			(error: unknown) => {
				if (this.catchingUp === tracked) this.catchingUp = undefined;
				this.log.error({ err: error }, "repository analysis could not look for commits to catch up on");
				this.settle();
			},
		);
		this.catchingUp = tracked;
	}

	private async catchUpPages(only?: { type: RepoKey["type"]; ids: readonly string[] }): Promise<void> {
		const chunks: Array<readonly string[] | undefined> = [];
		if (only)
			for (let start = 0; start < only.ids.length; start += CATCH_UP_PAGE)
				chunks.push(only.ids.slice(start, start + CATCH_UP_PAGE));
		else chunks.push(undefined);
		for (const ids of chunks) {
			let after: RepoKey | undefined;
			for (;;) {
				if (this.stopped) return;
				const room = this.settings.maxQueued - this.pending.size;
				if (room <= 0) {
					await this.drained();
					continue;
				}
				const page = await pendingAnalyses(
					this.context.db,
					Math.min(CATCH_UP_PAGE, room),
					after,
					ids && only ? { type: only.type, ids } : undefined,
				);
				for (const repo of page) this.enqueue(repo);
				if (page.length < Math.min(CATCH_UP_PAGE, room)) break;
				after = page[page.length - 1];
			}
		}
	}

	/** Resolves when the queue (not counting catch-up) is empty. */
	private drained(): Promise<void> {
		if (this.pending.size === 0 && this.running.size === 0) return Promise.resolve();
		return new Promise((resolve) => {
			const check = (): void => {
				if (this.pending.size === 0 && this.running.size === 0) resolve();
				else setTimeout(check, 50);
			};
			check();
		});
	}

	private pump(): void {
		while (!this.stopped && this.running.size < this.settings.concurrency && this.pending.size > 0) {
			const [key, repo] = this.pending.entries().next().value as [string, RepoKey];
			this.pending.delete(key);
			this.running.add(key);
			void this.analyse(repo)
				.catch((error: unknown) => {
					// A stop terminates the parsing workers: the jobs it ends are not failures.
					if (!this.stopped) this.log.error({ err: error, repo: key }, "repository analysis failed");
				})
				.finally(() => {
					this.running.delete(key);
					if (this.again.delete(key)) this.enqueue(repo);
					this.pump();
					this.settle();
				});
		}
	}

	private settle(): void {
		if (this.pending.size > 0 || this.running.size > 0 || this.catchingUp) return;
		if (this.overflowed && !this.stopped) {
			this.overflowed = false;
			this.catchUp();
			return;
		}
		const waiters = this.idleWaiters;
		this.idleWaiters = [];
		for (const resolve of waiters) resolve();
	}

	/** Analyses the repository's current main, unless it already is. */
	private async analyse(repo: RepoKey): Promise<void> {
		const { db } = this.context;
		const state = await analysisState(db, repo);
		if (!state?.mainCommit || state.analysedCommit === state.mainCommit) return;
		const commit = state.mainCommit;
		if (repo.type === "dataset") return this.analyseDataset(repo, commit, state.cardData ?? undefined);
		if (state.analysedCommit && (await this.carriedForward(repo, state.analysedCommit, commit))) return;
		// Only the files analysis looks at (analysed-paths.ts): what it derives depends on nothing else.
		const files = analysedFiles(await listFiles(db, repo, commit)).map((file) => ({
			path: file.path,
			size: file.size,
			sha256: file.sha256,
		}));
		// What crosses to the parsing workers (src/parsing/): paths and sizes; the reads come back here.
		const revisionFiles: RevisionFile[] = files.map((file) => ({ path: file.path, size: file.size }));
		// A stop ends the reads at once (close() waits for the analysis); nothing is saved then, so the
		// commit is analysed again at the next start.
		const stopped = (): boolean => this.stopped;
		const read = boundedReader(this.context, files, this.settings, stopped);
		const skipped: SkippedFile[] = [];
		const card = state.cardData ?? undefined;
		const parts = await this.parsed("snapshot", { files: revisionFiles, card }, read, skipped);
		if (parts) skipped.push(...parts.skipped);
		const snapshot: RevisionSnapshot = {
			files: revisionFiles,
			json: parts?.json ?? {},
			card,
			readme: parts?.readme,
		};
		// The weights' readers keep their own byte budgets (headers only); the time bound is shared.
		const weightsRead = boundedReader(
			this.context,
			files,
			{
				...this.settings,
				maxReadBytes: Number.POSITIVE_INFINITY,
			},
			stopped,
		);
		const safetensors = await this.parsed("safetensors", { snapshot }, weightsRead, skipped);
		const gguf = await this.parsed("gguf", { files: revisionFiles }, weightsRead, skipped);
		for (const [name, result] of [
			["safetensors", safetensors],
			["gguf", gguf],
		] as const) {
			if (result && result.info === undefined)
				for (const problem of result.problems) skipped.push({ path: name, reason: problem });
		}
		if (this.stopped) return;
		// Derivation is the analysis itself: when it cannot be done (it overran) the analysis fails, logged
		// with what was skipped before.
		const derivedMetadata = await this.context.parsing
			.run("derive", {
				snapshot: {
					...snapshot,
					weights: {
						ggufArchitecture: gguf?.info?.architecture,
						ggufChatTemplate: gguf?.info?.chat_template,
					},
				},
			})
			.catch((error: unknown) => {
				if (skipped.length > 0 && !this.stopped) this.reportSkipped(repo, commit, skipped);
				throw error;
			});
		if (this.stopped) return;
		const derived: StoredDerivation = {
			...derivedMetadata,
			...(safetensors?.info ? { safetensors: safetensors.info } : {}),
			...(gguf?.info ? { gguf: gguf.info } : {}),
		};
		await write(this.context, async (tx) => {
			const saved = await saveDerivation(tx, repo, commit, derived);
			// A repository deleted or renamed while it was analysed: nothing stored, nothing to announce.
			return { value: undefined, change: saved ? { type: "repo.analysed", repo, commit } : undefined };
		});
		if (skipped.length > 0) this.reportSkipped(repo, commit, skipped);
	}

	/**
	 * A dataset's derivation: its tags from the whole file list and the card (datasets/tags.ts), and the
	 * card text's description and citation (datasets/readme.ts), read from the head of README.md within
	 * the analysis's byte bound. Every file counts (a data file anywhere sets the format), so nothing is
	 * carried forward between commits.
	 */
	private async analyseDataset(
		repo: RepoKey,
		commit: string,
		card: Record<string, unknown> | undefined,
	): Promise<void> {
		const { db } = this.context;
		const files = await listFiles(db, repo, commit);
		const readme = files.find((file) => file.path === "README.md");
		let facts: ReadmeFacts = {};
		if (readme) {
			const read = boundedReader(this.context, [readme], this.settings, () => this.stopped);
			try {
				const bytes = await read("README.md", 0, Math.min(readme.size, DATASET_README_BYTES));
				facts = readmeFacts(Buffer.from(bytes).toString("utf8"));
			} catch (error) {
				if (this.stopped) return;
				this.reportSkipped(repo, commit, [
					{ path: "README.md", reason: error instanceof Error ? error.message : String(error) },
				]);
			}
		}
		if (this.stopped) return;
		const footers = new Map<string, Uint8Array>();
		const fileRows = cardGivesSize(card)
			? undefined
			: await this.dataFileRows(repo, commit, files, card, footers);
		if (this.stopped) return;
		const fileColumns = cardGivesColumns(card)
			? undefined
			: await this.dataFileColumns(repo, commit, files, card, footers);
		if (this.stopped) return;
		const derived: DatasetDerivation = { tags: datasetTags(files, card, fileRows, fileColumns), ...facts };
		await write(this.context, async (tx) => {
			const saved = await saveDerivation(tx, repo, commit, derived);
			// A repository deleted or renamed while it was analysed: nothing stored, nothing to announce.
			return { value: undefined, change: saved ? { type: "repo.analysed", repo, commit } : undefined };
		});
	}

	/**
	 * The rows of a dataset's data files (of its dominant format), for a card that gives no size: Parquet
	 * footers (two small reads a file), CSV, JSON Lines and `.json` documents (an array, or the array under
	 * the card's `field`) read whole. Every read counts against the
	 * analysis's byte and time bounds; when one is spent, or a file is not what its name says, the count is
	 * unknown (undefined, logged) rather than too small. Other formats are not counted.
	 */
	private async dataFileRows(
		repo: RepoKey,
		commit: string,
		files: readonly (RevisionFile & { sha256: string })[],
		card: Record<string, unknown> | undefined,
		footers: Map<string, Uint8Array>,
	): Promise<number | undefined> {
		const format = dataFormat(files);
		if (format !== "parquet" && format !== "csv" && format !== "json") return undefined;
		const field = cardJsonField(card);
		const data = dataFiles(files, format);
		const read = boundedReader(this.context, data, this.settings, () => this.stopped);
		let rows = 0;
		for (const file of data) {
			try {
				if (format === "parquet") {
					rows += parquetFooterRows(await parquetFooter(read, file, footers));
				} else {
					const bytes = await read(file.path, 0, file.size);
					const name = file.path.toLowerCase();
					const counted =
						format === "csv"
							? csvRows(bytes, name.endsWith(".tsv") ? "\t" : ",")
							: name.endsWith(".json")
								? jsonDocumentRows(bytes, field)
								: jsonLinesRows(bytes);
					if (counted === undefined) throw new Error(`no array under the card's field '${field}'`);
					rows += counted;
				}
			} catch (error) {
				if (!this.stopped)
					this.reportSkipped(repo, commit, [
						{ path: file.path, reason: error instanceof Error ? error.message : String(error) },
					]);
				return undefined;
			}
		}
		return rows;
	}

	/**
	 * The columns of a dataset's first data file (of its dominant format), for a card whose `dataset_info`
	 * describes none: a Parquet footer's (the features `datasets` wrote in it, else its schema), or the
	 * header and first records of a CSV or JSON file's head (SAMPLE_HEAD_BYTES), typed as pandas and
	 * pyarrow type them. Within the analysis's bounds; undefined (logged) when the file cannot say.
	 */
	private async dataFileColumns(
		repo: RepoKey,
		commit: string,
		files: readonly (RevisionFile & { sha256: string })[],
		card: Record<string, unknown> | undefined,
		footers: Map<string, Uint8Array>,
	): Promise<DataColumn[] | undefined> {
		const format = dataFormat(files);
		if (format !== "parquet" && format !== "csv" && format !== "json") return undefined;
		const file = dataFiles(files, format)[0];
		if (!file) return undefined;
		const read = boundedReader(this.context, [file], this.settings, () => this.stopped);
		try {
			if (format === "parquet") {
				return parquetFooterColumns(await parquetFooter(read, file, footers));
			}
			const head = await read(file.path, 0, Math.min(file.size, SAMPLE_HEAD_BYTES));
			if (format === "csv") {
				const tabs = file.path.toLowerCase().endsWith(".tsv");
				const sample = csvSample(head, tabs ? "\t" : ",", file.size <= SAMPLE_HEAD_BYTES);
				return sample ? csvColumns(sample.header, sample.records) : undefined;
			}
			const field = file.path.toLowerCase().endsWith(".json") ? cardJsonField(card) : undefined;
			return jsonRecordColumns(jsonSample(head, field));
		} catch (error) {
			if (!this.stopped)
				this.reportSkipped(repo, commit, [
					{ path: file.path, reason: error instanceof Error ? error.message : String(error) },
				]);
			return undefined;
		}
	}

	/**
	 * A parsing job's answer, or undefined with the reason among the skipped files: a part that overran
	 * its time limit or memory (its worker was replaced) leaves the others' facts standing.
	 */
	private async parsed<Name extends ParseJobName>(
		name: Name,
		input: ParseJobInput<Name>,
		read: ReadRange,
		skipped: SkippedFile[],
	): Promise<ParseJobOutput<Name> | undefined> {
		try {
			return await this.context.parsing.run(name, input, { read });
		} catch (error) {
			if (this.stopped) throw error;
			skipped.push({ path: name, reason: error instanceof Error ? error.message : String(error) });
			return undefined;
		}
	}

	/**
	 * When no file analysis looks at differs between the commit analysed and `commit` (compared tree by
	 * tree, only where they differ), records the analysis as `commit`'s without reading anything: the
	 * result would be the same. False when a looked-at file changed, the analysed commit is gone, or its
	 * analysis is not one to carry (see carryAnalysisForward).
	 */
	private async carriedForward(repo: RepoKey, analysed: string, commit: string): Promise<boolean> {
		const { db } = this.context;
		const roots = await rootTrees(db, repo, [analysed, commit]);
		const from = roots.get(analysed);
		const to = roots.get(commit);
		if (from === undefined || to === undefined) return false;
		if (await someChangedPath(db, from, to, isAnalysedPath)) return false;
		if (this.stopped) return true;
		// Nothing a reader sees changes, so no change event.
		return write(this.context, async (tx) => ({
			value: await carryAnalysisForward(tx, repo, analysed, commit),
		}));
	}

	private reportSkipped(repo: RepoKey, commit: string, skipped: readonly SkippedFile[]): void {
		this.log.warn(
			{ repo: repoKeyText(repo), commit, skipped: skipped.map((file) => `${file.path}: ${file.reason}`) },
			"repository analysis skipped files it could not use",
		);
	}
}
