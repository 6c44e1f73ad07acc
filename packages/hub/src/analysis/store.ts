import type { Queryable } from "../db/types.js";
import type { RepoKey } from "../repo-identity.js";
import {
	effectiveColumns,
	effectiveDatasetColumns,
	recordOrNull,
	type DatasetDerivation,
	type ImportedMetadata,
	type StoredDerivation,
} from "./effective.js";

/** Where a repository's analysis stands: its main commit, and the commit last analysed. */
export interface AnalysisState {
	mainCommit: string | null;
	analysedCommit: string | null;
	cardData: Record<string, unknown> | null;
}

export async function analysisState(db: Queryable, repo: RepoKey): Promise<AnalysisState | undefined> {
	const result = await db.query<{ main: string | null; analysed_commit: string | null; card_data: unknown }>(
		`SELECT (SELECT r.commit_id FROM refs r WHERE r.repo_type = m.type AND r.repo_id = m.id AND r.kind = 'branch'
			AND r.name = 'main') AS main, a.analysed_commit, m.card_data
		FROM repos m LEFT JOIN repo_analysis a ON a.repo_type = m.type AND a.repo_id = m.id
		WHERE m.type = $1 AND m.id = $2`,
		[repo.type, repo.id],
	);
	const row = result.rows[0];
	if (!row) return undefined;
	return {
		mainCommit: row.main,
		analysedCommit: row.analysed_commit,
		cardData: recordOrNull(row.card_data),
	};
}

/**
 * Writes the effective metadata columns from the card, the derivation and the imported record, the
 * only place they are written from once a repository has any of these (inside the caller's transaction).
 */
export async function applyEffectiveMetadata(tx: Queryable, repo: RepoKey): Promise<void> {
	const result = await tx.query<{ card_data: unknown; derived: unknown; imported: unknown }>(
		// NO KEY UPDATE, the lock an UPDATE of these columns takes anyway: a stronger FOR UPDATE would
		// wait on the key-share lock a concurrent commit's INSERT INTO commits holds, while that commit
		// waits for this row (a deadlock PostgreSQL resolves by failing one of them).
		`SELECT m.card_data, a.derived, a.imported
		FROM repos m LEFT JOIN repo_analysis a ON a.repo_type = m.type AND a.repo_id = m.id
		WHERE m.type = $1 AND m.id = $2 FOR NO KEY UPDATE OF m`,
		[repo.type, repo.id],
	);
	const row = result.rows[0];
	if (!row) return;
	const columns =
		repo.type === "dataset"
			? effectiveDatasetColumns(recordOrNull(row.card_data), recordOrNull<DatasetDerivation>(row.derived))
			: effectiveColumns(
					recordOrNull(row.card_data),
					recordOrNull<StoredDerivation>(row.derived),
					recordOrNull<ImportedMetadata>(row.imported),
				);
	await tx.query(
		`UPDATE repos SET pipeline_tag = $3, library_name = $4, tags = $5::text[], config = $6::jsonb,
			widget_data = $7::jsonb, transformers_info = $8::jsonb, safetensors = $9::jsonb, gguf = $10::jsonb,
			mask_token = $11
		WHERE type = $1 AND id = $2`,
		[
			repo.type,
			repo.id,
			columns.pipeline_tag,
			columns.library_name,
			columns.tags,
			json(columns.config),
			json(columns.widget_data),
			json(columns.transformers_info),
			json(columns.safetensors),
			json(columns.gguf),
			columns.mask_token,
		],
	);
}

function json(value: unknown): string | null {
	return value === null || value === undefined ? null : JSON.stringify(value);
}

/**
 * Stores a derivation as the analysis of `commit` and applies it; false (nothing stored) when the
 * repository was deleted or renamed while it was analysed. The key-share lock holds the repository row
 * until the transaction ends, so a delete cannot slip in between the check and the insert (whose
 * foreign key would fail).
 */
export async function saveDerivation(
	tx: Queryable,
	repo: RepoKey,
	commit: string,
	derived: StoredDerivation | DatasetDerivation,
): Promise<boolean> {
	const present = await tx.query(`SELECT 1 FROM repos WHERE type = $1 AND id = $2 FOR KEY SHARE`, [
		repo.type,
		repo.id,
	]);
	if (present.rows.length === 0) return false;
	await tx.query(
		`INSERT INTO repo_analysis (repo_type, repo_id, derived, analysed_commit) VALUES ($1, $2, $3::jsonb, $4)
		ON CONFLICT (repo_type, repo_id) DO UPDATE SET derived = EXCLUDED.derived, analysed_commit = EXCLUDED.analysed_commit`,
		[repo.type, repo.id, JSON.stringify(derived), commit],
	);
	await forgetDue(tx, repo, commit);
	await applyEffectiveMetadata(tx, repo);
	return true;
}

