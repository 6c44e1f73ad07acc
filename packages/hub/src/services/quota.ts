import { namespaceRole, type Viewer } from "../accounts/viewer.js";
import { AccountNotFoundError } from "../accounts/store.js";
import { DEFAULT_ACCOUNT_LIMITS, type AccountLimits } from "../config.js";
import type { Database } from "../db/types.js";
import { HubError, tooManyRequests } from "../errors.js";
import {
	accountQuota,
	accountStorage,
	lockCreationsOf,
	recentCreations,
	setAccountQuota,
	type AccountStorage,
	type QuotaOverride,
} from "../quota/store.js";
import { namespaceUsage } from "../blobs/references.js";
import type { RepoKey } from "../repo-identity.js";
import { accountUploads } from "../uploads/objects.js";
import type { Queryable } from "../db/types.js";
import { requireAdmin, type Actor } from "./actor.js";
import { write, type WriteContext } from "./write.js";

/**
 * Storage quotas and the repository creation rate. A namespace's usage is the bytes of the distinct
 * blobs its repositories refer to (src/blobs/references.ts, namespaceUsage); its limit is the admin's
 * setting for the account, else MODELHUB_QUOTA_USER_BYTES / MODELHUB_QUOTA_ORG_BYTES. Uploads are
 * checked before their bytes are stored: declared sizes (LFS batch and upload URL), rebuilt sizes
 * (Xet shards), sizes as they stream (multipart parts, refused past what is left), inline sizes.
 * Uploads running at the same time are each checked against the usage before them, so together they
 * may overshoot by what is in flight.
 */

/** The context quota checks read: the database and the configured limits. */
export interface QuotaContext {
	db: Database;
	settings: { accountLimits?: AccountLimits | undefined };
}

function limitsOf(context: QuotaContext): AccountLimits {
	return context.settings.accountLimits ?? DEFAULT_ACCOUNT_LIMITS;
}

/** Where a namespace's limit comes from, as the refusal names it. */
export interface QuotaLimit {
	namespace: string;
	limit: number;
	/** The setting the limit comes from: the configured default for its kind, or the admin's override. */
	setting: string;
}

/**
 * The storage quota refusal: 413 naming the namespace, its usage, its limit, what was asked and the
 * setting the limit comes from.
 */
export class QuotaExceededError extends HubError {
	override name = "QuotaExceededError";
	constructor(quota: QuotaLimit, used: number, needed: number | undefined) {
		const { namespace, limit, setting } = quota;
		super(
			"TooLarge",
			`Storage quota exceeded: ${namespace} uses ${used} of its ${limit} bytes${needed === undefined ? "" : `, and this upload needs ${needed} more`} (the limit is ${setting}). Delete files or repositories (the space is reclaimed by the garbage collector), or ask the hub admin for a larger quota`,
			{ body: { usedBytes: used, limitBytes: limit } },
		);
	}
}

/** Bytes the namespace may still store (undefined: unlimited, or a namespace of no account). */
export async function remainingQuota(
	context: QuotaContext,
	namespace: string | null | undefined,
): Promise<(QuotaLimit & { used: number; left: number }) | undefined> {
	if (!namespace) return undefined;
	const quota = await accountQuota(context.db, namespace, limitsOf(context));
	if (!quota || quota.limitBytes === null) return undefined;
	const used = await namespaceUsage(context.db, quota.account);
	return {
		namespace: quota.account,
		used,
		limit: quota.limitBytes,
		left: Math.max(0, quota.limitBytes - used),
		setting:
			quota.limitSource === "account"
				? `the quota the hub admin set for ${quota.account}`
				: quota.kind === "org"
					? "MODELHUB_QUOTA_ORG_BYTES"
					: "MODELHUB_QUOTA_USER_BYTES",
	};
}

/**
 * The cap on what someone who may only open pull requests uploads (MODELHUB_PR_UPLOAD_MAX_BYTES): 413
 * naming the account, the repository, what it holds there and the cap.
 */
export class PullRequestUploadCapError extends HubError {
	override name = "PullRequestUploadCapError";
	/** `needed` is undefined for a streamed file refused once it passed what was left. */
	constructor(account: string, repo: string, used: number, limit: number, needed: number | undefined) {
		super(
			"TooLarge",
			`Pull request upload cap reached: ${account} has uploaded ${used} bytes to ${repo}, which ${account} may not write to, of the ${limit} one account may (MODELHUB_PR_UPLOAD_MAX_BYTES), and this upload needs ${needed === undefined ? "more than what is left" : `${needed} more`}. Ask someone with write access to upload the files, or the hub admin to raise the cap`,
			{ body: { usedBytes: used, limitBytes: limit } },
		);
	}
}

