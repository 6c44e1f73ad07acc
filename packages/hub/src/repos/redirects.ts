import type { Queryable } from "../db/types.js";
import type { RepoId, RepoKey, RepoType } from "../repo-identity.js";

/**
 * Moves a repository to a new id inside the caller's transaction: the row's id, namespace and name
 * change, and every row that hangs off it follows by cascade (refs, commits, discussions and their pull
 * requests' refs, likes, access requests, download days, analysis; files are referenced, not copied).
 * The former id then redirects to the new one (the migration's trigger has already ended a redirect of
 * the new id). "missing" when the source is gone; a target id taken in any letter case throws the
 * unique violation (PG_UNIQUE_VIOLATION).
 */
export async function moveRepo(
	tx: Queryable,
	from: RepoKey,
	to: Pick<RepoId, "id" | "namespace" | "name">,
): Promise<"moved" | "missing"> {
	// A target taken meanwhile (a concurrent move or create) fails the unique index: the caller's
	// transaction aborts and the service answers 409.
	const updated = (
		await tx.query(
			"UPDATE repos SET id = $3, namespace = $4, name = $5, updated_at = now() WHERE type = $1 AND id = $2",
			[from.type, from.id, to.id, to.namespace, to.name],
		)
	).rowCount;
	if (updated === 0) return "missing";
	// A change of letter case only: the former spelling finds the repository anyway.
	if (from.id.toLowerCase() !== to.id.toLowerCase()) {
		await tx.query(
			`INSERT INTO repo_redirects (repo_type, from_id, repo_id) VALUES ($1, $2, $3)
			ON CONFLICT (repo_type, lower(from_id)) DO UPDATE SET from_id = EXCLUDED.from_id, repo_id = EXCLUDED.repo_id`,
			[from.type, from.id, to.id],
		);
	}
	// The audit log's entries about the repository follow it (the move's own entry names the former id).
	await tx.query("UPDATE audit_log SET repo = $3 WHERE repo_type = $1 AND repo = $2", [
		from.type,
		from.id,
		to.id,
	]);
	return "moved";
}

/**
 * The id a former id of a repository redirects to now (the longest of `candidates` that has one, matched
 * case-insensitively), with the candidate it matched; undefined when none has one.
 */
export async function findRedirect(
	db: Queryable,
	type: RepoType,
	candidates: readonly string[],
): Promise<{ from: string; to: string } | undefined> {
	if (candidates.length === 0) return undefined;
	const result = await db.query<{ from_id: string; repo_id: string }>(
		`SELECT from_id, repo_id FROM repo_redirects
		WHERE repo_type = $1 AND lower(from_id) = ANY($2::text[])`,
		[type, candidates.map((id) => id.toLowerCase())],
	);
	const rows = [...result.rows].sort((a, b) => b.from_id.length - a.from_id.length);
	const row = rows[0];
	if (!row) return undefined;
	const from = candidates.find((id) => id.toLowerCase() === row.from_id.toLowerCase()) ?? row.from_id;
	return { from, to: row.repo_id };
}
