import type { Queryable } from "../db/types.js";
import type { RepoKey } from "../repo-identity.js";
import type { AuditAction } from "../vocabulary.js";

/**
 * The audit log: one row per write (accounts, tokens, repositories, commits, refs, uploads), saying
 * who did it (the user, `@admin` for the admin token, `@cli` for the command line), with which token
 * (its id, never its secret), from which address, and what changed. Rows are written in the same
 * transaction as the change they describe.
 */
export interface AuditEntry {
	actor: string;
	tokenId?: string | undefined;
	action: AuditAction;
	/** The repository the change is about: its type and id are both recorded. */
	repo?: RepoKey | undefined;
	ip?: string | undefined;
	details?: Record<string, unknown>;
}

/** An entry as the admin API and the CLI show it (the repository by its id, as before types). */
export interface StoredAuditEntry extends Required<Omit<AuditEntry, "tokenId" | "repo" | "ip">> {
	id: number;
	at: string;
	tokenId: string | null;
	repo: string | null;
	ip: string | null;
}

export async function recordAudit(tx: Queryable, entries: AuditEntry | readonly AuditEntry[]): Promise<void> {
	const list = Array.isArray(entries) ? (entries as readonly AuditEntry[]) : [entries as AuditEntry];
	if (list.length === 0) return;
	await tx.query(
		`INSERT INTO audit_log (actor, token_id, action, repo_type, repo, ip, details)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[])`,
		[
			list.map((e) => e.actor),
			list.map((e) => e.tokenId ?? null),
			list.map((e) => e.action),
			list.map((e) => e.repo?.type ?? null),
			list.map((e) => e.repo?.id ?? null),
			list.map((e) => e.ip ?? null),
			list.map((e) => JSON.stringify(e.details ?? {})),
		],
	);
}

export interface AuditQuery {
	limit: number;
	/** Entries older than this id (the `next` of the previous page). */
	before?: number;
	/** Entries about repositories with this id (of any type, matched case-insensitively). */
	repo?: string;
	actor?: string;
	action?: string;
}

interface AuditRow {
	id: number | string;
	at: Date | string;
	actor: string;
	token_id: string | null;
	action: AuditAction;
	repo: string | null;
	ip: string | null;
	details: Record<string, unknown> | string;
}

/** Newest first, a page at a time. */
export async function listAudit(
	db: Queryable,
	query: AuditQuery,
): Promise<{ entries: StoredAuditEntry[]; next?: number }> {
	const where: string[] = [];
	const params: unknown[] = [];
	const param = (value: unknown) => {
		params.push(value);
		return `$${params.length}`;
	};
	if (query.before !== undefined) where.push(`id < ${param(query.before)}`);
	if (query.repo !== undefined) where.push(`lower(repo) = lower(${param(query.repo)})`);
	if (query.actor !== undefined) where.push(`lower(actor) = lower(${param(query.actor)})`);
	if (query.action !== undefined) where.push(`action = ${param(query.action)}`);
	const result = await db.query<AuditRow>(
		`SELECT id, at, actor, token_id, action, repo, ip, details FROM audit_log
		${where.length ? `WHERE ${where.join(" AND ")}` : ""}
		ORDER BY id DESC LIMIT ${param(query.limit + 1)}`,
		params,
	);
	const entries = result.rows.slice(0, query.limit).map((row) => ({
		id: Number(row.id),
		at: (row.at instanceof Date ? row.at : new Date(row.at)).toISOString(),
		actor: row.actor,
		tokenId: row.token_id,
		action: row.action,
		repo: row.repo,
		ip: row.ip,
		details:
			typeof row.details === "string" ? (JSON.parse(row.details) as Record<string, unknown>) : row.details,
	}));
	const last = entries[entries.length - 1];
	return result.rows.length > query.limit && last ? { entries, next: last.id } : { entries };
}
