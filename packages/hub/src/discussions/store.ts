import type { Queryable } from "../db/types.js";
import { newObjectId } from "../ids.js";
import type { RepoKey } from "../repo-identity.js";

/**
 * Discussions and pull requests of a repository (migration 16): the rows, and the events that happened
 * in them. The public hub's JSON is built from these by services/discussions.ts.
 */

export type DiscussionStatus = "open" | "closed" | "merged" | "draft";
export type DiscussionEventType = "comment" | "status-change" | "commit" | "title-change";

export interface DiscussionRow {
	num: number;
	title: string;
	author: string;
	isPullRequest: boolean;
	status: DiscussionStatus;
	/** Pull requests: the branch they merge into. */
	targetBranch: string | null;
	/** Pull requests: the target's commit their ref started from (every commit of the ref descends from it). */
	baseCommit: string | null;
	mergeCommit: string | null;
	createdAt: string;
}

/** A comment's text now and before (newest edit last), as stored in its event's data. */
export interface CommentData {
	raw: string;
	hidden: boolean;
	/** Who hid it (the comment's text is dropped then, as on the public hub: hiding cannot be undone). */
	hiddenBy?: string;
	updatedAt: string;
	/** Who wrote the latest text (the author, or whoever edited it). */
	editor: string;
	/** Earlier texts, oldest first. */
	history: Array<{ raw: string; updatedAt: string; editor: string }>;
}

export type EventData =
	| { type: "comment"; data: CommentData }
	| { type: "status-change"; data: { status: DiscussionStatus } }
	| { type: "commit"; data: { oid: string; subject: string } }
	| { type: "title-change"; data: { from: string; to: string } };

export type DiscussionEventRow = EventData & { id: string; author: string; createdAt: string };

/** The name of a pull request's ref. */
export function pullRequestRef(num: number): string {
	return `refs/pr/${num}`;
}

/** The number of a pull request ref's name (`refs/pr/12` → 12), or undefined for another name. */
export function pullRequestNumber(ref: string): number | undefined {
	const match = /^refs\/pr\/([1-9][0-9]{0,8})$/.exec(ref);
	return match ? Number(match[1]) : undefined;
}

function isoOf(value: Date | string): string {
	return new Date(value).toISOString();
}

interface Row {
	num: number;
	title: string;
	author: string;
	is_pull_request: boolean;
	status: DiscussionStatus;
	target_branch: string | null;
	base_commit: string | null;
	merge_commit: string | null;
	created_at: Date | string;
}

const COLUMNS =
	"num, title, author, is_pull_request, status, target_branch, base_commit, merge_commit, created_at";

function discussionOf(row: Row): DiscussionRow {
	return {
		num: Number(row.num),
		title: row.title,
		author: row.author,
		isPullRequest: row.is_pull_request,
		status: row.status,
		targetBranch: row.target_branch,
		baseCommit: row.base_commit,
		mergeCommit: row.merge_commit,
		createdAt: isoOf(row.created_at),
	};
}

/**
 * The next number of a repository's discussions and how many it has, with the repository's row locked
 * until the transaction ends (two new discussions of one repository take their numbers in turn).
 * Undefined when the repository no longer exists.
 */
export async function lockNextNumber(
	tx: Queryable,
	repo: RepoKey,
): Promise<{ next: number; count: number } | undefined> {
	const locked = await tx.query("SELECT 1 FROM repos WHERE type = $1 AND id = $2 FOR NO KEY UPDATE", [
		repo.type,
		repo.id,
	]);
	if (locked.rows.length === 0) return undefined;
	const result = await tx.query<{ top: number | null; count: number | string }>(
		"SELECT max(num) AS top, count(*) AS count FROM discussions WHERE repo_type = $1 AND repo_id = $2",
		[repo.type, repo.id],
	);
	const row = result.rows[0];
	return { next: Number(row?.top ?? 0) + 1, count: Number(row?.count ?? 0) };
}

