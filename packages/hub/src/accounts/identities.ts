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
