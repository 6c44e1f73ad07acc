import {
	ANONYMOUS,
	canRead,
	RefusedError,
	repoRefusal,
	type Refusal,
	type RepoRef,
	type Viewer,
} from "../accounts/viewer.js";
import type {
	CommentEvent,
	DiscussionAuthor,
	DiscussionDetails,
	DiscussionEventJson,
	ListedDiscussion,
} from "../api/discussions.js";
import { hasControlCharacter } from "@modelhub/tasks/literals";
import { DEFAULT_DISCUSSION_LIMITS, type DiscussionLimits } from "../config.js";
import type { Queryable } from "../db/types.js";
import { diffBudget, fileDiff, textOf, type DiffSide } from "../discussions/diff.js";
import {
	countEvents,
	getDiscussion,
	insertDiscussion,
	insertEvent,
	listDiscussions,
	listEvents,
	lockComment,
	lockNextNumber,
	pullRequestRef,
	updateComment,
	updateDiscussion,
	type CommentData,
	type DiscussionEventRow,
	type DiscussionFilter,
	type DiscussionRow,
	type DiscussionStatus,
} from "../discussions/store.js";
import { ConflictError, HubError, revisionNotFound } from "../errors.js";
import type { ParsePool } from "../parsing/pool.js";
import type { RepoKey } from "../repo-identity.js";
import { changedFiles, type FileChange } from "../repos/changes.js";
import { writeCommits, type TreeEdit } from "../repos/commits.js";
import { lfsPointer } from "../repos/git.js";
import { rootTrees, treeFileOid, type TreeFile } from "../repos/trees.js";
import { createPullRequestRef, lockBranch, moveBranch, setLastModified } from "../repos/write.js";
import { applyMetadataChange, metadataChange } from "../uploads/metadata.js";
import { parentMatches, type CommitOperation } from "../uploads/operations.js";
import { COMMIT_ID } from "../vocabulary.js";
import { commitAuthor, type Actor } from "./actor.js";
import type { ChangeEvent, DiscussionChange } from "./changes.js";
import { authorizeRepo, type RepoContext } from "./repos.js";
import { write } from "./write.js";
import { readBlob } from "./blobs.js";
import { hasFileAccess } from "./gated.js";

/**
 * Discussions and pull requests (issue 24): the public hub's community API as huggingface_hub 2.x
 * calls it. Rights: whoever may read a repository may open a discussion or a pull request on it and
 * comment (signed in, with a write-scope token or a browser session: a read token only reads); the
 * author of a discussion may rename, close and reopen it and edit their comments; write access on the
 * repository merges pull requests and closes, renames or hides anything. A pull request's commits go
 * only to its `refs/pr/N` (services/commits.ts). Every change is audited and announced as a
 * `discussion.changed` event (webhooks deliver those).
 */

/** Title bounds huggingface_hub documents for create_discussion ("up to 200 characters … at least 3"). */
export const TITLE_MIN = 3;
export const TITLE_MAX = 200;

export interface DiscussionContext extends RepoContext {
	parsing: ParsePool;
	settings?: { discussions?: DiscussionLimits | undefined } | undefined;
}

function limitsOf(context: DiscussionContext): DiscussionLimits {
	return context.settings?.discussions ?? DEFAULT_DISCUSSION_LIMITS;
}

function invalid(message: string): HubError {
	return new HubError("Invalid", message);
}

function refuse(status: 401 | 403, message: string): never {
	throw new RefusedError({ status, message });
}

/**
 * Why a viewer may not take part in the repository's discussions and pull requests, if they may not:
 * anyone who reads it may, once signed in with a token that may write.
 */
export function participantRefusal(viewer: Viewer, repo: RepoRef): Refusal | undefined {
	if (!canRead(viewer, repo)) return { status: 404, message: "Repository not found", hidden: true };
	if (viewer.kind === "anonymous") {
		return {
			status: 401,
			message: "Authentication required: sign in (or send a token) to take part in discussions",
		};
	}
	if (viewer.kind === "user" && viewer.token.role === "read" && !viewer.session) {
		return {
			status: 403,
			message: `Your token '${viewer.token.displayName}' is read-only: use a token with the 'write' scope to take part in discussions`,
		};
	}
	return undefined;
}

function requireParticipant(actor: Actor, repo: RepoRef): void {
	const refusal = participantRefusal(actor.viewer, repo);
	if (refusal) throw new RefusedError(refusal);
}

function canWrite(viewer: Viewer, repo: RepoRef): boolean {
	return repoRefusal(viewer, repo, "write") === undefined;
}

function isAuthor(viewer: Viewer, name: string): boolean {
	return viewer.kind === "user" && viewer.account.name.toLowerCase() === name.toLowerCase();
}

