import {
	AccountInputError,
	checkNewAccountName,
	checkTokenRole,
	createUser,
	issueToken,
	listTokens,
	revokeToken,
	type IssuedToken,
	type TokenInfo,
} from "../accounts/store.js";
import { hashPassword, passwordProblem, spendPasswordCheck, verifyPassword } from "../accounts/passwords.js";
import {
	credentialsOf,
	deleteSessionBySecret,
	deleteSessionsOf,
	deleteUnusedInvite,
	deleteUserAccount,
	insertInvite,
	listInvites,
	setSiteAdmin,
	userPage,
	deleteExpiredSessionsOf,
	insertSession,
	repositoriesIn,
	setDisabled,
	setEmail,
	setPasswordHash,
	setPasswordHashIfNone,
	spendInvite,
	touchSessions,
	viewerForSessionSecret,
	type Invite,
	type InviteEntry,
	type SessionRecord,
	type UserEntry,
} from "../accounts/sessions.js";
import { RefusedError, type Viewer } from "../accounts/viewer.js";
import type { SelfServiceSettings } from "../config.js";
import { ConflictError, HubError } from "../errors.js";
import { requireAdmin, requireSiteAdmin, type Actor } from "./actor.js";
import { write, type WriteContext } from "./write.js";

/**
 * Self-service accounts: joining (as MODELHUB_SIGNUP allows), signing in with a password, browser
 * sessions, password changes, a user's own tokens, and the hub admin's disable / delete / invite.
 */
export interface SelfServiceContext extends WriteContext {
	selfService: SelfServiceSettings;
}

const MAX_EMAIL = 254;

function checkEmail(value: unknown): string | undefined {
	if (value === undefined || value === null || value === "") return undefined;
	if (typeof value !== "string" || value.length > MAX_EMAIL || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
		throw new AccountInputError("email must be an address such as ada@example.org (at most 254 characters)");
	}
	return value;
}

function checkNewPassword(value: unknown): string {
	const problem = passwordProblem(value);
	if (problem) throw new AccountInputError(problem);
	return value as string;
}

/** What signing in gives: the account's stored name and its new session (the secret goes in a cookie). */
export interface SignIn {
	name: string;
	session: SessionRecord;
}

/** The one answer for any failed sign-in, so it tells nothing about which names exist. */
export class WrongCredentialsError extends HubError {
	override name = "WrongCredentialsError";
	constructor() {
		super("Unauthorized", "Wrong user name or password");
	}
}

/**
 * Creates an account with a password (and signs it in), as the sign-up mode allows: `open` lets anyone
 * join, `invite` needs an unused, unexpired invite code, `closed` refuses (the admin creates accounts).
 */
export async function join(
	context: SelfServiceContext,
	input: { username?: unknown; password?: unknown; email?: unknown; invite?: unknown },
	ip: string | undefined,
): Promise<SignIn> {
	const mode = context.selfService.signup;
	if (mode === "closed") {
		throw new HubError("Forbidden", "Sign-up is closed on this hub: ask the hub admin for an account");
	}
	const invite = typeof input.invite === "string" && input.invite ? input.invite.slice(0, 100) : undefined;
	if (mode === "invite" && invite === undefined) {
		throw new HubError(
			"Forbidden",
			"This hub admits new accounts by invitation: ask the hub admin for an invite link",
		);
	}
	const name = checkNewAccountName(input.username, "user name");
	const password = checkNewPassword(input.password);
	const email = checkEmail(input.email);
	const hash = await hashPassword(password, context.selfService.passwordCost);
	return write(context, async (tx) => {
		if (mode === "invite" && !(await spendInvite(tx, invite as string, name))) {
			throw new HubError("Forbidden", "This invite link is not valid: it was used already or has expired");
		}
		const user = await createUser(tx, { name });
		await setPasswordHash(tx, user.name, hash);
		await setEmail(tx, user.name, email);
		const session = await insertSession(tx, user.name);
		return {
			value: { name: user.name, session },
			audit: {
				actor: user.name,
				tokenId: session.id,
				...(ip ? { ip } : {}),
				action: "user.join",
				details: { user: user.name, mode },
			},
			change: { type: "account.changed", account: user.name, what: "user.created" },
		};
	});
}

/**
 * Checks a user's password and starts a new session. The session the browser held before (`previous`,
 * its cookie) is ended, so a session id planted before sign-in is never the signed-in one (fixation).
 */
