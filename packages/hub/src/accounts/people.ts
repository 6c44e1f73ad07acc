/**
 * The account queries behind profiles, organisation member lists and the header search: reads only,
 * each one statement with a bound on what it returns.
 */
import type { Queryable } from "../db/types.js";
import type { Role } from "../vocabulary.js";
import type { AccountKind } from "./store.js";

export interface AccountCard {
	name: string;
	kind: AccountKind;
	objectId: string;
	fullname: string;
	createdAt: string;
}

interface CardRow {
	name: string;
	kind: AccountKind;
	object_id: string;
	fullname: string;
	created_at: Date | string;
}

function cardOf(row: CardRow): AccountCard {
	return {
		name: row.name,
		kind: row.kind,
		objectId: row.object_id,
		fullname: row.fullname,
		createdAt: new Date(row.created_at).toISOString(),
	};
}

/** The account (not disabled) with this name, case-insensitively, or undefined. */
export async function findAccount(db: Queryable, name: string): Promise<AccountCard | undefined> {
	const result = await db.query<CardRow>(
		`SELECT name, kind, object_id, fullname, created_at FROM accounts
		WHERE lower(name) = lower($1) AND disabled_at IS NULL`,
		[name],
	);
	const row = result.rows[0];
	return row ? cardOf(row) : undefined;
}

/** The organisations a user belongs to, by name. */
export async function organisationsOf(db: Queryable, user: string): Promise<AccountCard[]> {
	const result = await db.query<CardRow>(
		`SELECT o.name, o.kind, o.object_id, o.fullname, o.created_at
		FROM memberships m JOIN accounts o ON o.name = m.org WHERE m.member = $1 ORDER BY o.name LIMIT 1000`,
		[user],
	);
	return result.rows.map(cardOf);
}

export async function memberCount(db: Queryable, org: string): Promise<number> {
	const result = await db.query<{ n: number | string }>(
		"SELECT count(*) AS n FROM memberships WHERE org = $1",
		[org],
	);
	return Number(result.rows[0]?.n ?? 0);
}

export interface MemberCard extends AccountCard {
	role: Role;
}

/** A page of an organisation's members by name, after `after` (a member's name), at most `limit`. */
export async function memberPage(
	db: Queryable,
	org: string,
	options: { after?: string; limit: number },
): Promise<MemberCard[]> {
	const params: unknown[] = [org, options.limit];
	const after = options.after === undefined ? "" : `AND m.member > $${params.push(options.after)}`;
	const result = await db.query<CardRow & { role: Role }>(
		`SELECT a.name, a.kind, a.object_id, a.fullname, a.created_at, m.role
		FROM memberships m JOIN accounts a ON a.name = m.member
		WHERE m.org = $1 ${after} ORDER BY m.member LIMIT $2`,
		params,
	);
	return result.rows.map((row) => ({ ...cardOf(row), role: row.role }));
}

/** How many admins an organisation has. */
export async function adminCount(db: Queryable, org: string): Promise<number> {
	const result = await db.query<{ n: number | string }>(
		"SELECT count(*) AS n FROM memberships WHERE org = $1 AND role = 'admin'",
		[org],
	);
	return Number(result.rows[0]?.n ?? 0);
}

function likeLiteral(text: string): string {
	return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Accounts of a kind (not disabled) whose name or full name contains `text`, case-insensitively: the
 * exact name first, then names that start with it, then the rest, each by name; at most `limit`.
 */
export async function searchAccounts(
	db: Queryable,
	kind: AccountKind,
	text: string,
	limit: number,
): Promise<AccountCard[]> {
	const lower = text.toLowerCase();
	const result = await db.query<CardRow>(
		`SELECT name, kind, object_id, fullname, created_at FROM accounts
		WHERE kind = $1 AND disabled_at IS NULL
			AND (lower(name) LIKE $2 ESCAPE '\\' OR lower(fullname) LIKE $2 ESCAPE '\\')
		ORDER BY lower(name) = $3 DESC, lower(name) LIKE $4 ESCAPE '\\' DESC, lower(name), name
		LIMIT $5`,
		[kind, `%${likeLiteral(lower)}%`, lower, `${likeLiteral(lower)}%`, limit],
	);
	return result.rows.map(cardOf);
}
