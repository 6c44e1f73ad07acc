import type { GcReport } from "../api/admin.js";
import { recordAudit } from "../audit/log.js";
import { lockForCollection } from "../blobs/references.js";
import { DEFAULT_GC_SETTINGS, type GcSettings } from "../config.js";
import type { Database } from "../db/types.js";
import {
	countCollectableBlobs,
	dropExpiredXorbs,
	dropStaleUploads,
	takeCollectableBlobs,
	unknownBlobs,
	type Tally,
} from "../gc/store.js";
import { endMarking, followMarks, markRoots, startMarking, sweepUnmarked } from "../gc/trees.js";
import { sweepQuarantines } from "../git/receive-objects.js";
import { DEFAULT_GIT_SETTINGS, type GitSettings } from "../git/serve.js";
import type { BlobStore, ListedBlob } from "../storage/types.js";
import { ADMIN } from "../accounts/viewer.js";
import { requireAdmin, type Actor } from "./actor.js";

/**
 * The garbage collector: reclaims uploaded objects no commit took (after
 * MODELHUB_GC_UPLOAD_MAX_AGE_SECONDS), Xet xorbs past their age, blobs nothing refers to any more
 * (deleted repositories' files, refused commits' files, expired uploads and xorbs), stored bytes no row
 * knows of, trees no commit reaches (database rows), and temporaries of crashed writes.
 *
 * Why a commit in flight never loses a blob — the protocol, with COLLECTION_LOCK (a PostgreSQL advisory
 * lock, src/blobs/references.ts):
 * 1. The collector deletes a blob (its row, then its bytes) only inside a transaction holding the lock
 *    exclusively, and only when nothing refers to it (commit files, uploaded objects, xorbs: the one
 *    `blobReferencedSql`) and it was not touched within the grace period (the row's `touched_at`, or for
 *    bytes without a row the stored object's write time).
 * 2. Every writer stores bytes through `storeBlob` (services/blobs.ts): put, then touch the row under the
 *    lock (shared), then check the bytes are still there. From then on the blob is spared for the grace
 *    period; a batch that slipped in between put and touch is detected by that check (a 503, sent again).
 * 3. The transaction that makes a blob referenced (a commit, an upload's registration, a xorb's record)
 *    holds the lock shared and first checks that the blob's row still exists (`requireBlobs`): it runs
 *    wholly before a collection batch (then the blob is referenced and spared) or wholly after (then a
 *    collected blob is refused cleanly, never referred to with its bytes gone). An uploaded object
 *    dropped as stale is likewise refused by the commit's own check that the repository holds it.
 * So a blob is lost to a writer only when its commit comes later than the grace period after its bytes
 * were stored, and then the writer is told, not left with a reference to missing bytes.
 */

/** Blob rows deleted (with their bytes) per transaction: the lock is held for one batch at a time. */
const BATCH = 200;
/** Stored objects checked against the database per query in the orphan pass. */
const LIST_BATCH = 1000;

export interface GcContext {
	db: Database;
	storage: BlobStore;
	/**
	 * The git folder (MODELHUB_GIT_DIR) and the push time limit: quarantines aborted pushes left are
	 * swept once untouched for the temporaries' age, and never sooner than the time limit.
	 */
	git?: { dir: string; timeoutMs: number } | undefined;
}

/**
 * What the collector sweeps of git's, from the git settings (MODELHUB_GIT_DIR, the push time limit): the
 * server's periodic run, the admin route and the CLI's `gc` all sweep the same folder with the same age.
 * Nothing without a git folder (an in-memory hub's is its own temporary one).
 */
export function gitSweepOf(git: Partial<GitSettings>): GcContext["git"] {
	if (git.dir === undefined) return undefined;
	return { dir: git.dir, timeoutMs: (git.timeoutSeconds ?? DEFAULT_GIT_SETTINGS.timeoutSeconds) * 1000 };
}

/** A dry run's transaction ends in this, so that everything it did is rolled back. */
class DryRunDone extends Error {
	constructor(readonly tallies: { staleUploads: Tally; expiredXorbs: Tally; unreferencedBlobs: Tally }) {
		super("dry run");
	}
}

function add(tally: Tally, bytes: number): void {
	tally.count++;
	tally.bytes += bytes;
}

/**
 * One collection. `dryRun` reports what would be reclaimed and changes nothing: the database steps run
 * in a transaction that is rolled back, so the report counts what the real run would (blobs freed by
 * dropping stale uploads included). A real run is recorded in the audit log (`gc.run`).
 */
