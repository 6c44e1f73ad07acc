import { idPartProblem } from "@modelhub/tasks/repositories";
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable } from "../db/types.js";
import { ConflictError, HubError } from "../errors.js";
import { newObjectId } from "../ids.js";
import { ACCESS_TOKEN_PREFIX, newToken, tokenHash } from "./tokens.js";
import { RESERVED_ACCOUNT_NAMES, ROLES, TOKEN_ROLES, type Role, type TokenRole } from "../vocabulary.js";
import type { OrgMembership, Viewer } from "./viewer.js";
import { hasControlCharacter } from "@modelhub/tasks/literals";

/** Account input that cannot be used (a 400 for a client, exit status 2 for the CLI). */
export class AccountInputError extends HubError {
	override name = "AccountInputError";
	constructor(message: string) {
		super("Invalid", message);
	}
}

/** A named account or token that does not exist (a 404). */
export class AccountNotFoundError extends HubError {
	override name = "AccountNotFoundError";
	constructor(message: string) {
		super("NotFound", message);
	}
}

export type AccountKind = "user" | "org";

export interface Account {
	name: string;
	kind: AccountKind;
	objectId: string;
	fullname: string;
	createdAt: string;
}

export interface IssuedToken {
	id: string;
	/** The secret itself: returned once, never stored. */
	token: string;
	account: string;
	role: TokenRole;
	displayName: string;
	createdAt: string;
}

export interface TokenInfo {
	id: string;
	account: string;
	role: TokenRole;
	displayName: string;
	createdAt: string;
	lastUsedAt: string | null;
	revokedAt: string | null;
}

const MAX_FULLNAME = 200;
const MAX_DISPLAY_NAME = 100;

function iso(value: Date | string | null | undefined): string | null {
	if (value === null || value === undefined) return null;
	return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function checkAccountName(name: unknown, what = "name"): string {
	if (typeof name !== "string") throw new AccountInputError(`${what} must be a string`);
	const problem = idPartProblem(name, what);
	if (problem) throw new AccountInputError(problem);
	return name;
}

const RESERVED_NAMES: ReadonlySet<string> = new Set(RESERVED_ACCOUNT_NAMES);

/** The name of a new account: a valid id part that is not one of the web app's own addresses. */
export function checkNewAccountName(name: unknown, what = "name"): string {
	const checked = checkAccountName(name, what);
	if (RESERVED_NAMES.has(checked.toLowerCase())) {
		throw new AccountInputError(
			`${what} '${checked}' is reserved (/${checked.toLowerCase()} is one of this hub's own addresses): choose another`,
		);
	}
	return checked;
}

function checkText(value: unknown, what: string, max: number): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "string") throw new AccountInputError(`${what} must be a string`);
	const text = value.trim();
	if (text.length === 0) return undefined;
	if (text.length > max || hasControlCharacter(text) || !text.isWellFormed()) {
		throw new AccountInputError(`${what} must be at most ${max} printable characters`);
	}
	return text;
}

export function checkRole(value: unknown, what = "role"): Role {
	if (typeof value !== "string" || !(ROLES as readonly string[]).includes(value)) {
		throw new AccountInputError(`${what} must be one of ${ROLES.join(", ")}`);
	}
	return value as Role;
}

export function checkTokenRole(value: unknown, what = "scope"): TokenRole {
	if (value === undefined) return "write";
	if (typeof value !== "string" || !(TOKEN_ROLES as readonly string[]).includes(value)) {
		throw new AccountInputError(`${what} must be "read" or "write"`);
	}
	return value as TokenRole;
}

interface AccountRow {
	name: string;
	kind: AccountKind;
	object_id: string;
	fullname: string;
	created_at: Date | string;
}

function accountOf(row: AccountRow): Account {
	return {
		name: row.name,
		kind: row.kind,
		objectId: row.object_id,
		fullname: row.fullname,
		createdAt: iso(row.created_at) as string,
	};
}

/** The account with this name (case-insensitive), or undefined. */
export async function getAccount(db: Queryable, name: string): Promise<Account | undefined> {
	const result = await db.query<AccountRow>("SELECT * FROM accounts WHERE lower(name) = lower($1)", [name]);
	const row = result.rows[0];
	return row ? accountOf(row) : undefined;
}

async function insertAccount(
	tx: Queryable,
	kind: AccountKind,
	name: string,
	fullname: string | undefined,
): Promise<Account> {
	try {
		const result = await tx.query<AccountRow>(
			"INSERT INTO accounts (name, kind, object_id, fullname) VALUES ($1, $2, $3, $4) RETURNING *",
			[name, kind, newObjectId(), fullname ?? name],
		);
		return accountOf(result.rows[0] as AccountRow);
	} catch (error) {
		if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
			throw new ConflictError(`an account named ${name} already exists (names are case-insensitive)`);
		}
		throw error;
	}
}

export async function createUser(
	tx: Queryable,
	input: { name: unknown; fullname?: unknown },
): Promise<Account> {
	const name = checkNewAccountName(input.name);
	return insertAccount(tx, "user", name, checkText(input.fullname, "fullname", MAX_FULLNAME));
}

