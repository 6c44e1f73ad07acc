import {
	checkRole,
	createOrg,
	createUser,
	getAccount,
	issueToken,
	listAccounts,
	listMembers,
	listMemberships,
	listTokens,
	removeMembership,
	revokeToken,
	setMembership,
	touchTokens,
	viewerForTokenHash,
	type Account,
	type IssuedToken,
	type MemberInput,
	type TokenInfo,
} from "../accounts/store.js";
import { adminCount } from "../accounts/people.js";
import { TokenViewerCache } from "../accounts/token-cache.js";
import { namespaceRefusal, RefusedError, type Viewer } from "../accounts/viewer.js";
import { listAudit, type AuditQuery, type StoredAuditEntry } from "../audit/log.js";
import type { Queryable } from "../db/types.js";
import { ConflictError } from "../errors.js";
import type { Role } from "../vocabulary.js";
import type { ChangeEvent } from "./changes.js";
import { requireAdmin, type Actor } from "./actor.js";
import { write, type WriteContext } from "./write.js";

/**
 * The hub admin's account operations: users, their tokens, organisations and their members, and the
 * audit log. The admin API (routes/admin.ts) and the command line (commands/accounts.ts) both call
 * these; only the hub admin may (the admin token, or the command line, which holds the database), but
 * an organisation's own admins may change its members too (routes/people.ts).
 * Input is checked by the account store (AccountInputError, AccountNotFoundError, ConflictError).
 */

/** A new user and the write token made with it (the secret is shown once). */
export async function addUser(
	context: WriteContext,
	actor: Actor,
	input: { name: unknown; fullname?: unknown },
): Promise<{ name: string; token: string }> {
	requireAdmin(actor);
	return write(context, async (tx) => {
		const user = await createUser(tx, input);
		const token = await issueToken(tx, { user: user.name, role: "write" });
		return {
			value: { name: user.name, token: token.token },
			audit: [
				{ ...actor.audit, action: "user.create", details: { user: user.name } },
				{
					...actor.audit,
					action: "token.create",
					details: { user: user.name, token: token.id, scope: token.role },
				},
			],
			change: { type: "account.changed", account: user.name, what: "user.created" },
		};
	});
}

export interface UserSummary {
	name: string;
	fullname: string;
	createdAt: string;
	orgs: Array<{ name: string; role: Role }>;
}

/** Every user with their organisations. */
export async function usersWithOrgs(context: WriteContext, actor: Actor): Promise<UserSummary[]> {
	requireAdmin(actor);
	const users = await listAccounts(context.db, "user");
	const memberships = await listMemberships(context.db);
	return users.map((user) => ({
		name: user.name,
		fullname: user.fullname,
		createdAt: user.createdAt,
		orgs: memberships
			.filter((membership) => membership.user === user.name)
			.map((membership) => ({ name: membership.org, role: membership.role })),
	}));
}

/** Another token for a user (`role`: "read" or "write", write by default). */
export async function addToken(
	context: WriteContext,
	actor: Actor,
	input: { user: string; role?: unknown; displayName?: unknown },
): Promise<IssuedToken> {
	requireAdmin(actor);
	return write(context, async (tx) => {
		const issued = await issueToken(tx, input);
		return {
			value: issued,
			audit: {
				...actor.audit,
				action: "token.create",
				details: { user: issued.account, token: issued.id, scope: issued.role },
			},
			change: { type: "account.changed", account: issued.account, what: "tokens" },
		};
	});
}

/** A user's tokens (never their secrets). */
export async function tokensOf(context: WriteContext, actor: Actor, user: string): Promise<TokenInfo[]> {
	requireAdmin(actor);
	return listTokens(context.db, user);
}

/** Revokes a token (and the Xet tokens issued with it); undefined when there is no such token. */
export async function withdrawToken(
	context: WriteContext,
	actor: Actor,
	id: string,
): Promise<TokenInfo | undefined> {
	requireAdmin(actor);
	return write(context, async (tx) => {
		const token = await revokeToken(tx, id);
		if (!token) return { value: undefined };
		return {
			value: token,
			audit: { ...actor.audit, action: "token.revoke", details: { user: token.account, token: token.id } },
			change: { type: "account.changed", account: token.account, what: "tokens" },
		};
	});
}

/** A new organisation with its first members. */
export async function addOrg(
	context: WriteContext,
	actor: Actor,
	input: { name: unknown; fullname?: unknown; members?: unknown },
): Promise<{ org: Account; members: MemberInput[] }> {
	requireAdmin(actor);
	return write(context, async (tx) => {
		const created = await createOrg(tx, input);
		return {
			value: created,
			audit: {
				...actor.audit,
				action: "org.create",
				details: { org: created.org.name, members: created.members },
			},
			change: { type: "account.changed", account: created.org.name, what: "org.created" },
		};
	});
}