export async function login(
	context: SelfServiceContext,
	input: { username?: unknown; password?: unknown },
	previous: string | undefined,
	ip: string | undefined,
): Promise<SignIn> {
	const cost = context.selfService.passwordCost;
	if (typeof input.username !== "string" || typeof input.password !== "string") {
		throw new AccountInputError("send { username, password }");
	}
	if (input.username.length > 200 || passwordProblem(input.password)?.includes("at most")) {
		throw new WrongCredentialsError();
	}
	const found = await credentialsOf(context.db, input.username);
	if (!found?.passwordHash) {
		await spendPasswordCheck(input.password, cost);
		throw new WrongCredentialsError();
	}
	const check = await verifyPassword(input.password, found.passwordHash, cost);
	if (!check.ok) throw new WrongCredentialsError();
	// Only said to whoever knows the password.
	if (found.disabled) throw new HubError("Forbidden", "This account is disabled: ask the hub admin");
	const rehashed = check.rehash ? await hashPassword(input.password, cost) : undefined;
	return write(context, async (tx) => {
		if (previous !== undefined) await deleteSessionBySecret(tx, previous);
		await deleteExpiredSessionsOf(tx, found.name, context.selfService.session);
		if (rehashed) await setPasswordHash(tx, found.name, rehashed);
		const session = await insertSession(tx, found.name);
		return {
			value: { name: found.name, session },
			audit: {
				actor: found.name,
				tokenId: session.id,
				...(ip ? { ip } : {}),
				action: "session.login",
				details: { user: found.name },
			},
		};
	});
}

/** Ends the session with this secret (nothing when there is none). */
export async function logout(context: WriteContext, secret: string): Promise<void> {
	await deleteSessionBySecret(context.db, secret);
}

/** The user of a browser session; an access token (or nobody) is refused, 401. */
export function requireSession(actor: Actor): Extract<Viewer, { kind: "user" }> {
	const viewer = actor.viewer;
	if (viewer.kind !== "user" || viewer.session !== true) {
		throw new RefusedError({
			status: 401,
			message: "Sign in on this hub's web page first: this needs a browser session, not an access token",
		});
	}
	return viewer;
}

/**
 * How recently a session must have signed in to add a way into its account (a first password, a link to
 * the sign-in provider): a browser left signed in, or a stolen session cookie, must not be able to give
 * someone a lasting way in that outlives the session.
 */
export const FRESH_SIGN_IN_SECONDS = 10 * 60;

/** The user of a browser session that signed in within FRESH_SIGN_IN_SECONDS; else 403, saying to sign in again. */
export function requireFreshSession(
	actor: Actor,
	what: string,
	now = Date.now(),
): Extract<Viewer, { kind: "user" }> {
	const viewer = requireSession(actor);
	const signedInAt = Date.parse(viewer.token.createdAt);
	if (!(now - signedInAt < FRESH_SIGN_IN_SECONDS * 1000)) {
		throw new HubError(
			"Forbidden",
			`Sign out and sign in again first: ${what} needs a sign-in from the last ${FRESH_SIGN_IN_SECONDS / 60} minutes`,
		);
	}
	return viewer;
}

/**
 * Changes the signed-in user's password after checking the current one, or sets a first one for an
 * account that has none (made through single sign-on, or by the admin): that needs a recent sign-in
 * instead. Every session of the account ends, and a new one starts for this browser (its tokens stay
 * valid).
 */
export async function changePassword(
	context: SelfServiceContext,
	actor: Actor,
	input: { currentPassword?: unknown; newPassword?: unknown },
): Promise<SignIn> {
	const viewer = requireSession(actor);
	const cost = context.selfService.passwordCost;
	const next = checkNewPassword(input.newPassword);
	const found = await credentialsOf(context.db, viewer.account.name);
	if (!found?.passwordHash) return setFirstPassword(context, actor, next);
	const current = typeof input.currentPassword === "string" ? input.currentPassword : "";
	const ok =
		passwordProblem(current) === undefined
			? (await verifyPassword(current, found.passwordHash, cost)).ok
			: false;
	if (!ok) throw new HubError("Forbidden", "The current password is wrong");
	const hash = await hashPassword(next, cost);
	return write(context, async (tx) => {
		await setPasswordHash(tx, viewer.account.name, hash);
		await deleteSessionsOf(tx, viewer.account.name);
		const session = await insertSession(tx, viewer.account.name);
		return {
			value: { name: viewer.account.name, session },
			audit: { ...actor.audit, action: "user.password", details: { user: viewer.account.name } },
		};
	});
}

