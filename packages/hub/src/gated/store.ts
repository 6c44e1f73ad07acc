import type { Queryable } from "../db/types.js";
import type { RepoKey } from "../repo-identity.js";
import type { GatedMode } from "../repos/read.js";

/**
 * Gated repositories' access requests (table `access_requests`, one per user and repository). SQL
 * only: services/gated.ts decides who may read or change them.
 */

export const ACCESS_STATUSES = ["pending", "accepted", "rejected"] as const;
export type AccessStatus = (typeof ACCESS_STATUSES)[number];

/** A stored request, with the requester's account fields the API shows. */
export interface AccessRequestRow {
	account: string;
	fullname: string;
	email: string | null;
	status: AccessStatus;
	fields: Record<string, unknown> | null;
	rejectionReason: string | null;
	requestedAt: string;
	updatedAt: string;
}

interface RawRow {
	account: string;
	fullname: string;
	email: string | null;
	status: AccessStatus;
	fields: Record<string, unknown> | string | null;
	rejection_reason: string | null;
	requested_at: Date | string;
	updated_at: Date | string;
}

function iso(value: Date | string): string {
	return (value instanceof Date ? value : new Date(value)).toISOString();
}

function rowOf(row: RawRow): AccessRequestRow {
	return {
		account: row.account,
		fullname: row.fullname,
		email: row.email,
		status: row.status,
		fields: typeof row.fields === "string" ? (JSON.parse(row.fields) as Record<string, unknown>) : row.fields,
		rejectionReason: row.rejection_reason,
		requestedAt: iso(row.requested_at),
		updatedAt: iso(row.updated_at),
	};
}

const SELECT = `SELECT q.account, a.fullname, a.email, q.status, q.fields, q.rejection_reason, q.requested_at,
	q.updated_at FROM access_requests q JOIN accounts a ON a.name = q.account`;

/** Sets a repository's gated mode (null: not gated). False when the repository is gone. */
export async function setGated(tx: Queryable, repo: RepoKey, gated: GatedMode | null): Promise<boolean> {
	const result = await tx.query(
		"UPDATE repos SET gated = $3, updated_at = now() WHERE type = $1 AND id = $2",
		[repo.type, repo.id, gated],
	);
	return result.rowCount > 0;
}

/** One user's request to a repository, or undefined. */
export async function findRequest(
	db: Queryable,
	repo: RepoKey,
	account: string,
): Promise<AccessRequestRow | undefined> {
	const result = await db.query<RawRow>(
		`${SELECT} WHERE q.repo_type = $1 AND q.repo_id = $2 AND q.account = $3`,
		[repo.type, repo.id, account],
	);
	const row = result.rows[0];
	return row ? rowOf(row) : undefined;
}

/** Whether the user's request to the repository was accepted (one indexed row: every file download asks). */
export async function isAccepted(db: Queryable, repo: RepoKey, account: string): Promise<boolean> {
	const result = await db.query<{ ok: number }>(
		`SELECT 1 AS ok FROM access_requests
		WHERE repo_type = $1 AND repo_id = $2 AND account = $3 AND status = 'accepted'`,
		[repo.type, repo.id, account],
	);
	return result.rows.length > 0;
}

/** A page of requests in one status, oldest first, after the account `after` when paging. */
export async function listRequests(
	db: Queryable,
	repo: RepoKey,
	status: AccessStatus,
	page: { limit: number; after?: { requestedAt: string; account: string } | undefined },
): Promise<AccessRequestRow[]> {
	const params: unknown[] = [repo.type, repo.id, status, page.limit];
	let after = "";
	if (page.after) {
		params.push(page.after.requestedAt, page.after.account);
		after = " AND (q.requested_at, q.account) > ($5::timestamptz, $6::text)";
	}
	const result = await db.query<RawRow>(
		`${SELECT} WHERE q.repo_type = $1 AND q.repo_id = $2 AND q.status = $3${after}
		ORDER BY q.requested_at, q.account LIMIT $4`,
		params,
	);
	return result.rows.map(rowOf);
}

/** Creates or replaces the user's request (its time is kept when it existed). */
export async function saveRequest(
	tx: Queryable,
	repo: RepoKey,
	account: string,
	request: { status: AccessStatus; fields?: Record<string, unknown> | null; rejectionReason?: string | null },
): Promise<void> {
	await tx.query(
		`INSERT INTO access_requests (repo_type, repo_id, account, status, fields, rejection_reason)
		VALUES ($1, $2, $3, $4, $5::jsonb, $6)
		ON CONFLICT (repo_type, repo_id, account) DO UPDATE SET status = EXCLUDED.status,
			fields = COALESCE(EXCLUDED.fields, access_requests.fields),
			rejection_reason = EXCLUDED.rejection_reason, updated_at = date_trunc('milliseconds', now())`,
		[
			repo.type,
			repo.id,
			account,
			request.status,
			request.fields == null ? null : JSON.stringify(request.fields),
			request.rejectionReason ?? null,
		],
	);
}

/** The card's front matter as stored (the request form's fields are read from it), or undefined. */
export async function cardDataOf(db: Queryable, repo: RepoKey): Promise<Record<string, unknown> | undefined> {
	const result = await db.query<{ card_data: Record<string, unknown> | string | null }>(
		"SELECT card_data FROM repos WHERE type = $1 AND id = $2",
		[repo.type, repo.id],
	);
	const value = result.rows[0]?.card_data;
	if (value == null) return undefined;
	return typeof value === "string" ? (JSON.parse(value) as Record<string, unknown>) : value;
}