export async function collectGarbage(
	context: GcContext,
	actor: Actor,
	options: {
		dryRun: boolean;
		settings?: Partial<GcSettings> | undefined;
		/** Stops the run between batches (the server is closing); what was done stays done. */
		signal?: AbortSignal | undefined;
	},
): Promise<GcReport> {
	requireAdmin(actor);
	const settings = { ...DEFAULT_GC_SETTINGS, ...options.settings };
	const { db, storage } = context;
	const { dryRun, signal } = options;
	const report: GcReport = {
		dryRun,
		staleUploads: { count: 0, bytes: 0 },
		expiredXorbs: { count: 0, bytes: 0 },
		unreferencedBlobs: { count: 0, bytes: 0 },
		orphanedObjects: { count: 0, bytes: 0 },
		orphanedTrees: { count: 0, bytes: 0 },
		temporaries: { count: 0, bytes: 0 },
		reclaimedBytes: 0,
	};

	if (dryRun) {
		try {
			await db.transaction(async (tx) => {
				const staleUploads = await dropStaleUploads(tx, settings.uploadMaxAgeMs);
				const expiredXorbs = await dropExpiredXorbs(tx, settings.xorbMaxAgeMs);
				const unreferencedBlobs = await countCollectableBlobs(tx, settings.graceMs);
				throw new DryRunDone({ staleUploads, expiredXorbs, unreferencedBlobs });
			});
		} catch (error) {
			if (!(error instanceof DryRunDone)) throw error;
			Object.assign(report, error.tallies);
		}
	} else {
		await db.transaction(async (tx) => {
			await lockForCollection(tx);
			report.staleUploads = await dropStaleUploads(tx, settings.uploadMaxAgeMs);
			report.expiredXorbs = await dropExpiredXorbs(tx, settings.xorbMaxAgeMs);
		});
		for (;;) {
			const taken = await db.transaction(async (tx) => {
				await lockForCollection(tx);
				const blobs = await takeCollectableBlobs(tx, settings.graceMs, BATCH);
				// Bytes deleted inside the transaction: should it fail after, the rows come back without
				// bytes, which is harmless (nothing refers to them; a later put stores the bytes again).
				for (const blob of blobs) await storage.delete(blob.sha256);
				return blobs;
			});
			for (const blob of taken) add(report.unreferencedBlobs, blob.size);
			if (taken.length < BATCH || signal?.aborted) break;
		}
	}

	if (!signal?.aborted) report.orphanedTrees = await collectTrees(db, dryRun, settings.treeBatch);

	// Stored bytes no row knows of, older than the grace period.
	const before = Date.now() - settings.graceMs;
	let pending: ListedBlob[] = [];
	const sweep = async (): Promise<void> => {
		const batch = pending;
		pending = [];
		if (batch.length === 0) return;
		if (dryRun) {
			const unknown = await unknownBlobs(
				db,
				batch.map((blob) => blob.sha256),
			);
			for (const blob of batch) if (unknown.has(blob.sha256)) add(report.orphanedObjects, blob.size);
			return;
		}
		await db.transaction(async (tx) => {
			await lockForCollection(tx);
			const unknown = await unknownBlobs(
				tx,
				batch.map((blob) => blob.sha256),
			);
			for (const blob of batch) {
				if (!unknown.has(blob.sha256)) continue;
				// Checked again: a writer may have stored these bytes again since they were listed.
				const now = await storage.stat(blob.sha256).catch(() => undefined);
				if (!now) continue;
				await storage.delete(blob.sha256);
				add(report.orphanedObjects, blob.size);
			}
		});
	};
	for await (const blob of storage.list()) {
		if (signal?.aborted) break;
		if (blob.modifiedAt.getTime() >= before) continue;
		pending.push(blob);
		if (pending.length >= LIST_BATCH) await sweep();
	}
	await sweep();

	if (!signal?.aborted) report.temporaries = await storage.sweepTemporaries(settings.tempMaxAgeMs, dryRun);
	if (!signal?.aborted && context.git) {
		const git = context.git;
		const quarantines = await sweepQuarantines(
			git.dir,
			Math.max(settings.tempMaxAgeMs, git.timeoutMs),
			dryRun,
		);
		report.temporaries.count += quarantines.count;
		report.temporaries.bytes += quarantines.bytes;
	}
	report.reclaimedBytes =
		report.unreferencedBlobs.bytes + report.orphanedObjects.bytes + report.temporaries.bytes;
	if (!dryRun) {
		await recordAudit(db, { ...actor.audit, action: "gc.run", details: { ...report } });
	}
	return report;
}

/**
 * Deletes the trees and chunks no commit reaches (left by deleted repositories, and by commits removed
 * from a history), or with `dryRun` only counts them. They are marked from every commit's root tree
 * without the lock (in the database, a page at a time: src/gc/trees.ts); then, holding it exclusively
 * (commits write trees holding it shared, see writeCommits), the roots of commits made meanwhile are
 * marked too, since a commit may have stored again a tree that was unreachable: only what is still
 * unreachable is deleted.
 */
async function collectTrees(
	db: Database,
	dryRun: boolean,
	batch: number,
): Promise<GcReport["orphanedTrees"]> {
	const run = await startMarking(db);
	try {
		await markRoots(db, run);
		await followMarks(db, run, batch);
		const found = await sweepUnmarked(db, run, batch, false);
		if (dryRun || found.count === 0) return found;
		return await db.transaction(async (tx) => {
			await lockForCollection(tx);
			await markRoots(tx, run);
			await followMarks(tx, run, batch);
			return sweepUnmarked(tx, run, batch, true);
		});
	} finally {
		await endMarking(db, run);
	}
}

/** The periodic run's actor: the hub admin's rights, named `@gc` in the audit log. */
export const GC_ACTOR: Actor = Object.freeze({ viewer: ADMIN, audit: Object.freeze({ actor: "@gc" }) });

/**
 * Runs the collector every `settings.intervalMs` (never two runs at once in this process; hubs sharing a
 * database may run together safely, the lock serialising their batches). Returns the function that
 * stops it: a run in progress ends after its current batch.
 */
export function startPeriodicCollection(
	context: GcContext,
	settings: GcSettings,
	log: { info(object: object, message: string): void; error(object: object, message: string): void },
): () => Promise<void> {
	if (settings.intervalMs <= 0) return async () => {};
	const abort = new AbortController();
	let running: Promise<void> | undefined;
	const timer = setInterval(() => {
		if (running) return;
		running = collectGarbage(context, GC_ACTOR, { dryRun: false, settings, signal: abort.signal })
			.then(
				(report) => log.info({ gc: report }, "garbage collection done"),
				(error: unknown) =>
					log.error({ err: error }, "garbage collection failed (retried at the next interval)"),
			)
			.finally(() => {
				running = undefined;
			});
	}, settings.intervalMs);
	timer.unref();
	return async () => {
		clearInterval(timer);
		abort.abort();
		await running;
	};
}
