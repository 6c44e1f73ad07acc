import type { Queryable } from "../db/types.js";

/**
 * Webhooks and their deliveries (tables `webhooks`, `webhook_deliveries`). A delivery is stored before
 * it is attempted, so it survives a restart of the hub (and is then sent by whichever hub process
 * claims it first). SQL only: services/webhooks.ts decides who sees what and what is delivered.
 */

export interface WatchedItem {
	type: "user" | "org" | "model" | "dataset";
	name: string;
}

export interface WebhookRow {
	id: string;
	owner: string;
	url: string;
	secret: string | null;
	domains: string[];
	watched: WatchedItem[];
	disabled: boolean;
	createdAt: string;
}

interface RawWebhook {
	id: string;
	owner: string;
	url: string;
	secret: string | null;
	domains: string[];
	watched: WatchedItem[] | string;
	disabled: boolean;
	created_at: Date | string;
}

function iso(value: Date | string): string {
	return (value instanceof Date ? value : new Date(value)).toISOString();
}

function webhookOf(row: RawWebhook): WebhookRow {
	return {
		id: row.id,
		owner: row.owner,
		url: row.url,
		secret: row.secret,
		domains: row.domains,
		watched: typeof row.watched === "string" ? (JSON.parse(row.watched) as WatchedItem[]) : row.watched,
		disabled: row.disabled,
		createdAt: iso(row.created_at),
	};
}

/** The keys an event's repository matches watched items by: `user:ns`, `org:ns`, `model:ns/name`… */
export function watchKey(item: WatchedItem): string {
	return `${item.type === "org" ? "user" : item.type}:${item.name.toLowerCase()}`;
}

const COLUMNS = "id, owner, url, secret, domains, watched, disabled, created_at";

export async function insertWebhook(
	tx: Queryable,
	row: Omit<WebhookRow, "createdAt" | "disabled">,
): Promise<void> {
	await tx.query(
		`INSERT INTO webhooks (id, owner, url, secret, domains, watched, watch_keys)
		VALUES ($1, $2, $3, $4, $5::text[], $6::jsonb, $7::text[])`,
		[
			row.id,
			row.owner,
			row.url,
			row.secret,
			row.domains,
			JSON.stringify(row.watched),
			row.watched.map(watchKey),
		],
	);
}

export async function updateWebhook(
	tx: Queryable,
	id: string,
	change: {
		url?: string;
		secret?: string | null;
		domains?: string[];
		watched?: WatchedItem[];
		disabled?: boolean;
	},
): Promise<void> {
	const sets: string[] = [];
	const params: unknown[] = [id];
	const set = (column: string, value: unknown, cast = ""): void => {
		params.push(value);
		sets.push(`${column} = $${params.length}${cast}`);
	};
	if (change.url !== undefined) set("url", change.url);
	if (change.secret !== undefined) set("secret", change.secret);
	if (change.domains !== undefined) set("domains", change.domains, "::text[]");
	if (change.watched !== undefined) {
		set("watched", JSON.stringify(change.watched), "::jsonb");
		set("watch_keys", change.watched.map(watchKey), "::text[]");
	}
	if (change.disabled !== undefined) set("disabled", change.disabled);
	if (sets.length === 0) return;
	await tx.query(`UPDATE webhooks SET ${sets.join(", ")}, updated_at = now() WHERE id = $1`, params);
}

/** Webhooks watching a repository that moved watch it at its new id (the public hub keeps them). */
export async function renameWatchedRepo(
	tx: Queryable,
	type: "model" | "dataset",
	fromId: string,
	toId: string,
): Promise<void> {
	const from: WatchedItem = { type, name: fromId };
	const rows = await tx.query<RawWebhook>(
		`SELECT ${COLUMNS} FROM webhooks WHERE watch_keys && $1::text[] FOR UPDATE`,
		[[watchKey(from)]],
	);
	for (const row of rows.rows.map(webhookOf)) {
		const watched = row.watched.map((item) =>
			watchKey(item) === watchKey(from) ? { type, name: toId } : item,
		);
		await updateWebhook(tx, row.id, { watched });
	}
}

export async function deleteWebhook(tx: Queryable, id: string): Promise<boolean> {
	return (await tx.query("DELETE FROM webhooks WHERE id = $1", [id])).rowCount > 0;
}

export async function getWebhook(db: Queryable, id: string): Promise<WebhookRow | undefined> {
	const row = (await db.query<RawWebhook>(`SELECT ${COLUMNS} FROM webhooks WHERE id = $1`, [id])).rows[0];
	return row ? webhookOf(row) : undefined;
}

/** An account's webhooks (every webhook when `owner` is undefined: the hub admin), oldest first. */
export async function listWebhooks(
	db: Queryable,
	owner: string | undefined,
	limit: number,
): Promise<WebhookRow[]> {
	const result = await db.query<RawWebhook>(
		`SELECT ${COLUMNS} FROM webhooks${owner === undefined ? "" : " WHERE owner = $2"} ORDER BY created_at, id LIMIT $1`,
		owner === undefined ? [limit] : [limit, owner],
	);
	return result.rows.map(webhookOf);
}

