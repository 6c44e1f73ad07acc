import { createHash } from "node:crypto";
import type { Queryable } from "../db/types.js";
import { newObjectId } from "../ids.js";
import { orgsOf, ORGS_OF_ACCOUNT_A } from "./store.js";
import { newToken, tokenHash } from "./tokens.js";
import type { OrgMembership, Viewer } from "./viewer.js";

/**
 * Browser sessions, invite links and the password, e-mail and disabled state of accounts (migration
 * "self-service accounts"). A session's secret lives only in its cookie; the database keeps its SHA-256
 * (256 random bits: a plain hash cannot be inverted), like access tokens.
 */

/** Session secrets: 43 base62 characters after this prefix (never a valid access token). */
export const SESSION_SECRET_PREFIX = "mhs_";
/** Invite codes: the same shape. */
export const INVITE_CODE_PREFIX = "mhi_";
/** Ids of sessions as viewers name them (their `token.id`), never secret. */
export const SESSION_ID_PREFIX = "session-";

/** The display name a session's viewer carries where a token's name would be. */
export const SESSION_DISPLAY_NAME = "web session";

export interface SessionLifetime {
	/** A session unused for this long ends. */
	idleSeconds: number;
	/** A session ends this long after sign-in, used or not. */
	maxSeconds: number;
}

export function newSessionSecret(): string {
	return newToken(SESSION_SECRET_PREFIX);
}

/**
 * The CSRF token of a session: derived from its secret (a keyed hash), so it needs no storage, changes
 * with every new session, and cannot be computed without the HttpOnly cookie.
 */
export function csrfTokenOf(secret: string): string {
	return createHash("sha256").update(`modelhub-csrf\0${secret}`, "utf8").digest("base64url");
}

export interface SessionRecord {
	id: string;
	secret: string;
}

/** A new session for an account; the secret is in the result and nowhere else. */
export async function insertSession(tx: Queryable, account: string): Promise<SessionRecord> {
	const id = `${SESSION_ID_PREFIX}${newObjectId()}`;
	const secret = newSessionSecret();
	await tx.query("INSERT INTO sessions (id, account, secret_hash) VALUES ($1, $2, $3)", [
		id,
		account,
		tokenHash(secret),
	]);
	return { id, secret };
}

/** Ends the session with this secret; its account, or undefined when there was none. */
export async function deleteSessionBySecret(tx: Queryable, secret: string): Promise<string | undefined> {
	const result = await tx.query<{ account: string }>(
		"DELETE FROM sessions WHERE secret_hash = $1 RETURNING account",
		[tokenHash(secret)],
	);
	return result.rows[0]?.account;
}

/** Ends every session of an account, but the one with `exceptId`. The number ended. */
export async function deleteSessionsOf(tx: Queryable, account: string, exceptId?: string): Promise<number> {
	const result = await tx.query("DELETE FROM sessions WHERE account = $1 AND id <> $2", [
		account,
		exceptId ?? "",
	]);
	return result.rowCount;
}

interface SessionViewerRow {
	id: string;
	created_at: Date | string;
	name: string;
	object_id: string;
	fullname: string;
	site_admin: boolean;
	orgs: OrgMembership[] | string | null;
}

/**
 * The user of a live session (not idle for longer than the idle lifetime, not older than the absolute
 * one, its account not disabled), with their organisations; one query by the indexed hash or id.
 */
async function sessionViewerWhere(
	db: Queryable,
	where: "s.secret_hash" | "s.id",
	value: string,
	lifetime: SessionLifetime,
	now: number,
): Promise<Viewer | undefined> {
	const result = await db.query<SessionViewerRow>(
		`SELECT s.id, s.created_at, a.name, a.object_id, a.fullname, a.site_admin,
			${ORGS_OF_ACCOUNT_A}
		FROM sessions s JOIN accounts a ON a.name = s.account
		WHERE ${where} = $1 AND a.kind = 'user' AND a.disabled_at IS NULL
			AND s.created_at > $2 AND s.last_seen_at > $3`,
		[value, new Date(now - lifetime.maxSeconds * 1000), new Date(now - lifetime.idleSeconds * 1000)],
	);
	const row = result.rows[0];
	if (!row) return undefined;
	const orgs = orgsOf(row.orgs);
	return {
		kind: "user",
		account: { name: row.name, objectId: row.object_id, fullname: row.fullname },
		// A session acts with every right of its account, as a write token would.
		token: {
			id: row.id,
			displayName: SESSION_DISPLAY_NAME,
			role: "write",
			createdAt: new Date(row.created_at).toISOString(),
		},
		orgs,
		session: true,
		...(row.site_admin ? { siteAdmin: true as const } : {}),
	};
}

