import type { Queryable } from "../db/types.js";

/**
 * Accounts linked to an OpenID Connect provider's people (migration "accounts linked to an OpenID
 * Connect provider's subjects"): one row per (issuer, subject), the stable pair of OpenID Connect Core
 * 1.0 section 5.7.
 */
export interface LinkedAccount {
	name: string;
	disabled: boolean;
}

/** The user linked to this subject of this issuer, or undefined. */
export async function linkedAccount(
	db: Queryable,
	issuer: string,
	subject: string,
): Promise<LinkedAccount | undefined> {
	const result = await db.query<{ name: string; disabled_at: unknown }>(
		`SELECT a.name, a.disabled_at FROM account_identities i JOIN accounts a ON a.name = i.account
		WHERE i.issuer = $1 AND i.subject = $2 AND a.kind = 'user'`,
		[issuer, subject],
	);
	const row = result.rows[0];
	return row ? { name: row.name, disabled: row.disabled_at !== null } : undefined;
}

export async function linkIdentity(
	tx: Queryable,
	issuer: string,
	subject: string,
	account: string,
): Promise<void> {
	await tx.query("INSERT INTO account_identities (issuer, subject, account) VALUES ($1, $2, $3)", [
		issuer,
		subject,
		account,
	]);
}

export async function touchIdentity(tx: Queryable, issuer: string, subject: string): Promise<void> {
	await tx.query(
		"UPDATE account_identities SET last_login_at = date_trunc('milliseconds', now()) WHERE issuer = $1 AND subject = $2",
		[issuer, subject],
	);
}

/** The first of `names` no account holds (names are case-insensitive), or undefined. */
export async function firstFreeName(db: Queryable, names: readonly string[]): Promise<string | undefined> {
	const result = await db.query<{ name: string }>(
		"SELECT lower(name) AS name FROM accounts WHERE lower(name) = ANY($1::text[])",
		[names.map((name) => name.toLowerCase())],
	);
	const taken = new Set(result.rows.map((row) => row.name));
	return names.find((name) => !taken.has(name.toLowerCase()));
}

/** An account's link to one issuer's subject. */
export interface IdentityOfAccount {
	issuer: string;
	subject: string;
	createdAt: string;
	lastLoginAt: string;
}

/** Every link of this account (one per issuer at most; a few at most in all). */
export async function identitiesOf(db: Queryable, account: string): Promise<IdentityOfAccount[]> {
	const result = await db.query<{
		issuer: string;
		subject: string;
		created_at: Date | string;
		last_login_at: Date | string;
	}>(
		`SELECT issuer, subject, created_at, last_login_at FROM account_identities
		WHERE account = $1 ORDER BY issuer, subject`,
		[account],
	);
	return result.rows.map((row) => ({
		issuer: row.issuer,
		subject: row.subject,
		createdAt: new Date(row.created_at).toISOString(),
		lastLoginAt: new Date(row.last_login_at).toISOString(),
	}));
}

/** Removes this account's link to the issuer; false when there was none. */
export async function unlinkIdentity(tx: Queryable, issuer: string, account: string): Promise<boolean> {
	const result = await tx.query("DELETE FROM account_identities WHERE issuer = $1 AND account = $2", [
		issuer,
		account,
	]);
	return result.rowCount > 0;
}

/**
 * Whether a user account has this e-mail address (compared without case). Used to refuse a new account
 * from single sign-on, never to find one: a provider's e-mail signs nobody in.
 */
export async function emailInUse(db: Queryable, email: string): Promise<boolean> {
	const result = await db.query<{ found: number }>(
		"SELECT 1 AS found FROM accounts WHERE kind = 'user' AND lower(email) = lower($1) LIMIT 1",
		[email],
	);
	return result.rows.length > 0;
}
