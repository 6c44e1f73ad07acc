import { getMeta, setMeta } from "../db/meta.js";
import type { Queryable } from "../db/types.js";
import type { RepoType } from "../repo-identity.js";

/**
 * Download counts in the database (migration 5): one row per repository and UTC day in `download_days`,
 * rolled up into `repos.downloads_recent` (the last `DOWNLOAD_WINDOW_DAYS` days) and
 * `repos.downloads_counted` (ever), which model info, listings and the downloads sort read.
 */

/** The public hub's `downloads` covers the last 30 days (huggingface_hub: "downloads over the last 30 days"). */
export const DOWNLOAD_WINDOW_DAYS = 30;

/** Downloads of one repository on one UTC day (`YYYY-MM-DD`), counted by one hub process. */
export interface DownloadIncrement {
	type: RepoType;
	id: string;
	day: string;
	count: number;
	/** Of a mirrored repository (mirror mode): kept in mirror_download_days (migration 27). */
	mirrored?: boolean;
}

/**
 * Serialises flushes and the daily roll of every hub process on one database (an arbitrary constant):
 * the roll recomputes sums that a concurrent flush would otherwise add to unseen.
 */
const DOWNLOADS_LOCK = 7_261_950_435;
/** The last UTC day the 30-day rollups are computed for. */
const WINDOW_END_KEY = "downloads_window_end";

/**
 * Moves the 30-day window to end on `today` (when it ends earlier): the repositories with downloads on
 * a day that left it get their recent count summed again from their days. Returns the day the window
 * ends on (never earlier than before: a process whose clock lags does not move it back). Until the
 * first download there is nothing to roll, and nothing is written.
 */
async function rollWindow(tx: Queryable, today: string, counting: boolean): Promise<string> {
	const end = await getMeta(tx, WINDOW_END_KEY);
	if ((end !== undefined && end >= today) || (end === undefined && !counting)) return end ?? today;
	if (end !== undefined) {
		await tx.query(
			`UPDATE repos m SET downloads_recent = COALESCE((SELECT sum(d.count) FROM download_days d
				WHERE d.repo_type = m.type AND d.repo_id = m.id AND d.day > $2::date - $3::int), 0)
			WHERE (m.type, m.id) IN (SELECT DISTINCT repo_type, repo_id FROM download_days
				WHERE day > $1::date - $3::int AND day <= $2::date - $3::int)`,
			[end, today, DOWNLOAD_WINDOW_DAYS],
		);
	}
	await setMeta(tx, WINDOW_END_KEY, today);
	return today;
}

/**
 * Adds one process's increments (inside the caller's transaction) and rolls the window to `today`
 * first. Additive, so several processes flushing their own increments neither lose nor double any.
 * Increments of repositories deleted since are dropped. Returns how many downloads were stored.
 */
export async function addDownloads(
	tx: Queryable,
	increments: readonly DownloadIncrement[],
	today: string,
): Promise<number> {
	await tx.query("SELECT pg_advisory_xact_lock($1)", [DOWNLOADS_LOCK]);
	const end = await rollWindow(tx, today, increments.length > 0);
	if (increments.length === 0) return 0;
	const result = await tx.query<{ total: number | string }>(
		`WITH kept AS (
			SELECT m.type, m.id, r.day::date AS day, sum(r.count)::bigint AS count
			FROM jsonb_to_recordset($1::jsonb) AS r(type text, id text, day text, count bigint)
			JOIN repos m ON m.type = r.type AND m.id = r.id
			GROUP BY m.type, m.id, r.day
		), days AS (
			INSERT INTO download_days (repo_type, repo_id, day, count)
			SELECT type, id, day, count FROM kept
			ON CONFLICT (repo_type, repo_id, day) DO UPDATE SET count = download_days.count + EXCLUDED.count
		), counted AS (
			UPDATE repos m SET downloads_recent = m.downloads_recent + t.recent,
				downloads_counted = m.downloads_counted + t.total
			FROM (SELECT type, id, COALESCE(sum(count) FILTER (WHERE day > $2::date - $3::int), 0) AS recent,
				sum(count) AS total FROM kept GROUP BY type, id) t
			WHERE m.type = t.type AND m.id = t.id
			RETURNING t.total
		)
		SELECT COALESCE(sum(total), 0) AS total FROM counted`,
		[JSON.stringify(increments), end, DOWNLOAD_WINDOW_DAYS],
	);
	return Number(result.rows[0]?.total ?? 0);
}

/**
 * Adds downloads of mirrored repositories (mirror mode; migration 27), keyed as mirror mode keys them
 * (id lowercased). Returns how many were stored.
 */
export async function addMirrorDownloads(
	tx: Queryable,
	increments: readonly DownloadIncrement[],
): Promise<number> {
	if (increments.length === 0) return 0;
	await tx.query(
		`INSERT INTO mirror_download_days (repo_type, repo_id, day, count)
		SELECT r.type, lower(r.id), r.day::date, sum(r.count)::bigint
		FROM jsonb_to_recordset($1::jsonb) AS r(type text, id text, day text, count bigint)
		GROUP BY r.type, lower(r.id), r.day
		ON CONFLICT (repo_type, repo_id, day) DO UPDATE SET count = mirror_download_days.count + EXCLUDED.count`,
		[JSON.stringify(increments)],
	);
	return increments.reduce((sum, increment) => sum + increment.count, 0);
}

/** A mirrored repository's downloads counted here: the 30 days up to `today` (UTC), and ever. */
export async function mirrorDownloads(
	db: Queryable,
	repo: { type: RepoType; id: string },
	today: string,
): Promise<{ recent: number; allTime: number }> {
	const result = await db.query<{ recent: number | string; all_time: number | string }>(
		`SELECT COALESCE(sum(count) FILTER (WHERE day > $3::date - $4::int), 0) AS recent,
			COALESCE(sum(count), 0) AS all_time
		FROM mirror_download_days WHERE repo_type = $1 AND repo_id = $2`,
		[repo.type, repo.id.toLowerCase(), today, DOWNLOAD_WINDOW_DAYS],
	);
	const row = result.rows[0];
	return { recent: Number(row?.recent ?? 0), allTime: Number(row?.all_time ?? 0) };
}