export function viewerForSessionSecret(
	db: Queryable,
	secret: string,
	lifetime: SessionLifetime,
	now = Date.now(),
): Promise<Viewer | undefined> {
	return sessionViewerWhere(db, "s.secret_hash", tokenHash(secret), lifetime, now);
}

/** The session's user by the session's id (what an upload URL issued to it names), or undefined. */
export function viewerForSessionId(
	db: Queryable,
	id: string,
	lifetime: SessionLifetime,
	now = Date.now(),
): Promise<Viewer | undefined> {
	return sessionViewerWhere(db, "s.id", id, lifetime, now);
}

/** Records that sessions were used just now (the caller throttles how often). */
export async function touchSessions(db: Queryable, ids: readonly string[]): Promise<void> {
	if (ids.length === 0) return;
	await db.query(
		"UPDATE sessions SET last_seen_at = date_trunc('milliseconds', now()) WHERE id = ANY($1::text[])",
		[ids],
	);
}

/**
 * Removes an account's sessions past either lifetime. They are refused anyway; removing them at each sign-in
 * (by the indexed account) keeps an account's rows to the sessions started within one lifetime.
 */
export async function deleteExpiredSessionsOf(
	db: Queryable,
	account: string,
	lifetime: SessionLifetime,
	now = Date.now(),
): Promise<void> {
	await db.query("DELETE FROM sessions WHERE account = $1 AND (created_at <= $2 OR last_seen_at <= $3)", [
		account,
		new Date(now - lifetime.maxSeconds * 1000),
		new Date(now - lifetime.idleSeconds * 1000),
	]);
}

export interface Credentials {
	name: string;
	passwordHash: string | null;
	disabled: boolean;
}

/** The stored spelling, password hash and state of a user (case-insensitive name), or undefined. */
export async function credentialsOf(db: Queryable, name: string): Promise<Credentials | undefined> {
	const result = await db.query<{ name: string; password_hash: string | null; disabled_at: unknown }>(
		"SELECT name, password_hash, disabled_at FROM accounts WHERE lower(name) = lower($1) AND kind = 'user'",
		[name],
	);
	const row = result.rows[0];
	return row
		? { name: row.name, passwordHash: row.password_hash, disabled: row.disabled_at !== null }
		: undefined;
}

export async function setPasswordHash(tx: Queryable, name: string, hash: string): Promise<void> {
	await tx.query("UPDATE accounts SET password_hash = $2 WHERE name = $1", [name, hash]);
}

/** Sets the password of an account that has none; false when it has one (or there is no such user). */
export async function setPasswordHashIfNone(tx: Queryable, name: string, hash: string): Promise<boolean> {
	const result = await tx.query(
		"UPDATE accounts SET password_hash = $2 WHERE name = $1 AND password_hash IS NULL",
		[name, hash],
	);
	return result.rowCount > 0;
}

export async function setEmail(tx: Queryable, name: string, email: string | undefined): Promise<void> {
	await tx.query("UPDATE accounts SET email = $2 WHERE name = $1", [name, email ?? null]);
}

/** Disables or enables a user; false when there is no such user. Disabling ends their sessions. */
export async function setDisabled(
	tx: Queryable,
	name: string,
	disabled: boolean,
): Promise<string | undefined> {
	const result = await tx.query<{ name: string }>(
		`UPDATE accounts SET disabled_at = CASE WHEN $2 THEN COALESCE(disabled_at, date_trunc('milliseconds', now())) END
		WHERE lower(name) = lower($1) AND kind = 'user' RETURNING name`,
		[name, disabled],
	);
	const stored = result.rows[0]?.name;
	if (stored !== undefined && disabled) {
		await deleteSessionsOf(tx, stored);
		// Xet tokens are checked against their access token at each use; removed anyway, at once.
		await tx.query("DELETE FROM xet_tokens WHERE account = $1", [stored]);
	}
	return stored;
}

/** Repositories in a namespace (of any type). */
export async function repositoriesIn(db: Queryable, namespace: string): Promise<number> {
	const result = await db.query<{ n: number | string }>(
		"SELECT count(*) AS n FROM repos WHERE lower(namespace) = lower($1)",
		[namespace],
	);
	return Number(result.rows[0]?.n ?? 0);
}

/** Deletes a user: their tokens, sessions and memberships go with the account (ON DELETE CASCADE). */
export async function deleteUserAccount(tx: Queryable, name: string): Promise<boolean> {
	await tx.query("DELETE FROM xet_tokens WHERE account = $1", [name]);
	const result = await tx.query("DELETE FROM accounts WHERE name = $1 AND kind = 'user'", [name]);
	return result.rowCount > 0;
}