export async function insertDiscussion(
	tx: Queryable,
	repo: RepoKey,
	row: Omit<DiscussionRow, "mergeCommit" | "createdAt"> & { createdAt: Date },
): Promise<void> {
	await tx.query(
		`INSERT INTO discussions (repo_type, repo_id, num, title, author, is_pull_request, status, target_branch,
			base_commit, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		[
			repo.type,
			repo.id,
			row.num,
			row.title,
			row.author,
			row.isPullRequest,
			row.status,
			row.targetBranch,
			row.baseCommit,
			row.createdAt.toISOString(),
		],
	);
}

/** One discussion; with `lock`, its row is locked until the transaction ends (changes to it queue). */
export async function getDiscussion(
	db: Queryable,
	repo: RepoKey,
	num: number,
	lock = false,
): Promise<DiscussionRow | undefined> {
	const result = await db.query<Row>(
		`SELECT ${COLUMNS} FROM discussions WHERE repo_type = $1 AND repo_id = $2 AND num = $3${lock ? " FOR UPDATE" : ""}`,
		[repo.type, repo.id, num],
	);
	const row = result.rows[0];
	return row ? discussionOf(row) : undefined;
}

export interface DiscussionFilter {
	author?: string | undefined;
	type?: "discussion" | "pull_request" | undefined;
	status?: "open" | "closed" | undefined;
	/** Title words, all of which must occur (case-insensitively). */
	search?: string | undefined;
}

/** A page of a repository's discussions, newest first, and how many match in all. */
export async function listDiscussions(
	db: Queryable,
	repo: RepoKey,
	filter: DiscussionFilter,
	page: { offset: number; limit: number },
): Promise<{ discussions: DiscussionRow[]; count: number }> {
	const where = ["repo_type = $1", "repo_id = $2"];
	const params: unknown[] = [repo.type, repo.id];
	const param = (value: unknown) => {
		params.push(value);
		return `$${params.length}`;
	};
	if (filter.author !== undefined) where.push(`lower(author) = lower(${param(filter.author)})`);
	if (filter.type !== undefined) where.push(`is_pull_request = ${param(filter.type === "pull_request")}`);
	// "open" covers drafts, "closed" merged pull requests, as the public hub's two status filters do.
	if (filter.status === "open") where.push("status IN ('open', 'draft')");
	if (filter.status === "closed") where.push("status IN ('closed', 'merged')");
	for (const word of (filter.search ?? "").split(/\s+/).filter(Boolean)) {
		where.push(`strpos(lower(title), lower(${param(word)})) > 0`);
	}
	const condition = where.join(" AND ");
	const counted = await db.query<{ count: number | string }>(
		`SELECT count(*) AS count FROM discussions WHERE ${condition}`,
		params,
	);
	const rows = await db.query<Row>(
		`SELECT ${COLUMNS} FROM discussions WHERE ${condition} ORDER BY num DESC LIMIT ${param(page.limit)} OFFSET ${param(page.offset)}`,
		params,
	);
	return { discussions: rows.rows.map(discussionOf), count: Number(counted.rows[0]?.count ?? 0) };
}

export async function updateDiscussion(
	tx: Queryable,
	repo: RepoKey,
	num: number,
	change: { title?: string; status?: DiscussionStatus; mergeCommit?: string },
): Promise<void> {
	await tx.query(
		`UPDATE discussions SET title = COALESCE($4, title), status = COALESCE($5, status),
			merge_commit = COALESCE($6, merge_commit)
		WHERE repo_type = $1 AND repo_id = $2 AND num = $3`,
		[repo.type, repo.id, num, change.title ?? null, change.status ?? null, change.mergeCommit ?? null],
	);
}

interface EventRow {
	id: string;
	type: DiscussionEventType;
	author: string;
	created_at: Date | string;
	data: unknown;
}

function eventOf(row: EventRow): DiscussionEventRow {
	const data = (typeof row.data === "string" ? JSON.parse(row.data) : row.data) as never;
	return { id: row.id, type: row.type, author: row.author, createdAt: isoOf(row.created_at), data };
}

/** Records an event; returns it as stored. */
export async function insertEvent(
	tx: Queryable,
	repo: RepoKey,
	num: number,
	event: EventData & { author: string; createdAt: Date },
): Promise<DiscussionEventRow> {
	const id = newObjectId();
	await tx.query(
		`INSERT INTO discussion_events (repo_type, repo_id, num, id, type, author, created_at, data)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		[
			repo.type,
			repo.id,
			num,
			id,
			event.type,
			event.author,
			event.createdAt.toISOString(),
			JSON.stringify(event.data),
		],
	);
	return {
		id,
		type: event.type,
		author: event.author,
		createdAt: event.createdAt.toISOString(),
		data: event.data,
	} as DiscussionEventRow;
}

/** How many events a discussion has. */
export async function countEvents(tx: Queryable, repo: RepoKey, num: number): Promise<number> {
	const result = await tx.query<{ count: number | string }>(
		"SELECT count(*) AS count FROM discussion_events WHERE repo_type = $1 AND repo_id = $2 AND num = $3",
		[repo.type, repo.id, num],
	);
	return Number(result.rows[0]?.count ?? 0);
}

/** A discussion's events in order, the first `limit`. */
export async function listEvents(
	db: Queryable,
	repo: RepoKey,
	num: number,
	limit: number,
): Promise<DiscussionEventRow[]> {
	const result = await db.query<EventRow>(
		`SELECT id, type, author, created_at, data FROM discussion_events
		WHERE repo_type = $1 AND repo_id = $2 AND num = $3 ORDER BY seq LIMIT $4`,
		[repo.type, repo.id, num, limit],
	);
	return result.rows.map(eventOf);
}

/** One comment of a discussion, locked until the transaction ends; undefined when there is none with this id. */
export async function lockComment(
	tx: Queryable,
	repo: RepoKey,
	num: number,
	id: string,
): Promise<(DiscussionEventRow & { type: "comment" }) | undefined> {
	const result = await tx.query<EventRow>(
		`SELECT id, type, author, created_at, data FROM discussion_events
		WHERE repo_type = $1 AND repo_id = $2 AND num = $3 AND id = $4 AND type = 'comment' FOR UPDATE`,
		[repo.type, repo.id, num, id],
	);
	const row = result.rows[0];
	return row ? (eventOf(row) as DiscussionEventRow & { type: "comment" }) : undefined;
}

export async function updateComment(
	tx: Queryable,
	repo: RepoKey,
	num: number,
	id: string,
	data: CommentData,
): Promise<void> {
	await tx.query(
		`UPDATE discussion_events SET data = $5
		WHERE repo_type = $1 AND repo_id = $2 AND num = $3 AND id = $4`,
		[repo.type, repo.id, num, id, JSON.stringify(data)],
	);
}