export interface MemberInput {
	user: string;
	role: Role;
}

/** Reads `members: [{ user, role }]` of a request body. */
export function parseMembers(value: unknown): MemberInput[] {
	if (value === undefined) return [];
	if (!Array.isArray(value)) throw new AccountInputError("members must be a list of { user, role }");
	if (value.length > 10_000) throw new AccountInputError("at most 10000 members at once");
	return value.map((item, index) => {
		if (typeof item !== "object" || item === null) {
			throw new AccountInputError(`members[${index}] must be an object { user, role }`);
		}
		const record = item as Record<string, unknown>;
		return {
			user: checkAccountName(record.user, `members[${index}].user`),
			role: checkRole(record.role, `members[${index}].role`),
		};
	});
}

export async function createOrg(
	tx: Queryable,
	input: { name: unknown; fullname?: unknown; members?: unknown },
): Promise<{ org: Account; members: MemberInput[] }> {
	const name = checkNewAccountName(input.name);
	const members = parseMembers(input.members);
	const org = await insertAccount(tx, "org", name, checkText(input.fullname, "fullname", MAX_FULLNAME));
	const stored: MemberInput[] = [];
	for (const member of members) stored.push(await setMembership(tx, org.name, member.user, member.role));
	return { org, members: stored };
}

/** Gives a user a role in an organisation (replacing any earlier one). */
export async function setMembership(
	tx: Queryable,
	orgName: string,
	userName: string,
	role: Role,
): Promise<MemberInput> {
	const org = await getAccount(tx, orgName);
	if (!org || org.kind !== "org") throw new AccountNotFoundError(`no organisation named ${orgName}`);
	const user = await getAccount(tx, userName);
	if (!user || user.kind !== "user") throw new AccountNotFoundError(`no user named ${userName}`);
	await tx.query(
		`INSERT INTO memberships (org, member, role) VALUES ($1, $2, $3)
		ON CONFLICT (org, member) DO UPDATE SET role = EXCLUDED.role`,
		[org.name, user.name, role],
	);
	return { user: user.name, role };
}

/** Removes a user from an organisation; false when they were not a member. */
export async function removeMembership(tx: Queryable, orgName: string, userName: string): Promise<boolean> {
	const result = await tx.query(
		`DELETE FROM memberships WHERE org = (SELECT name FROM accounts WHERE lower(name) = lower($1))
		AND member = (SELECT name FROM accounts WHERE lower(name) = lower($2))`,
		[orgName, userName],
	);
	return result.rowCount > 0;
}

export async function listMembers(db: Queryable, orgName: string): Promise<MemberInput[]> {
	const result = await db.query<{ member: string; role: Role }>(
		"SELECT member, role FROM memberships WHERE org = $1 ORDER BY member",
		[orgName],
	);
	return result.rows.map((row) => ({ user: row.member, role: row.role }));
}

/** Every membership: who is in which organisation, with which role (ordered by organisation). */
export async function listMemberships(
	db: Queryable,
): Promise<Array<{ org: string; user: string; role: Role }>> {
	const result = await db.query<{ member: string; org: string; role: Role }>(
		"SELECT member, org, role FROM memberships ORDER BY org",
	);
	return result.rows.map((row) => ({ org: row.org, user: row.member, role: row.role }));
}

export async function listAccounts(db: Queryable, kind?: AccountKind): Promise<Account[]> {
	const result = await db.query<AccountRow>(
		`SELECT * FROM accounts ${kind ? "WHERE kind = $1" : ""} ORDER BY name LIMIT 100000`,
		kind ? [kind] : [],
	);
	return result.rows.map(accountOf);
}

/** Issues a new token for a user. The secret is in the result and nowhere else. */
export async function issueToken(
	tx: Queryable,
	input: { user: string; role?: unknown; displayName?: unknown },
): Promise<IssuedToken> {
	const user = await getAccount(tx, input.user);
	if (!user || user.kind !== "user") throw new AccountNotFoundError(`no user named ${input.user}`);
	const role = checkTokenRole(input.role);
	const id = newObjectId();
	const displayName =
		checkText(input.displayName, "token name", MAX_DISPLAY_NAME) ?? `${role}-${id.slice(0, 8)}`;
	const token = newToken(ACCESS_TOKEN_PREFIX);
	const result = await tx.query<{ created_at: Date | string }>(
		`INSERT INTO access_tokens (id, account, display_name, role, token_hash) VALUES ($1, $2, $3, $4, $5)
		RETURNING created_at`,
		[id, user.name, displayName, role, tokenHash(token)],
	);
	return {
		id,
		token,
		account: user.name,
		role,
		displayName,
		createdAt: iso(result.rows[0]?.created_at) as string,
	};
}

interface TokenRow {
	id: string;
	account: string;
	role: TokenRole;
	display_name: string;
	created_at: Date | string;
	last_used_at: Date | string | null;
	revoked_at: Date | string | null;
}