/** A first password for an account without one: a recent sign-in, and only while it still has none. */
async function setFirstPassword(
	context: SelfServiceContext,
	actor: Actor,
	password: string,
): Promise<SignIn> {
	const viewer = requireFreshSession(actor, "setting a password");
	const name = viewer.account.name;
	const hash = await hashPassword(password, context.selfService.passwordCost);
	return write(context, async (tx) => {
		// Two browsers setting one at once: the second finds a password and must give the current one.
		if (!(await setPasswordHashIfNone(tx, name, hash))) {
			throw new ConflictError("Your account has a password now: change it with the current one");
		}
		await deleteSessionsOf(tx, name);
		const session = await insertSession(tx, name);
		return {
			value: { name, session },
			audit: { ...actor.audit, action: "user.password-set", details: { user: name } },
		};
	});
}

/** The user of a live session, or undefined. */
export function viewerOfSession(
	context: Pick<SelfServiceContext, "db" | "selfService">,
	secret: string,
): Promise<Viewer | undefined> {
	return viewerForSessionSecret(context.db, secret, context.selfService.session);
}

/** Records that sessions were used just now (their idle lifetime starts again). */
export function recordSessionUse(context: Pick<WriteContext, "db">, ids: readonly string[]): Promise<void> {
	return touchSessions(context.db, ids);
}

/** The signed-in user's tokens, live ones only (never their secrets). */
export async function ownTokens(context: WriteContext, actor: Actor): Promise<TokenInfo[]> {
	const viewer = requireSession(actor);
	return (await listTokens(context.db, viewer.account.name)).filter((token) => token.revokedAt === null);
}

/** A new token of the signed-in user (the secret is shown once). */
export async function createOwnToken(
	context: WriteContext,
	actor: Actor,
	input: { name: unknown; scope: unknown },
): Promise<IssuedToken> {
	const viewer = requireSession(actor);
	if (typeof input.name !== "string" || !input.name.trim())
		throw new AccountInputError("give the token a name");
	if (input.scope === undefined) throw new AccountInputError('scope must be "read" or "write"');
	const role = checkTokenRole(input.scope);
	return write(context, async (tx) => {
		const issued = await issueToken(tx, { user: viewer.account.name, role, displayName: input.name });
		return {
			value: issued,
			audit: {
				...actor.audit,
				action: "token.create",
				details: { user: issued.account, token: issued.id, scope: role },
			},
			change: { type: "account.changed", account: issued.account, what: "tokens" },
		};
	});
}

/** Revokes one of the signed-in user's tokens; 404 for anyone else's (their existence stays hidden). */
export async function revokeOwnToken(context: WriteContext, actor: Actor, id: string): Promise<TokenInfo> {
	const viewer = requireSession(actor);
	const mine = (await listTokens(context.db, viewer.account.name)).some((token) => token.id === id);
	if (!mine) throw new HubError("NotFound", "You have no token with this id");
	return write(context, async (tx) => {
		const token = (await revokeToken(tx, id)) as TokenInfo;
		return {
			value: token,
			audit: { ...actor.audit, action: "token.revoke", details: { user: token.account, token: token.id } },
			change: { type: "account.changed", account: token.account, what: "tokens" },
		};
	});
}

/** The hub admin or a site admin: a new single-use invite code. */
export async function createInvite(
	context: SelfServiceContext,
	actor: Actor,
	hours: number | undefined,
): Promise<Invite> {
	requireSiteAdmin(actor);
	const seconds = hours === undefined ? context.selfService.inviteSeconds : hours * 3600;
	return write(context, async (tx) => {
		const invite = await insertInvite(tx, actor.audit.actor, seconds);
		return {
			value: invite,
			audit: { ...actor.audit, action: "invite.create", details: { expiresAt: invite.expiresAt } },
		};
	});
}

/**
 * A site admin may not disable or delete their own account: nobody but the hub admin could then undo
 * it (and a site admin locked out by a slip is worse than a refusal).
 */