/** The discussion's author or a writer of the repository. */
function requireAuthorOrWriter(actor: Actor, repo: RepoRef, author: string, what: string): void {
	requireParticipant(actor, repo);
	if (isAuthor(actor.viewer, author) || canWrite(actor.viewer, repo)) return;
	refuse(403, `Only its author (${author}) or someone with write access to ${repo.id} may ${what}`);
}

export function checkTitle(value: unknown): string {
	if (typeof value !== "string") throw invalid("'title' must be a string");
	const title = value.trim();
	if ([...title].length < TITLE_MIN || [...title].length > TITLE_MAX) {
		throw invalid(`the title must be ${TITLE_MIN} to ${TITLE_MAX} characters long`);
	}
	if (hasControlCharacter(title) || !title.isWellFormed())
		throw invalid("the title must be one line of printable characters");
	return title;
}

function checkText(context: DiscussionContext, value: unknown, field: string, allowEmpty = false): string {
	if (typeof value !== "string") throw invalid(`'${field}' must be a string`);
	const max = limitsOf(context).maxCommentBytes;
	if (Buffer.byteLength(value) > max) {
		throw new HubError(
			"TooLarge",
			`'${field}' is larger than ${max} bytes (MODELHUB_DISCUSSION_MAX_COMMENT_BYTES)`,
		);
	}
	if (!allowEmpty && value.trim() === "") throw invalid(`'${field}' must not be empty`);
	if (value.includes("\u0000") || !value.isWellFormed()) throw invalid(`'${field}' is not valid text`);
	return value;
}