/** Bytes `account` may still upload to `repo` with the `pull-request` right. */
export async function pullRequestUploadsLeft(
	context: { db: Queryable; settings: { uploads: { pullRequestMaxBytes: number } } },
	repo: RepoKey,
	account: string,
): Promise<{ used: number; limit: number; left: number }> {
	const limit = context.settings.uploads.pullRequestMaxBytes;
	const used = await accountUploads(context.db, repo, account);
	return { used, limit, left: Math.max(0, limit - used) };
}

/** Refuses (PullRequestUploadCapError) when `bytes` more would take `account` past the cap on `repo`. */
export async function checkPullRequestUploads(
	context: { db: Queryable; settings: { uploads: { pullRequestMaxBytes: number } } },
	repo: RepoKey,
	account: string,
	bytes: number,
): Promise<void> {
	const { used, limit, left } = await pullRequestUploadsLeft(context, repo, account);
	if (bytes > left) throw new PullRequestUploadCapError(account, repo.id, used, limit, bytes);
}

/** Refuses (QuotaExceededError) when storing `bytes` more would take the namespace past its quota. */
export async function checkQuota(
	context: QuotaContext,
	namespace: string | null | undefined,
	bytes: number,
): Promise<void> {
	const remaining = await remainingQuota(context, namespace);
	if (remaining && bytes > remaining.left) {
		throw new QuotaExceededError(remaining, remaining.used, bytes);
	}
}

/** Refuses when the namespace has no quota left at all (for uploads whose size is not known yet). */
export async function requireQuotaLeft(
	context: QuotaContext,
	namespace: string | null | undefined,
): Promise<void> {
	const remaining = await remainingQuota(context, namespace);
	if (remaining && remaining.left <= 0) {
		throw new QuotaExceededError(remaining, remaining.used, undefined);
	}
}

/**
 * An account's storage (usage and limit): for the account itself, its organisations' members, and the
 * hub admin; to anyone else the account is not found.
 */
export async function storageOf(
	context: QuotaContext,
	viewer: Viewer,
	name: string,
): Promise<AccountStorage> {
	const mayRead =
		viewer.kind === "admin" || (viewer.kind === "user" && namespaceRole(viewer, name) !== undefined);
	const storage = mayRead ? await accountStorage(context.db, name, limitsOf(context)) : undefined;
	if (!storage) throw new AccountNotFoundError(`no account named ${name} that you may see`);
	return storage;
}

/**
 * The admin sets an account's own quota: bytes, `null` (unlimited) or `undefined` (the configured
 * default). Audited as `account.quota`.
 */
export async function setQuota(
	context: QuotaContext & WriteContext,
	actor: Actor,
	name: string,
	quota: QuotaOverride,
): Promise<AccountStorage> {
	requireAdmin(actor);
	const found = await write(context, async (tx) => {
		const done = await setAccountQuota(tx, name, quota);
		if (!done) return { value: false };
		return {
			value: true,
			audit: {
				...actor.audit,
				action: "account.quota",
				details: { account: name, quotaBytes: quota === undefined ? "default" : (quota ?? "unlimited") },
			},
		};
	});
	if (!found) throw new AccountNotFoundError(`no account named ${name}`);
	return storageOf(context, actor.viewer, name);
}

/**
 * Refuses a repository creation past MODELHUB_REPO_CREATE_PER_MINUTE for the acting account (429
 * with Retry-After). Runs inside the creating transaction: the account's creations are serialised
 * and counted from the audit log, so hubs sharing a database share the count. The hub admin and the
 * command line are not limited.
 */
export async function checkCreationRate(
	tx: Queryable,
	limits: AccountLimits | undefined,
	actor: Actor,
): Promise<void> {
	const perMinute = (limits ?? DEFAULT_ACCOUNT_LIMITS).repoCreatePerMinute;
	if (perMinute <= 0 || actor.viewer.kind !== "user") return;
	const name = actor.audit.actor;
	await lockCreationsOf(tx, name);
	const recent = await recentCreations(tx, name);
	if (recent.count < perMinute) return;
	const wait = recent.oldest ? Math.ceil((recent.oldest.getTime() + 60_000 - Date.now()) / 1000) : 60;
	const retryAfter = Math.min(60, Math.max(1, wait));
	throw tooManyRequests(
		`Too many repositories created: ${name} created ${recent.count} in the last minute, the limit is ${perMinute} (MODELHUB_REPO_CREATE_PER_MINUTE); retry in ${retryAfter} seconds`,
		retryAfter,
	);
}