function refuseOwnAccount(actor: Actor, name: string, what: "disable" | "delete"): void {
	const viewer = actor.viewer;
	if (viewer.kind === "user" && viewer.account.name.toLowerCase() === name.toLowerCase()) {
		throw new ConflictError(`You cannot ${what} your own account: ask another site admin or the hub admin`);
	}
}

/** The hub admin or a site admin: the newest invites (never their codes). */
export async function invitesFor(context: WriteContext, actor: Actor, limit: number): Promise<InviteEntry[]> {
	requireSiteAdmin(actor);
	return listInvites(context.db, limit);
}

/** The hub admin or a site admin: revokes an unused invite. A used one is a 409, an unknown id a 404. */
export async function revokeInvite(context: WriteContext, actor: Actor, id: string): Promise<void> {
	requireSiteAdmin(actor);
	await write(context, async (tx) => {
		const outcome = await deleteUnusedInvite(tx, id.slice(0, 100));
		if (outcome === undefined) throw new HubError("NotFound", `no invite with id ${id.slice(0, 64)}`);
		if (outcome === "used")
			throw new ConflictError("This invite was used already: disable the account it made instead");
		return { value: undefined, audit: { ...actor.audit, action: "invite.revoke", details: { invite: id } } };
	});
}

/** The hub admin or a site admin: a page of users with their state, by name after `after`. */
export async function usersFor(
	context: WriteContext,
	actor: Actor,
	page: { after?: string; limit: number },
): Promise<UserEntry[]> {
	requireSiteAdmin(actor);
	return userPage(context.db, page);
}

/**
 * The hub admin only (the admin token or the command line): makes a user a site admin, or no longer
 * one. Site admins cannot grant it themselves, so the admin token stays the root of every right.
 */
export async function grantSiteAdmin(
	context: WriteContext,
	actor: Actor,
	name: string,
	siteAdmin: unknown,
): Promise<{ name: string; siteAdmin: boolean }> {
	requireAdmin(actor);
	if (typeof siteAdmin !== "boolean") throw new HubError("Invalid", "siteAdmin must be true or false");
	return write(context, async (tx) => {
		const stored = await setSiteAdmin(tx, name, siteAdmin);
		if (stored === undefined) throw new HubError("NotFound", `no user named ${name.slice(0, 100)}`);
		return {
			value: { name: stored, siteAdmin },
			audit: { ...actor.audit, action: "user.site-admin", details: { user: stored, siteAdmin } },
			change: { type: "account.changed", account: stored, what: "tokens" },
		};
	});
}

/**
 * Admin: disables (or enables again) a user. A disabled user's tokens, sessions, upload URLs and Xet
 * tokens stop working at once (each is checked against the account at every use); nothing is deleted.
 */
export async function setUserDisabled(
	context: WriteContext,
	actor: Actor,
	name: string,
	disabled: boolean,
): Promise<string> {
	requireSiteAdmin(actor);
	if (disabled) refuseOwnAccount(actor, name, "disable");
	return write(context, async (tx) => {
		const stored = await setDisabled(tx, name, disabled);
		if (stored === undefined) throw new HubError("NotFound", `no user named ${name.slice(0, 100)}`);
		return {
			value: stored,
			audit: { ...actor.audit, action: disabled ? "user.disable" : "user.enable", details: { user: stored } },
			change: { type: "account.changed", account: stored, what: "tokens" },
		};
	});
}

/**
 * Admin: deletes a user with their tokens, sessions and memberships. Refused (409) while their namespace
 * holds repositories: a later account of the same name would own them. Delete or move them first, or
 * disable the account instead (its repositories then stay as they are).
 */
export async function deleteUser(context: WriteContext, actor: Actor, name: string): Promise<string> {
	requireSiteAdmin(actor);
	refuseOwnAccount(actor, name, "delete");
	return write(context, async (tx) => {
		const found = await credentialsOf(tx, name);
		if (!found) throw new HubError("NotFound", `no user named ${name.slice(0, 100)}`);
		const repos = await repositoriesIn(tx, found.name);
		if (repos > 0) {
			throw new ConflictError(
				`${found.name} still owns ${repos} repositories: delete or move them first, or disable the account instead`,
			);
		}
		await deleteUserAccount(tx, found.name);
		return {
			value: found.name,
			audit: { ...actor.audit, action: "user.delete", details: { user: found.name } },
			change: { type: "account.changed", account: found.name, what: "tokens" },
		};
	});
}