/**
 * Takes a repository off the list of those behind (migration 15) when `commit` is the main commit it
 * was listed for. A commit racing this one rewrites the row's commit first (it waits on this delete, or
 * this delete then no longer matches), so a main that moved stays listed.
 */
async function forgetDue(tx: Queryable, repo: RepoKey, commit: string): Promise<void> {
	await tx.query("DELETE FROM analysis_due WHERE repo_type = $1 AND repo_id = $2 AND commit_id = $3", [
		repo.type,
		repo.id,
		commit,
	]);
}

/**
 * Records the analysis of `from` as that of `to` (whose analysed files are the same), keeping the
 * derivation and the columns it gave. False (nothing done) when another analysis was saved since, or
 * when `from` has no derivation (an import's model marked analysed: its record is the truth until a
 * commit is analysed in full).
 */
export async function carryAnalysisForward(
	tx: Queryable,
	repo: RepoKey,
	from: string,
	to: string,
): Promise<boolean> {
	const result = await tx.query(
		`UPDATE repo_analysis SET analysed_commit = $4
		WHERE repo_type = $1 AND repo_id = $2 AND analysed_commit = $3 AND derived IS NOT NULL`,
		[repo.type, repo.id, from, to],
	);
	if (result.rowCount === 0) return false;
	await forgetDue(tx, repo, to);
	return true;
}

/**
 * Repositories whose `main` moved past their last analysis, up to `limit`, after `after` (keyset on
 * (type, id)): what a hub catches up on at start. Read from the list of repositories behind
 * (analysis_due, kept by triggers on refs: migration 15), each checked against its main and its
 * analysis: the rows read are those listed, not every repository's (issue 21).
 */
export async function pendingAnalyses(
	db: Queryable,
	limit: number,
	after?: RepoKey,
	only?: { type: RepoKey["type"]; ids: readonly string[] },
): Promise<RepoKey[]> {
	const params: unknown[] = [limit];
	const where: string[] = [];
	if (after) {
		params.push(after.type, after.id);
		where.push(`(d.repo_type, d.repo_id) > ($${params.length - 1}, $${params.length})`);
	}
	if (only) {
		params.push(only.type, only.ids);
		where.push(`d.repo_type = $${params.length - 1} AND d.repo_id = ANY($${params.length}::text[])`);
	}
	// Each listed row looks its main and its analysis up by key (sub-selects, which the planner keeps
	// per row), whatever the sizes of the tables.
	const result = await db.query<{ type: RepoKey["type"]; id: string }>(
		`SELECT type, id FROM (
			SELECT d.repo_type AS type, d.repo_id AS id,
				(SELECT r.commit_id FROM refs r WHERE r.repo_type = d.repo_type AND r.repo_id = d.repo_id
					AND r.kind = 'branch' AND r.name = 'main') AS main,
				(SELECT a.analysed_commit FROM repo_analysis a WHERE a.repo_type = d.repo_type AND a.repo_id = d.repo_id)
					AS analysed
			FROM analysis_due d${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""}
			ORDER BY d.repo_type, d.repo_id
		) listed WHERE main IS NOT NULL AND analysed IS DISTINCT FROM main LIMIT $1`,
		params,
	);
	return result.rows.map((row) => ({ type: row.type, id: row.id }));
}

/** Marks the models of an import that brought no files as analysed at their main commit (their record is the truth). */
export async function markAnalysedAtMain(
	tx: Queryable,
	type: RepoKey["type"],
	ids: readonly string[],
): Promise<void> {
	if (ids.length === 0) return;
	// Their main branches were just listed as behind (migration 15's trigger): the same statement takes
	// them off the list.
	await tx.query(
		`WITH marked AS (
			INSERT INTO repo_analysis (repo_type, repo_id, analysed_commit)
			SELECT r.repo_type, r.repo_id, r.commit_id FROM refs r
			WHERE r.repo_type = $1 AND r.repo_id = ANY($2::text[]) AND r.kind = 'branch' AND r.name = 'main'
			ON CONFLICT (repo_type, repo_id) DO UPDATE SET analysed_commit = EXCLUDED.analysed_commit, derived = NULL
			RETURNING repo_type, repo_id, analysed_commit
		)
		DELETE FROM analysis_due d USING marked
		WHERE d.repo_type = marked.repo_type AND d.repo_id = marked.repo_id AND d.commit_id = marked.analysed_commit`,
		[type, ids],
	);
}