export async function countWebhooks(db: Queryable, owner: string): Promise<number> {
	const result = await db.query<{ n: number | string }>(
		"SELECT count(*) AS n FROM webhooks WHERE owner = $1",
		[owner],
	);
	return Number(result.rows[0]?.n ?? 0);
}

export type DeliveryStatus = "pending" | "delivered" | "failed" | "dropped";

export interface DeliveryRow {
	id: string;
	webhookId: string;
	event: { action: string; scope: string };
	payload: Record<string, unknown>;
	status: DeliveryStatus;
	attempts: number;
	responseStatus: number | null;
	error: string | null;
	createdAt: string;
	nextAttemptAt: string;
	finishedAt: string | null;
}

interface RawDelivery {
	id: string | number;
	webhook_id: string;
	payload: Record<string, unknown> | string;
	status: DeliveryStatus;
	attempts: number;
	response_status: number | null;
	error: string | null;
	created_at: Date | string;
	next_attempt_at: Date | string;
	finished_at: Date | string | null;
}

function deliveryOf(row: RawDelivery): DeliveryRow {
	const payload =
		typeof row.payload === "string" ? (JSON.parse(row.payload) as Record<string, unknown>) : row.payload;
	return {
		id: String(row.id),
		webhookId: row.webhook_id,
		event: payload.event as { action: string; scope: string },
		payload,
		status: row.status,
		attempts: Number(row.attempts),
		responseStatus: row.response_status,
		error: row.error,
		createdAt: iso(row.created_at),
		nextAttemptAt: iso(row.next_attempt_at),
		finishedAt: row.finished_at === null ? null : iso(row.finished_at),
	};
}

/** Deliveries waiting to be sent, in all. */
export async function pendingCount(db: Queryable): Promise<number> {
	const result = await db.query<{ n: number | string }>(
		"SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'",
	);
	return Number(result.rows[0]?.n ?? 0);
}

/** Stores deliveries (`pending`, or `dropped` with the reason when the queue is full). */
export async function insertDeliveries(
	tx: Queryable,
	rows: ReadonlyArray<{
		webhookId: string;
		payload: Record<string, unknown>;
		status: "pending" | "dropped";
		error?: string;
	}>,
): Promise<void> {
	if (rows.length === 0) return;
	await tx.query(
		`INSERT INTO webhook_deliveries (webhook_id, payload, status, error, finished_at)
		SELECT w, p, s, e, CASE WHEN s = 'pending' THEN NULL ELSE now() END
		FROM unnest($1::text[], $2::jsonb[], $3::text[], $4::text[]) AS t(w, p, s, e)`,
		[
			rows.map((row) => row.webhookId),
			rows.map((row) => JSON.stringify(row.payload)),
			rows.map((row) => row.status),
			rows.map((row) => row.error ?? null),
		],
	);
}

/** Keeps the newest `keep` finished deliveries of each webhook (pending ones are never removed). */
export async function trimLog(tx: Queryable, webhookIds: readonly string[], keep: number): Promise<void> {
	if (webhookIds.length === 0) return;
	await tx.query(
		`DELETE FROM webhook_deliveries d USING (
			SELECT id FROM (
				SELECT id, row_number() OVER (PARTITION BY webhook_id ORDER BY id DESC) AS n
				FROM webhook_deliveries WHERE webhook_id = ANY($1::text[]) AND status <> 'pending'
			) ranked WHERE n > $2
		) old WHERE d.id = old.id`,
		[webhookIds, keep],
	);
}

/**
 * Claims up to `limit` due deliveries for `claimMs` (another hub process skips them meanwhile; a
 * process that stops mid-delivery leaves its claim to expire, and the delivery is sent again).
 */
export async function claimDue(
	tx: Queryable,
	limit: number,
	claimMs: number,
): Promise<Array<DeliveryRow & { url: string; secret: string | null; disabled: boolean }>> {
	const result = await tx.query<RawDelivery & { url: string; secret: string | null; disabled: boolean }>(
		`WITH due AS (
			SELECT id FROM webhook_deliveries
			WHERE status = 'pending' AND next_attempt_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
			ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
		), claimed AS (
			UPDATE webhook_deliveries d SET claimed_until = now() + ($2::double precision * interval '1 millisecond'),
				attempts = d.attempts + 1
			FROM due WHERE d.id = due.id
			RETURNING d.*
		)
		SELECT c.*, w.url, w.secret, w.disabled FROM claimed c JOIN webhooks w ON w.id = c.webhook_id`,
		[limit, claimMs],
	);
	return result.rows.map((row) => ({
		...deliveryOf(row),
		url: row.url,
		secret: row.secret,
		disabled: row.disabled,
	}));
}