function authorJson(name: string): DiscussionAuthor {
	return { name, fullname: name, type: "user", avatarUrl: "" };
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const HIDDEN_HTML = "<p><em>This comment has been hidden</em></p>";

function commentJson(row: DiscussionEventRow & { type: "comment" }): CommentEvent {
	const data = row.data;
	return {
		id: row.id,
		type: "comment",
		createdAt: row.createdAt,
		author: authorJson(row.author),
		data: {
			edited: data.history.length > 0,
			hidden: data.hidden,
			...(data.hiddenBy ? { hiddenBy: data.hiddenBy } : {}),
			latest: {
				raw: data.hidden ? "" : data.raw,
				// The text escaped, never rendered Markdown: whoever shows it renders it safely (the web app
				// renders `raw` as it renders model cards).
				html: data.hidden ? HIDDEN_HTML : `<p>${escapeHtml(data.raw)}</p>`,
				updatedAt: data.updatedAt,
				author: authorJson(data.editor),
			},
			numEdits: data.history.length,
			editors: [...new Set([row.author, ...data.history.map((h) => h.editor), data.editor])],
			history: data.hidden
				? []
				: data.history.map((h) => ({ raw: h.raw, updatedAt: h.updatedAt, author: authorJson(h.editor) })),
			reactions: [],
			isReport: false,
		},
	};
}

export function eventJson(row: DiscussionEventRow): DiscussionEventJson {
	const base = { id: row.id, createdAt: row.createdAt, author: authorJson(row.author) };
	switch (row.type) {
		case "comment":
			return commentJson(row);
		case "status-change":
			return { ...base, type: "status-change", data: { status: row.data.status } };
		case "commit":
			return { ...base, type: "commit", data: { subject: row.data.subject, oid: row.data.oid } };
		case "title-change":
			return { ...base, type: "title-change", data: { from: row.data.from, to: row.data.to } };
	}
}

function listedJson(repo: RepoKey, row: DiscussionRow, numComments: number): ListedDiscussion {
	return {
		num: row.num,
		title: row.title,
		status: row.status,
		isPullRequest: row.isPullRequest,
		createdAt: row.createdAt,
		author: authorJson(row.author),
		repo: { name: repo.id, type: repo.type },
		numComments,
		pinned: false,
	};
}

function change(
	repo: RepoKey,
	row: Pick<
		DiscussionRow,
		"num" | "isPullRequest" | "status" | "title" | "author" | "targetBranch" | "mergeCommit"
	>,
	actor: Actor,
	what: Pick<DiscussionChange, "scope" | "action"> & {
		comment?: { id: string; author: string; data: CommentData };
	},
): ChangeEvent {
	const { comment, ...scoped } = what;
	return {
		type: "discussion.changed",
		repo: { type: repo.type, id: repo.id },
		num: row.num,
		isPullRequest: row.isPullRequest,
		status: row.status,
		actor: actor.audit.actor,
		title: row.title,
		author: row.author,
		...(row.isPullRequest && row.targetBranch ? { targetBranch: row.targetBranch } : {}),
		...(row.mergeCommit ? { mergeCommit: row.mergeCommit } : {}),
		...scoped,
		...(comment
			? {
					commentId: comment.id,
					comment: { author: comment.author, content: comment.data.raw, hidden: comment.data.hidden },
				}
			: {}),
	};
}

function audit(
	actor: Actor,
	repo: RepoKey,
	action: "discussion.create" | "discussion.update",
	details: Record<string, unknown>,
) {
	return { ...actor.audit, action, repo: { type: repo.type, id: repo.id }, details };
}

/** A 409 whose message huggingface_hub shows (it prints `X-Error-Message` with the status). */
function conflict(message: string): ConflictError {
	return new ConflictError(message, { messageHeader: message });
}

/** A discussion that does not exist is a 404 naming it. */
function noSuchDiscussion(num: number): HubError {
	return new HubError("NotFound", `Discussion #${num} not found`);
}

async function existing(db: Queryable, repo: RepoKey, num: number, lock = false): Promise<DiscussionRow> {
	const row = await getDiscussion(db, repo, num, lock);
	if (!row) throw noSuchDiscussion(num);
	return row;
}

async function requireRoom(
	context: DiscussionContext,
	tx: Queryable,
	repo: RepoKey,
	num: number,
): Promise<void> {
	const max = limitsOf(context).maxEvents;
	if ((await countEvents(tx, repo, num)) >= max) {
		throw new HubError(
			"TooLarge",
			`Discussion #${num} has ${max} events, the most one may have (MODELHUB_DISCUSSION_MAX_EVENTS): open a new one`,
		);
	}
}

// ---- reading ----

export async function listRepoDiscussions(
	context: DiscussionContext,
	viewer: Viewer,
	target: RepoKey,
	filter: DiscussionFilter,
	page: number,
): Promise<{ discussions: ListedDiscussion[]; count: number; start: number; numClosed: number }> {
	const repo = await authorizeRepo(context, viewer, target, "read");
	const { pageSize } = limitsOf(context);
	const start = page * pageSize;
	const listed = await listDiscussions(context.db, repo, filter, { offset: start, limit: pageSize });
	const closed = await listDiscussions(
		context.db,
		repo,
		{ ...filter, status: "closed" },
		{ offset: 0, limit: 0 },
	);
	const comments = await commentCounts(
		context.db,
		repo,
		listed.discussions.map((d) => d.num),
	);
	return {
		discussions: listed.discussions.map((row) => listedJson(repo, row, comments.get(row.num) ?? 0)),
		count: listed.count,
		start,
		numClosed: closed.count,
	};
}

/**
 * A Community page of a repository as the public sees it (pages load without a token, so a private
 * repository is missing): the repository's id as stored and, for `num`, that discussion's title and
 * kind; undefined when the repository or the discussion does not exist (the page is a 404).
 */
export async function publicDiscussionPage(
	context: Pick<RepoContext, "db">,
	target: RepoKey,
	num?: number,
): Promise<{ id: string; discussion?: { title: string; isPullRequest: boolean } } | undefined> {
	let repo: RepoRef;
	try {
		repo = await authorizeRepo(context, ANONYMOUS, target, "read");
	} catch (error) {
		if (error instanceof RefusedError) return undefined;
		throw error;
	}
	if (num === undefined) return { id: repo.id };
	const row = await getDiscussion(context.db, repo, num);
	return row
		? { id: repo.id, discussion: { title: row.title, isPullRequest: row.isPullRequest } }
		: undefined;
}

async function commentCounts(db: Queryable, repo: RepoKey, nums: number[]): Promise<Map<number, number>> {
	if (nums.length === 0) return new Map();
	const result = await db.query<{ num: number; count: number | string }>(
		`SELECT num, count(*) AS count FROM discussion_events
		WHERE repo_type = $1 AND repo_id = $2 AND num = ANY($3::int[]) AND type = 'comment' GROUP BY num`,
		[repo.type, repo.id, nums],
	);
	return new Map(result.rows.map((row) => [Number(row.num), Number(row.count)]));
}

async function headOf(db: Queryable, repo: RepoKey, name: string): Promise<string | undefined> {
	const result = await db.query<{ commit_id: string }>(
		"SELECT commit_id FROM refs WHERE repo_type = $1 AND repo_id = $2 AND name = $3 AND kind IN ('branch', 'pr')",
		[repo.type, repo.id, name],
	);
	return result.rows[0]?.commit_id;
}

export async function discussionDetails(
	context: DiscussionContext,
	viewer: Viewer,
	target: RepoKey,
	num: number,
	withDiff: boolean,
): Promise<DiscussionDetails> {
	const repo = await authorizeRepo(context, viewer, target, "read");
	const row = await existing(context.db, repo, num);
	const events = await listEvents(context.db, repo, num, limitsOf(context).maxEvents);
	const details: DiscussionDetails = {
		num: row.num,
		title: row.title,
		status: row.status,
		isPullRequest: row.isPullRequest,
		createdAt: row.createdAt,
		author: authorJson(row.author),
		repo: { name: repo.id, type: repo.type },
		pinned: false,
		events: events.map(eventJson),
		canWrite: canWrite(viewer, repo),
	};
	if (row.isPullRequest && row.targetBranch !== null) {
		const head = await headOf(context.db, repo, pullRequestRef(num));
		details.changes = {
			base: `refs/heads/${row.targetBranch}`,
			...(row.mergeCommit ? { mergeCommitId: row.mergeCommit } : {}),
			...(head ? { headCommitId: head } : {}),
		};
		const targetHead = await headOf(context.db, repo, row.targetBranch);
		details.filesWithConflicts =
			row.status === "merged" || !head || !targetHead || row.baseCommit === null
				? []
				: (await mergePlan(context, context.db, repo, row.baseCommit, head, targetHead)).conflicts;
		if (withDiff && head && row.baseCommit !== null) {
			// The diff is the files' contents (both sides, with context lines): a gated repository's only for
			// those with access to its files. The others get the details without it (huggingface_hub's
			// get_discussion_details always asks for it and reads a missing one as None), so that they can
			// still follow and comment on the pull request.
			if (await hasFileAccess(context, viewer, repo)) {
				const { diff, truncated } = await pullRequestDiff(context, repo, row.baseCommit, head);
				details.diff = diff;
				if (truncated) details.diffTruncated = true;
			} else details.diffWithheld = true;
		}
	}
	return details;
}

/** A changed file's side as its diff shows it: LFS files as their pointer, other files' text when small. */
async function diffSide(
	context: DiscussionContext,
	file: TreeFile | undefined,
	budget: number,
): Promise<DiffSide | undefined> {
	if (!file) return undefined;
	const oid = treeFileOid(file);
	if (file.lfs) return { oid, text: lfsPointer(file.sha256, file.size) };
	if (file.size > budget) return { oid, text: undefined };
	const chunks: Buffer[] = [];
	// Through readBlob: a small file lives in the database (small_blobs), not in the file store.
	for await (const chunk of await readBlob({ db: context.db, storage: context.storage }, file))
		chunks.push(Buffer.from(chunk as Uint8Array));
	return { oid, text: textOf(Buffer.concat(chunks)) };
}

async function commitRoots(db: Queryable, repo: RepoKey, ids: string[]): Promise<string[]> {
	const roots = await rootTrees(db, repo, ids);
	return ids.map((id) => {
		const root = roots.get(id);
		if (root === undefined) throw revisionNotFound(id);
		return root;
	});
}

/** The diff of a pull request: its head against the commit it started from, bounded. */
async function pullRequestDiff(
	context: DiscussionContext,
	repo: RepoKey,
	base: string,
	head: string,
): Promise<{ diff: string; truncated: boolean }> {
	const { maxDiffBytes, maxFiles } = limitsOf(context);
	const [baseRoot, headRoot] = await commitRoots(context.db, repo, [base, head]);
	const { changes, more } = await changedFiles(context.db, baseRoot, headRoot as string, maxFiles);
	let diff = "";
	const budget = diffBudget();
	for (const file of changes) {
		const left = maxDiffBytes - Buffer.byteLength(diff);
		const section = fileDiff(
			file.path,
			await diffSide(context, file.before, left),
			await diffSide(context, file.after, left),
			budget,
		);
		if (Buffer.byteLength(section) > left) return { diff, truncated: true };
		diff += section;
	}
	return { diff, truncated: more };
}

function sameSide(a: TreeFile | undefined, b: TreeFile | undefined): boolean {
	if (!a || !b) return a === b;
	return a.sha256 === b.sha256 && a.size === b.size && a.lfs === b.lfs;
}

/**
 * How a pull request merges into its target, at the file level: the files it changed since its base
 * (the target's commit it started from), and those of them the target changed too, differently
 * (conflicts).
 */
async function mergePlan(
	context: DiscussionContext,
	db: Queryable,
	repo: RepoKey,
	base: string,
	head: string,
	targetHead: string,
): Promise<{ changes: FileChange[]; conflicts: string[] }> {
	const { maxFiles } = limitsOf(context);
	const [baseRoot, headRoot, targetRoot] = await commitRoots(db, repo, [base, head, targetHead]);
	const ours = await changedFiles(db, baseRoot, headRoot as string, maxFiles);
	if (ours.more) {
		throw new HubError(
			"TooLarge",
			`this pull request changes more than ${maxFiles} files (MODELHUB_PR_MAX_FILES): merge it with git, or split it`,
		);
	}
	if (targetHead === base) return { changes: ours.changes, conflicts: [] };
	const theirs = await changedFiles(db, baseRoot, targetRoot as string, Number.MAX_SAFE_INTEGER);
	const theirByPath = new Map(theirs.changes.map((c) => [c.path, c]));
	const theirPaths = [...theirByPath.keys()];
	const conflicts: string[] = [];
	for (const mine of ours.changes) {
		const other = theirByPath.get(mine.path);
		if (other && !sameSide(other.after, mine.after)) conflicts.push(mine.path);
		// A file on one side where the other made a folder (or the reverse).
		else if (
			!other &&
			theirPaths.some((p) => p.startsWith(`${mine.path}/`) || mine.path.startsWith(`${p}/`))
		) {
			if (mine.after) conflicts.push(mine.path);
		}
	}
	return { changes: ours.changes, conflicts };
}

// ---- writing ----

/** What opening a pull request inside a transaction made. */
export interface OpenedPullRequest {
	num: number;
	ref: string;
	/** The target's commit the ref starts at. */
	base: string;
}

/**
 * Opens a discussion or a pull request inside the caller's transaction: the next number, the row, the
 * first comment (the description) and, for a pull request, `refs/pr/N` at the target's head.
 */
export async function openDiscussion(
	context: DiscussionContext,
	tx: Queryable,
	actor: Actor,
	repo: RepoRef,
	input: {
		title: string;
		description: string;
		pullRequest: boolean;
		status: DiscussionStatus;
		target?: string;
		/** The commit the pull request starts from (a commit of the repository; the target's head by default). */
		base?: string;
	},
): Promise<{ row: DiscussionRow; opened?: OpenedPullRequest; comment: DiscussionEventRow }> {
	const numbering = await lockNextNumber(tx, repo);
	if (!numbering) throw new HubError("NotFound", "Repository not found", { code: "RepoNotFound" });
	const { maxPerRepo } = limitsOf(context);
	if (numbering.count >= maxPerRepo) {
		throw new HubError(
			"TooLarge",
			`${repo.id} has ${maxPerRepo} discussions and pull requests, the most a repository may have (MODELHUB_DISCUSSIONS_PER_REPO)`,
		);
	}
	const num = numbering.next;
	const now = new Date();
	let opened: OpenedPullRequest | undefined;
	const target = input.target ?? "main";
	if (input.pullRequest) {
		const head = await headOf(tx, repo, target);
		if (head === undefined) throw revisionNotFound(target);
		opened = { num, ref: pullRequestRef(num), base: head };
		if (input.base !== undefined && !parentMatches(input.base, head)) {
			// huggingface_hub: "If specified and create_pr is True, the pull request will be created from parent_commit."
			if (!COMMIT_ID.test(input.base) || !(await rootTrees(tx, repo, [input.base])).has(input.base)) {
				throw new HubError(
					"Invalid",
					`parentCommit ${input.base.slice(0, 64)} is not a full commit id of ${repo.id}`,
				);
			}
			opened.base = input.base;
		}
	}
	const row: DiscussionRow = {
		num,
		title: input.title,
		author: actor.audit.actor,
		isPullRequest: input.pullRequest,
		status: input.status,
		targetBranch: input.pullRequest ? target : null,
		baseCommit: opened?.base ?? null,
		mergeCommit: null,
		createdAt: now.toISOString(),
	};
	await insertDiscussion(tx, repo, { ...row, createdAt: now });
	if (opened) await createPullRequestRef(tx, repo, opened.ref, opened.base);
	const comment = await insertEvent(tx, repo, num, {
		type: "comment",
		author: actor.audit.actor,
		createdAt: now,
		data: {
			raw: input.description,
			hidden: false,
			updatedAt: now.toISOString(),
			editor: actor.audit.actor,
			history: [],
		},
	});
	return { row, ...(opened ? { opened } : {}), comment };
}

/** The events announcing a new discussion (and its pull request's new ref). */
export function openedChanges(
	repo: RepoKey,
	actor: Actor,
	opened: { row: DiscussionRow; opened?: OpenedPullRequest; comment: DiscussionEventRow },
): ChangeEvent[] {
	const events: ChangeEvent[] = [
		change(repo, opened.row, actor, {
			scope: "discussion",
			action: "create",
			comment: {
				id: opened.comment.id,
				author: opened.comment.author,
				data: opened.comment.data as CommentData,
			},
		}),
	];
	if (opened.opened) {
		events.unshift({
			type: "repo.committed",
			repo: { type: repo.type, id: repo.id },
			refs: [{ kind: "pr", name: opened.opened.ref, from: null, to: opened.opened.base }],
		});
	}
	return events;
}

export function openedAudit(repo: RepoKey, actor: Actor, row: DiscussionRow) {
	return audit(actor, repo, "discussion.create", {
		num: row.num,
		pullRequest: row.isPullRequest,
		title: row.title,
	});
}

export async function createDiscussion(
	context: DiscussionContext,
	actor: Actor,
	target: RepoKey,
	body: { title: unknown; description: unknown; pullRequest: unknown },
): Promise<DiscussionRow> {
	const repo = await authorizeRepo(context, actor.viewer, target, "read");
	requireParticipant(actor, repo);
	const title = checkTitle(body.title);
	const description =
		body.description === undefined || body.description === null
			? ""
			: checkText(context, body.description, "description", true);
	if (body.pullRequest !== undefined && body.pullRequest !== null && typeof body.pullRequest !== "boolean") {
		throw invalid("'pullRequest' must be true or false");
	}
	const pullRequest = body.pullRequest === true;
	return write(context, async (tx) => {
		// Pull requests opened through the API start as drafts, as on the public hub (create_discussion's docs).
		const opened = await openDiscussion(context, tx, actor, repo, {
			title,
			description,
			pullRequest,
			status: pullRequest ? "draft" : "open",
		});
		return {
			value: opened.row,
			audit: openedAudit(repo, actor, opened.row),
			change: openedChanges(repo, actor, opened),
		};
	});
}

export async function commentDiscussion(
	context: DiscussionContext,
	actor: Actor,
	target: RepoKey,
	num: number,
	text: unknown,
): Promise<DiscussionEventJson> {
	const repo = await authorizeRepo(context, actor.viewer, target, "read");
	requireParticipant(actor, repo);
	const raw = checkText(context, text, "comment");
	return write(context, async (tx) => {
		const row = await existing(tx, repo, num, true);
		await requireRoom(context, tx, repo, num);
		const now = new Date();
		const event = await insertEvent(tx, repo, num, {
			type: "comment",
			author: actor.audit.actor,
			createdAt: now,
			data: { raw, hidden: false, updatedAt: now.toISOString(), editor: actor.audit.actor, history: [] },
		});
		return {
			value: eventJson(event),
			audit: audit(actor, repo, "discussion.update", { num, comment: event.id }),
			change: change(repo, row, actor, {
				scope: "discussion.comment",
				action: "create",
				comment: { id: event.id, author: event.author, data: event.data as CommentData },
			}),
		};
	});
}

/** Edits (the comment's author) or hides (its author or a writer) a comment. */
export async function changeComment(
	context: DiscussionContext,
	actor: Actor,
	target: RepoKey,
	num: number,
	commentId: string,
	edit: { content: unknown } | { hide: true },
): Promise<CommentEvent> {
	const repo = await authorizeRepo(context, actor.viewer, target, "read");
	requireParticipant(actor, repo);
	if (!/^[0-9a-f]{24}$/.test(commentId))
		throw new HubError("NotFound", `No comment ${commentId.slice(0, 40)} in discussion #${num}`);
	const content = "content" in edit ? checkText(context, edit.content, "content") : undefined;
	return write(context, async (tx) => {
		const row = await existing(tx, repo, num, true);
		const comment = await lockComment(tx, repo, num, commentId);
		if (!comment) throw new HubError("NotFound", `No comment ${commentId} in discussion #${num}`);
		const mine = isAuthor(actor.viewer, comment.author);
		const data: CommentData = { ...comment.data };
		const now = new Date().toISOString();
		if (content !== undefined) {
			if (!mine) refuse(403, `Only its author (${comment.author}) may edit this comment`);
			if (data.hidden) throw invalid("A hidden comment cannot be edited");
			if (data.history.length + 1 >= limitsOf(context).maxEvents) {
				throw new HubError(
					"TooLarge",
					"this comment has been edited too often (MODELHUB_DISCUSSION_MAX_EVENTS)",
				);
			}
			data.history = [...data.history, { raw: data.raw, updatedAt: data.updatedAt, editor: data.editor }];
			data.raw = content;
			data.updatedAt = now;
			data.editor = actor.audit.actor;
		} else {
			if (!mine && !canWrite(actor.viewer, repo)) {
				refuse(
					403,
					`Only its author (${comment.author}) or someone with write access to ${repo.id} may hide this comment`,
				);
			}
			// Hiding cannot be undone and the text is dropped (huggingface_hub warns: "Hidden comments'
			// content cannot be retrieved anymore").
			data.hidden = true;
			data.hiddenBy = actor.audit.actor;
			data.raw = "";
			data.history = [];
			data.updatedAt = now;
		}
		await updateComment(tx, repo, num, commentId, data);
		const updated = commentJson({ ...comment, data });
		return {
			value: updated,
			audit: audit(actor, repo, "discussion.update", {
				num,
				comment: commentId,
				[content !== undefined ? "edited" : "hidden"]: true,
			}),
			change: change(repo, row, actor, {
				scope: "discussion.comment",
				action: "update",
				comment: { id: commentId, author: comment.author, data },
			}),
		};
	});
}

export async function renameDiscussion(
	context: DiscussionContext,
	actor: Actor,
	target: RepoKey,
	num: number,
	newTitle: unknown,
): Promise<DiscussionEventJson> {
	const repo = await authorizeRepo(context, actor.viewer, target, "read");
	const title = checkTitle(newTitle);
	return write(context, async (tx) => {
		const row = await existing(tx, repo, num, true);
		requireAuthorOrWriter(actor, repo, row.author, "rename it");
		await requireRoom(context, tx, repo, num);
		await updateDiscussion(tx, repo, num, { title });
		const event = await insertEvent(tx, repo, num, {
			type: "title-change",
			author: actor.audit.actor,
			createdAt: new Date(),
			data: { from: row.title, to: title },
		});
		return {
			value: eventJson(event),
			audit: audit(actor, repo, "discussion.update", { num, title }),
			change: change(repo, { ...row, title }, actor, { scope: "discussion", action: "update" }),
		};
	});
}

export async function changeDiscussionStatus(
	context: DiscussionContext,
	actor: Actor,
	target: RepoKey,
	num: number,
	body: { status: unknown; comment: unknown },
): Promise<DiscussionEventJson> {
	const repo = await authorizeRepo(context, actor.viewer, target, "read");
	const status = body.status;
	if (status !== "open" && status !== "closed") throw invalid('\'status\' must be "open" or "closed"');
	const comment =
		body.comment === undefined || body.comment === null || body.comment === ""
			? undefined
			: checkText(context, body.comment, "comment");
	return write(context, async (tx) => {
		const row = await existing(tx, repo, num, true);
		requireAuthorOrWriter(actor, repo, row.author, status === "closed" ? "close it" : "reopen it");
		if (row.status === "merged") throw invalid(`Pull request #${num} is merged: its status cannot change`);
		if (row.status === status) throw invalid(`Discussion #${num} is already ${status}`);
		await requireRoom(context, tx, repo, num);
		const now = new Date();
		if (comment !== undefined) {
			await insertEvent(tx, repo, num, {
				type: "comment",
				author: actor.audit.actor,
				createdAt: now,
				data: {
					raw: comment,
					hidden: false,
					updatedAt: now.toISOString(),
					editor: actor.audit.actor,
					history: [],
				},
			});
		}
		await updateDiscussion(tx, repo, num, { status });
		const event = await insertEvent(tx, repo, num, {
			type: "status-change",
			author: actor.audit.actor,
			createdAt: now,
			data: { status },
		});
		return {
			value: eventJson(event),
			audit: audit(actor, repo, "discussion.update", { num, status }),
			change: change(repo, { ...row, status }, actor, { scope: "discussion", action: "update" }),
		};
	});
}

/**
 * Merges a pull request into its target branch (write access): a fast-forward when the target has not
 * moved since the pull request started, else one commit on the target applying the pull request's
 * changes (its files as they are at its head), refused with the conflicting files named when the target
 * changed any of them differently. One transaction: the pull request, its target and its ref are locked,
 * so of two merges one wins (the other finds it merged), and a commit landing on the target meanwhile
 * waits for the merge or is merged over.
 */
export async function mergePullRequest(
	context: DiscussionContext,
	actor: Actor,
	target: RepoKey,
	num: number,
	comment: unknown,
): Promise<{ mergeCommitId: string }> {
	const repo = await authorizeRepo(context, actor.viewer, target, "read");
	requireParticipant(actor, repo);
	const text =
		comment === undefined || comment === null || comment === ""
			? undefined
			: checkText(context, comment, "comment");
	return write(context, async (tx) => {
		const row = await existing(tx, repo, num, true);
		if (!row.isPullRequest || row.targetBranch === null || row.baseCommit === null) {
			throw invalid(`#${num} is a discussion, not a pull request`);
		}
		if (!canWrite(actor.viewer, repo)) refuse(403, `Merging a pull request needs write access to ${repo.id}`);
		if (row.status === "merged") throw conflict(`Pull request #${num} is already merged`);
		if (row.status === "closed") throw invalid(`Pull request #${num} is closed: reopen it first`);
		if (row.status === "draft") {
			throw invalid(`Pull request #${num} is a draft: open it first (change_discussion_status(…, "open"))`);
		}
		const branch = row.targetBranch;
		const targetHead = await lockBranch(tx, repo, branch);
		if (targetHead === undefined) throw revisionNotFound(branch);
		const ref = pullRequestRef(num);
		const head = await lockBranch(tx, repo, ref);
		if (head === undefined) throw revisionNotFound(ref);
		if (head === row.baseCommit) throw invalid(`Pull request #${num} has no changes to merge`);
		const plan = await mergePlan(context, tx, repo, row.baseCommit, head, targetHead);
		if (plan.conflicts.length > 0) {
			const shown = plan.conflicts.slice(0, 20).join(", ");
			throw conflict(
				`Pull request #${num} cannot be merged: ${plan.conflicts.length} file(s) changed on ${branch} since it was opened conflict with it (${shown}${plan.conflicts.length > 20 ? ", …" : ""}). Update the pull request on top of ${branch} (commit to ${ref}) and merge again`,
			);
		}
		const now = new Date();
		let mergeCommit: string;
		if (targetHead === row.baseCommit) {
			await moveBranch(tx, repo, branch, head);
			mergeCommit = head;
		} else {
			const edits: TreeEdit[] = [];
			const operations: CommitOperation[] = [];
			for (const file of plan.changes) {
				if (file.after) {
					const put = {
						path: file.path,
						sha256: file.after.sha256,
						size: file.after.size,
						gitOid: file.after.gitOid ?? undefined,
						lfs: file.after.lfs,
					};
					edits.push({ kind: "put", file: put });
					operations.push({ kind: "file", ...put });
				} else {
					edits.push({ kind: "deleteFile", path: file.path });
					operations.push({ kind: "deletedFile", path: file.path });
				}
			}
			const metadata =
				branch === "main"
					? await metadataChange(
							{
								parsing: context.parsing,
								read: (blob, range) => readBlob({ db: tx, storage: context.storage }, blob, range),
							},
							operations,
							() => undefined,
							repo,
						)
					: {};
			const [written] = await writeCommits(tx, [
				{
					repo: { type: repo.type, id: repo.id },
					branch,
					edits,
					title: `${row.title} (#${num})`,
					message: `Merge ${ref} into ${branch}`,
					...commitAuthor(actor),
					date: now,
				},
			]);
			mergeCommit = (written as { commitId: string }).commitId;
			if (branch === "main") await applyMetadataChange(tx, repo, metadata);
		}
		if (branch === "main") await setLastModified(tx, repo, now);
		await updateDiscussion(tx, repo, num, { status: "merged", mergeCommit });
		if (text !== undefined) {
			await insertEvent(tx, repo, num, {
				type: "comment",
				author: actor.audit.actor,
				createdAt: now,
				data: {
					raw: text,
					hidden: false,
					updatedAt: now.toISOString(),
					editor: actor.audit.actor,
					history: [],
				},
			});
		}
		await insertEvent(tx, repo, num, {
			type: "status-change",
			author: actor.audit.actor,
			createdAt: now,
			data: { status: "merged" },
		});
		return {
			value: { mergeCommitId: mergeCommit },
			audit: audit(actor, repo, "discussion.update", { num, merged: mergeCommit, branch }),
			change: [
				{
					type: "repo.committed",
					repo: { type: repo.type, id: repo.id },
					refs: [{ kind: "branch", name: branch, from: targetHead, to: mergeCommit }],
				},
				change(repo, { ...row, status: "merged", mergeCommit }, actor, {
					scope: "discussion",
					action: "update",
				}),
			],
		};
	});
}

/**
 * Who may commit to a pull request's ref: writers of the repository, and its author while it is not
 * merged. Checked in the commit's transaction (services/commits.ts), which records the commit event.
 */
export async function checkPullRequestCommit(
	tx: Queryable,
	actor: Actor,
	repo: RepoRef,
	num: number,
): Promise<DiscussionRow> {
	const row = await getDiscussion(tx, repo, num, true);
	if (!row || !row.isPullRequest) throw revisionNotFound(pullRequestRef(num));
	if (!canWrite(actor.viewer, repo) && !isAuthor(actor.viewer, row.author)) {
		refuse(
			403,
			`Only the author of pull request #${num} (${row.author}) or someone with write access to ${repo.id} may commit to ${pullRequestRef(num)}`,
		);
	}
	if (row.status === "merged") throw invalid(`Pull request #${num} is merged: open a new pull request`);
	return row;
}

/** Records a commit pushed to a pull request's ref as its event; the change announcing it. */
export async function recordPullRequestCommit(
	tx: Queryable,
	actor: Actor,
	repo: RepoKey,
	row: DiscussionRow,
	commit: { oid: string; subject: string },
): Promise<ChangeEvent> {
	await insertEvent(tx, repo, row.num, {
		type: "commit",
		author: actor.audit.actor,
		createdAt: new Date(),
		data: { oid: commit.oid, subject: commit.subject.slice(0, 1000) },
	});
	return change(repo, row, actor, { scope: "discussion", action: "update" });
}

/** Whether the actor may open a pull request on the repository (read access, signed in). */
export function requirePullRequestOpener(actor: Actor, repo: RepoRef): void {
	requireParticipant(actor, repo);
}
