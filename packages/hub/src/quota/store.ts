import type { AccountLimits } from "../config.js";
import type { Queryable } from "../db/types.js";
import { namespaceUsage } from "../blobs/references.js";

/** What the admin set for one account: `undefined` takes the default, `null` is unlimited. */
export type QuotaOverride = number | null | undefined;

/** An account's storage: what it holds and may hold (`limitBytes` null: unlimited). */
export interface AccountStorage {
	/** The account's name as stored. */
	account: string;
	kind: "user" | "org";
	usedBytes: number;
	limitBytes: number | null;
	/** Where the limit comes from: the configured default for the kind, or the admin's own setting. */
	limitSource: "default" | "account";
}

/** The stored column: NULL = default, -1 = unlimited, else bytes. */
function overrideOf(column: string | number | null): QuotaOverride {
	if (column === null) return undefined;
	const value = Number(column);
	return value < 0 ? null : value;
}

/** The account named `name` (any letter case) and its quota, or undefined when there is none. */
export async function accountQuota(
	db: Queryable,
	name: string,
	defaults: AccountLimits,
): Promise<Omit<AccountStorage, "usedBytes"> | undefined> {
	const result = await db.query<{ name: string; kind: "user" | "org"; quota_bytes: string | number | null }>(
		"SELECT name, kind, quota_bytes FROM accounts WHERE lower(name) = lower($1)",
		[name],
	);
	const row = result.rows[0];
	if (!row) return undefined;
	const override = overrideOf(row.quota_bytes);
	const fallback = row.kind === "org" ? defaults.orgQuotaBytes : defaults.userQuotaBytes;
	return {
		account: row.name,
		kind: row.kind,
		limitBytes: override === undefined ? fallback : override,
		limitSource: override === undefined ? "default" : "account",
	};
}

/** An account's quota and usage, or undefined when no account has this name. */
export async function accountStorage(
	db: Queryable,
	name: string,
	defaults: AccountLimits,
): Promise<AccountStorage | undefined> {
	const quota = await accountQuota(db, name, defaults);
	if (!quota) return undefined;
	return { ...quota, usedBytes: await namespaceUsage(db, quota.account) };
}

/** Sets an account's own quota (`undefined`: back to the default, `null`: unlimited). False when missing. */
export async function setAccountQuota(tx: Queryable, name: string, quota: QuotaOverride): Promise<boolean> {
	const column = quota === undefined ? null : quota === null ? -1 : quota;
	const result = await tx.query(
		"UPDATE accounts SET quota_bytes = $2 WHERE lower(name) = lower($1) RETURNING name",
		[name, column],
	);
	return result.rows.length > 0;
}

/** Repositories `actor` created in the last minute (from the audit log), and when the oldest was. */
export async function recentCreations(
	tx: Queryable,
	actor: string,
): Promise<{ count: number; oldest: Date | undefined }> {
	const result = await tx.query<{ count: string | number; oldest: Date | string | null }>(
		`SELECT count(*) AS count, min(at) AS oldest FROM audit_log
		WHERE actor = $1 AND action = 'repo.create' AND at > now() - interval '60 seconds'`,
		[actor],
	);
	const row = result.rows[0];
	const oldest = row?.oldest ? new Date(row.oldest) : undefined;
	return { count: Number(row?.count ?? 0), oldest };
}

/** Serialises one account's repository creations (the rate check and the insert) across hub processes. */
export async function lockCreationsOf(tx: Queryable, actor: string): Promise<void> {
	await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`repo.create:${actor}`]);
}