/** Records an attempt's outcome: finished (`delivered`, `failed`, `dropped`), or retried at `retryInMs`. */
export async function recordAttempt(
	db: Queryable,
	id: string,
	outcome: {
		status: DeliveryStatus;
		responseStatus?: number | undefined;
		error?: string | undefined;
		retryInMs?: number;
	},
): Promise<void> {
	await db.query(
		`UPDATE webhook_deliveries SET status = $2, response_status = $3, error = $4, claimed_until = NULL,
			next_attempt_at = CASE WHEN $2 = 'pending' THEN now() + ($5::double precision * interval '1 millisecond')
				ELSE next_attempt_at END,
			finished_at = CASE WHEN $2 = 'pending' THEN NULL ELSE now() END
		WHERE id = $1`,
		[id, outcome.status, outcome.responseStatus ?? null, outcome.error ?? null, outcome.retryInMs ?? 0],
	);
}

/** Milliseconds until the next pending delivery is due (0 when one is), or undefined when none waits. */
export async function nextDueInMs(db: Queryable): Promise<number | undefined> {
	const result = await db.query<{ wait: number | string | null }>(
		`SELECT GREATEST(0, EXTRACT(EPOCH FROM (min(GREATEST(next_attempt_at, COALESCE(claimed_until, next_attempt_at))) - now())) * 1000) AS wait
		FROM webhook_deliveries WHERE status = 'pending'`,
	);
	const wait = result.rows[0]?.wait;
	return wait === null || wait === undefined ? undefined : Math.ceil(Number(wait));
}

/** A webhook's delivery log, newest first. */
export async function deliveryLog(db: Queryable, webhookId: string, limit: number): Promise<DeliveryRow[]> {
	const result = await db.query<RawDelivery>(
		`SELECT id, webhook_id, payload, status, attempts, response_status, error, created_at, next_attempt_at, finished_at
		FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2`,
		[webhookId, limit],
	);
	return result.rows.map(deliveryOf);
}

/** The object ids of the named accounts that exist, by lower-cased name (one query). */
export async function accountObjectIds(
	db: Queryable,
	names: readonly string[],
): Promise<Map<string, string>> {
	const ids = new Map<string, string>();
	if (names.length === 0) return ids;
	const result = await db.query<{ name: string; object_id: string | null }>(
		"SELECT lower(name) AS name, object_id FROM accounts WHERE lower(name) = ANY($1::text[])",
		[names.map((name) => name.toLowerCase())],
	);
	for (const row of result.rows) if (row.object_id) ids.set(row.name, row.object_id);
	return ids;
}

/** What a payload says of a repository. */
export interface RepoFacts {
	type: "model" | "dataset" | "space";
	id: string;
	objectId: string | null;
	private: boolean;
	namespace: string | null;
	ownerId: string | null;
	headSha: string | null;
}

export async function repoFacts(db: Queryable, type: string, id: string): Promise<RepoFacts | undefined> {
	const result = await db.query<{
		id: string;
		object_id: string | null;
		private: boolean;
		namespace: string | null;
		owner_id: string | null;
		head: string | null;
	}>(
		`SELECT m.id, m.object_id, m.private, m.namespace, a.object_id AS owner_id,
			(SELECT r.commit_id FROM refs r WHERE r.repo_type = m.type AND r.repo_id = m.id AND r.kind = 'branch'
				AND r.name = 'main') AS head
		FROM repos m LEFT JOIN accounts a ON lower(a.name) = lower(m.namespace)
		WHERE m.type = $1 AND m.id = $2`,
		[type, id],
	);
	const row = result.rows[0];
	if (!row) return undefined;
	return {
		type: type as RepoFacts["type"],
		id: row.id,
		objectId: row.object_id,
		private: row.private,
		namespace: row.namespace,
		ownerId: row.owner_id,
		headSha: row.head,
	};
}

/**
 * The enabled webhooks watching any of `keys` whose owner may read the event: with `membersOf` set (a
 * private repository, or one that no longer exists), only owners holding a role in that namespace —
 * decided in the query, so nothing about a private repository reaches anyone else's webhook.
 */
export async function webhooksFor(
	db: Queryable,
	keys: readonly string[],
	membersOf: string | null | undefined,
): Promise<WebhookRow[]> {
	const members =
		membersOf === undefined
			? ""
			: ` AND (lower(owner) = lower($2) OR EXISTS (SELECT 1 FROM memberships ms
				WHERE ms.member = webhooks.owner AND lower(ms.org) = lower($2)))`;
	const result = await db.query<RawWebhook>(
		`SELECT ${COLUMNS} FROM webhooks WHERE NOT disabled AND watch_keys && $1::text[]${members} ORDER BY id LIMIT 10000`,
		membersOf === undefined ? [keys] : [keys, membersOf ?? ""],
	);
	return result.rows.map(webhookOf);
}

/** Whether any webhook is enabled, and whether any delivery waits: what a hub process checks at start. */
export async function webhookState(db: Queryable): Promise<{ watching: boolean; pending: boolean }> {
	const result = await db.query<{ watching: boolean; pending: boolean }>(
		`SELECT EXISTS (SELECT 1 FROM webhooks WHERE NOT disabled) AS watching,
			EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'pending') AS pending`,
	);
	const row = result.rows[0];
	return { watching: row?.watching === true, pending: row?.pending === true };
}