function tokenInfoOf(row: TokenRow): TokenInfo {
	return {
		id: row.id,
		account: row.account,
		role: row.role,
		displayName: row.display_name,
		createdAt: iso(row.created_at) as string,
		lastUsedAt: iso(row.last_used_at),
		revokedAt: iso(row.revoked_at),
	};
}

/** A user's tokens (never their secrets), oldest first. */
export async function listTokens(db: Queryable, userName: string): Promise<TokenInfo[]> {
	const user = await getAccount(db, userName);
	if (!user || user.kind !== "user") throw new AccountNotFoundError(`no user named ${userName}`);
	const result = await db.query<TokenRow>(
		`SELECT id, account, role, display_name, created_at, last_used_at, revoked_at FROM access_tokens
		WHERE account = $1 ORDER BY created_at, id`,
		[user.name],
	);
	return result.rows.map(tokenInfoOf);
}

/** Revokes a token (and, through it, the Xet tokens issued against it). Undefined when unknown. */
export async function revokeToken(tx: Queryable, id: string): Promise<TokenInfo | undefined> {
	const result = await tx.query<TokenRow>(
		`UPDATE access_tokens SET revoked_at = COALESCE(revoked_at, date_trunc('milliseconds', now())) WHERE id = $1
		RETURNING id, account, role, display_name, created_at, last_used_at, revoked_at`,
		[id],
	);
	await tx.query("DELETE FROM xet_tokens WHERE access_token_id = $1", [id]);
	const row = result.rows[0];
	return row ? tokenInfoOf(row) : undefined;
}

interface ViewerRow {
	id: string;
	role: TokenRole;
	display_name: string;
	created_at: Date | string;
	name: string;
	object_id: string;
	fullname: string;
	site_admin: boolean;
	orgs: Array<{ name: string; objectId: string; fullname: string; role: Role }> | string | null;
}

/**
 * The organisations of the account aliased `a`, with the member's role, as one JSON column `orgs`: how a
 * viewer (by token or by browser session) is read in one statement.
 */
export const ORGS_OF_ACCOUNT_A = `(SELECT json_agg(json_build_object('name', o.name, 'objectId', o.object_id,
		'fullname', o.fullname, 'role', m.role) ORDER BY o.name)
	FROM memberships m JOIN accounts o ON o.name = m.org WHERE m.member = a.name) AS orgs`;

/** The `orgs` column of ORGS_OF_ACCOUNT_A as the driver gives it (JSON text or already parsed). */
export function orgsOf(column: OrgMembership[] | string | null): OrgMembership[] {
	return typeof column === "string" ? (JSON.parse(column) as OrgMembership[]) : (column ?? []);
}

/** A token's user (the token not revoked) with their organisations, selected by `where`. One query. */
async function viewerWhere(db: Queryable, where: string, value: string): Promise<Viewer | undefined> {
	const result = await db.query<ViewerRow>(
		`SELECT t.id, t.role, t.display_name, t.created_at, a.name, a.object_id, a.fullname, a.site_admin,
			${ORGS_OF_ACCOUNT_A}
		FROM access_tokens t JOIN accounts a ON a.name = t.account
		WHERE ${where} = $1 AND t.revoked_at IS NULL AND a.kind = 'user' AND a.disabled_at IS NULL`,
		[value],
	);
	const row = result.rows[0];
	if (!row) return undefined;
	const orgs = orgsOf(row.orgs);
	return {
		kind: "user",
		account: { name: row.name, objectId: row.object_id, fullname: row.fullname },
		token: {
			id: row.id,
			displayName: row.display_name,
			role: row.role,
			createdAt: iso(row.created_at) as string,
		},
		orgs,
		...(row.site_admin ? { siteAdmin: true as const } : {}),
	};
}

/** The user a (non-revoked) token belongs to, with their organisations, or undefined. One query. */
export function viewerForToken(db: Queryable, token: string): Promise<Viewer | undefined> {
	return viewerForTokenHash(db, tokenHash(token));
}

/** viewerForToken, given the token's hash (tokenHash) already. */
export function viewerForTokenHash(db: Queryable, hash: string): Promise<Viewer | undefined> {
	return viewerWhere(db, "t.token_hash", hash);
}

/**
 * The user of the token with this id, as they are now (their organisations and roles of this moment),
 * or undefined when the token is revoked or unknown. One query by primary key: what a signed upload URL
 * or a Xet token (which name the token's id, never the token) is checked against at each use.
 */
export function viewerForTokenId(db: Queryable, id: string): Promise<Viewer | undefined> {
	return viewerWhere(db, "t.id", id);
}

/** Records when tokens were last used (the caller throttles how often). */
export async function touchTokens(db: Queryable, ids: readonly string[]): Promise<void> {
	if (ids.length === 0) return;
	await db.query(
		"UPDATE access_tokens SET last_used_at = date_trunc('milliseconds', now()) WHERE id = ANY($1::text[])",
		[ids],
	);
}
