import type { AccountLimits, GcSettings } from "../config.js";
import type { Database } from "../db/types.js";
import { HubError } from "../errors.js";
import type { GcReport } from "../api/admin.js";
import type { QuotaOverride } from "../quota/store.js";
import { CLI_ACTOR } from "../services/actor.js";
import { ChangeEvents } from "../services/changes.js";
import { collectGarbage, type GcContext } from "../services/gc.js";
import { setQuota, storageOf } from "../services/quota.js";
import type { BlobStore } from "../storage/types.js";
import { UsageError } from "./accounts.js";

export const STORAGE_USAGE = `  quota show ACCOUNT        an account's storage: bytes used and its quota
  quota set ACCOUNT BYTES|unlimited|default
                            set an account's own quota (default: MODELHUB_QUOTA_USER_BYTES or _ORG_BYTES)
  gc [--dry-run]            reclaim unreferenced files, stale uploads, expired xorbs and temporaries,
                            printing counts and bytes (--dry-run: what would be reclaimed)`;

function quotaValue(text: string): QuotaOverride {
	if (text === "unlimited") return null;
	if (text === "default") return undefined;
	if (!/^\d{1,16}$/.test(text))
		throw new UsageError(`the quota is a number of bytes, unlimited or default; got ${JSON.stringify(text)}`);
	return Number(text);
}

function limitText(limit: number | null): string {
	return limit === null ? "unlimited" : `${limit} bytes`;
}

/** `quota show|set …` on an open database. Returns the text to print. */
export async function runQuotaCommand(
	db: Database,
	limits: AccountLimits,
	args: readonly string[],
): Promise<string> {
	const json = args.includes("--json");
	const [sub, name, value, ...rest] = args.filter((arg) => arg !== "--json");
	const context = { db, changes: new ChangeEvents(), settings: { accountLimits: limits } };
	let storage;
	if (sub === "show" && name !== undefined && value === undefined) {
		storage = await storageOf(context, CLI_ACTOR.viewer, name);
	} else if (sub === "set" && name !== undefined && value !== undefined && rest.length === 0) {
		storage = await setQuota(context, CLI_ACTOR, name, quotaValue(value));
	} else {
		throw new UsageError("usage: quota show ACCOUNT | quota set ACCOUNT BYTES|unlimited|default");
	}
	if (json) return JSON.stringify(storage, null, 2);
	return `${storage.account} (${storage.kind}): ${storage.usedBytes} bytes used of ${limitText(storage.limitBytes)} (${storage.limitSource === "default" ? "the default" : "set for this account"})`;
}

function tallyText(label: string, tally: { count: number; bytes: number }): string {
	return `  ${label.padEnd(22)} ${String(tally.count).padStart(8)}  ${tally.bytes} bytes`;
}

/** Prints a collection's report as lines. */
export function gcReportText(report: GcReport): string {
	return [
		report.dryRun ? "Would reclaim (dry run, nothing deleted):" : "Reclaimed:",
		tallyText("stale uploads", report.staleUploads),
		tallyText("expired xorbs", report.expiredXorbs),
		tallyText("unreferenced blobs", report.unreferencedBlobs),
		tallyText("orphaned objects", report.orphanedObjects),
		tallyText("orphaned trees", report.orphanedTrees),
		tallyText("temporary files", report.temporaries),
		`  storage ${report.dryRun ? "to reclaim" : "reclaimed"}: ${report.reclaimedBytes} bytes`,
	].join("\n");
}

/** `gc [--dry-run] [--json]` on an open database and store. */
export async function runGcCommand(
	db: Database,
	storage: BlobStore,
	settings: GcSettings,
	args: readonly string[],
	/** Aborted pushes' quarantines to sweep too (services/gc.ts gitSweepOf). */
	git?: GcContext["git"],
): Promise<string> {
	const unknown = args.find((arg) => arg !== "--dry-run" && arg !== "--json");
	if (unknown !== undefined)
		throw new UsageError(`usage: gc [--dry-run] [--json] (unknown ${JSON.stringify(unknown)})`);
	const report = await collectGarbage({ db, storage, git }, CLI_ACTOR, {
		dryRun: args.includes("--dry-run"),
		settings,
	}).catch((error: unknown) => {
		throw error instanceof HubError ? new UsageError(error.message) : error;
	});
	return args.includes("--json") ? JSON.stringify(report, null, 2) : gcReportText(report);
}