export interface Invite {
	code: string;
	expiresAt: string;
}

/** A new single-use invite code, valid for `seconds`. */
export async function insertInvite(tx: Queryable, createdBy: string, seconds: number): Promise<Invite> {
	const code = newToken(INVITE_CODE_PREFIX);
	const expires = new Date(Date.now() + seconds * 1000);
	await tx.query("INSERT INTO invites (id, code_hash, created_by, expires_at) VALUES ($1, $2, $3, $4)", [
		newObjectId(),
		tokenHash(code),
		createdBy,
		expires,
	]);
	return { code, expiresAt: expires.toISOString() };
}

/** Uses an invite code for a new user: true when it was valid (unused, unexpired); it is then spent. */
export async function spendInvite(tx: Queryable, code: string, user: string): Promise<boolean> {
	const result = await tx.query(
		`UPDATE invites SET used_by = $2, used_at = date_trunc('milliseconds', now())
		WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now()`,
		[tokenHash(code), user],
	);
	return result.rowCount > 0;
}

/** An invite as the admin pages list it (never its code: only its hash is stored). */
export interface InviteEntry {
	id: string;
	createdBy: string;
	createdAt: string;
	expiresAt: string;
	usedBy: string | null;
	usedAt: string | null;
}

function isoOf(value: Date | string): string {
	return new Date(value).toISOString();
}

/** The newest invites first, at most `limit`. */
export async function listInvites(db: Queryable, limit: number): Promise<InviteEntry[]> {
	const result = await db.query<{
		id: string;
		created_by: string;
		created_at: Date | string;
		expires_at: Date | string;
		used_by: string | null;
		used_at: Date | string | null;
	}>(
		`SELECT id, created_by, created_at, expires_at, used_by, used_at FROM invites
		ORDER BY created_at DESC, id DESC LIMIT $1`,
		[limit],
	);
	return result.rows.map((row) => ({
		id: row.id,
		createdBy: row.created_by,
		createdAt: isoOf(row.created_at),
		expiresAt: isoOf(row.expires_at),
		usedBy: row.used_by,
		usedAt: row.used_at === null ? null : isoOf(row.used_at),
	}));
}

/**
 * Revokes an unused invite (its row goes: the code then matches nothing). "used" when it was used
 * already (the account it made stays), undefined when there is no such invite.
 */
export async function deleteUnusedInvite(tx: Queryable, id: string): Promise<"revoked" | "used" | undefined> {
	const result = await tx.query<{ used_at: unknown }>(
		"SELECT used_at FROM invites WHERE id = $1 FOR UPDATE",
		[id],
	);
	const row = result.rows[0];
	if (!row) return undefined;
	if (row.used_at !== null) return "used";
	await tx.query("DELETE FROM invites WHERE id = $1", [id]);
	return "revoked";
}

/** A user's site-admin flag; the stored name, or undefined when there is no such user. */
export async function setSiteAdmin(
	tx: Queryable,
	name: string,
	siteAdmin: boolean,
): Promise<string | undefined> {
	const result = await tx.query<{ name: string }>(
		"UPDATE accounts SET site_admin = $2 WHERE lower(name) = lower($1) AND kind = 'user' RETURNING name",
		[name, siteAdmin],
	);
	return result.rows[0]?.name;
}

/** A user as the admin pages list it. */
export interface UserEntry {
	name: string;
	fullname: string;
	email: string | null;
	createdAt: string;
	disabled: boolean;
	siteAdmin: boolean;
}

/** Users by name after `after` (case-sensitive stored order), at most `limit`. */
export async function userPage(db: Queryable, page: { after?: string; limit: number }): Promise<UserEntry[]> {
	const result = await db.query<{
		name: string;
		fullname: string;
		email: string | null;
		created_at: Date | string;
		disabled_at: unknown;
		site_admin: boolean;
	}>(
		`SELECT name, fullname, email, created_at, disabled_at, site_admin FROM accounts
		WHERE kind = 'user' ${page.after !== undefined ? "AND name > $2" : ""} ORDER BY name LIMIT $1`,
		page.after !== undefined ? [page.limit, page.after] : [page.limit],
	);
	return result.rows.map((row) => ({
		name: row.name,
		fullname: row.fullname,
		email: row.email,
		createdAt: isoOf(row.created_at),
		disabled: row.disabled_at !== null,
		siteAdmin: row.site_admin,
	}));
}