/** Every organisation with its members. */
export async function orgsWithMembers(
	context: WriteContext,
	actor: Actor,
): Promise<Array<{ name: string; fullname: string; members: MemberInput[] }>> {
	requireAdmin(actor);
	const out = [];
	for (const org of await listAccounts(context.db, "org")) {
		out.push({ name: org.name, fullname: org.fullname, members: await listMembers(context.db, org.name) });
	}
	return out;
}

/**
 * Refuses anyone but the hub admin and the organisation's own admins (with a write token or a browser
 * session): who may change an organisation's members.
 */
function requireOrgAdmin(actor: Actor, org: string): void {
	if (actor.viewer.kind === "admin") return;
	const refusal = namespaceRefusal(actor.viewer, org, "admin");
	if (refusal) throw new RefusedError(refusal);
}

/**
 * An organisation's own admins may not leave it without one (nobody but the hub admin could then
 * manage it); the hub admin may, as the command line always could.
 */
async function keepAnAdmin(tx: Queryable, actor: Actor, org: string): Promise<void> {
	if (actor.viewer.kind === "admin") return;
	if ((await adminCount(tx, org)) === 0) {
		throw new ConflictError(
			`${org} would be left without an admin: give another member the 'admin' role first`,
		);
	}
}

/**
 * Gives a user a role in an organisation (replacing any earlier one); names as stored. The hub admin
 * or the organisation's admins.
 */
export async function setMember(
	context: WriteContext,
	actor: Actor,
	orgName: string,
	userName: string,
	roleInput: unknown,
): Promise<{ org: string; user: string; role: Role }> {
	requireOrgAdmin(actor, orgName);
	const role = checkRole(roleInput);
	return write(context, async (tx) => {
		const set = await setMembership(tx, orgName, userName, role);
		// setMembership found the organisation: this reads its stored spelling.
		const org = ((await getAccount(tx, orgName)) as Account).name;
		await keepAnAdmin(tx, actor, org);
		return {
			value: { org, ...set },
			audit: { ...actor.audit, action: "org.member.set", details: { org, user: set.user, role } },
			change: { type: "account.changed", account: org, what: "members" },
		};
	});
}

/**
 * Removes a user from an organisation; false when they were not a member. The hub admin or the
 * organisation's admins.
 */
export async function removeMember(
	context: WriteContext,
	actor: Actor,
	org: string,
	user: string,
): Promise<boolean> {
	requireOrgAdmin(actor, org);
	return write(context, async (tx) => {
		if (!(await removeMembership(tx, org, user))) return { value: false };
		await keepAnAdmin(tx, actor, org);
		return {
			value: true,
			audit: { ...actor.audit, action: "org.member.remove", details: { org, user } },
			change: { type: "account.changed", account: org, what: "members" },
		};
	});
}

/** A page of the audit log, newest first. */
export async function auditPage(
	context: WriteContext,
	actor: Actor,
	query: AuditQuery,
): Promise<{ entries: StoredAuditEntry[]; next?: number }> {
	requireAdmin(actor);
	return listAudit(context.db, query);
}

/**
 * The user an access token (not revoked) belongs to, with their organisations; undefined for an unknown
 * token. From the token cache when it holds the token (accounts/token-cache.ts: why it cannot be stale),
 * else one query; unknown tokens are never cached, so each is looked up (and counted as a failure) anew.
 */
export async function viewerOfToken(
	context: { db: Queryable; tokenViewers: TokenViewerCache },
	token: string,
): Promise<Viewer | undefined> {
	const key = TokenViewerCache.keyOf(token);
	const cached = context.tokenViewers.get(key);
	if (cached) return cached;
	const version = context.tokenViewers.version;
	const viewer = await viewerForTokenHash(context.db, key);
	if (viewer) context.tokenViewers.set(key, viewer, version);
	return viewer;
}

/**
 * Whether a change may alter who a token is (its user, their organisations and roles, the token's
 * state): every change but those to repositories' contents and download counts, so that a kind of change
 * added later (an account disabled or deleted) clears the token cache unless it is known not to matter.
 */
export function changesTokenViewers(event: ChangeEvent): boolean {
	switch (event.type) {
		case "repo.created":
		case "repo.deleted":
		case "repo.moved":
		case "repo.updated":
		case "repo.liked":
		case "webhooks.changed":
		case "repo.committed":
		case "repo.analysed":
		case "repo.uploaded":
		case "repos.imported":
		case "downloads.counted":
			return false;
		default:
			return true;
	}
}

/** Records that tokens were used just now (their `lastUsedAt`; the caller decides how often). */
export function recordTokenUse(context: Pick<WriteContext, "db">, ids: readonly string[]): Promise<void> {
	return touchTokens(context.db, ids);
}
