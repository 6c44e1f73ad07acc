/**
 * The Community tab's logic, without React: the list's filters as the address keeps them (`?type=`,
 * `?status=`, `?p=`, the hub's own query names), labels, what a thread's events say, and what the viewer
 * may do (the hub's rights, packages/hub/README.md "Pull requests and discussions": the author or a writer
 * closes and reopens, a writer merges an open pull request, everyone edits only their own comments, and
 * hides their own or, as a writer, anyone's).
 */
import type {
	CommentEvent,
	DiscussionDetails,
	DiscussionEventJson,
	DiscussionStatusName,
} from "@modelhub/hub/api";
import type { DiscussionQuery } from "../api/discussions";

export const DEFAULT_QUERY: DiscussionQuery = { type: "all", status: "open", page: 0 };

const TYPES = new Set<DiscussionQuery["type"]>(["all", "discussion", "pull_request"]);
const STATUSES = new Set<DiscussionQuery["status"]>(["all", "open", "closed"]);
/** The hub's own bound on `p` (packages/hub/src/routes/discussions.ts). */
const MAX_PAGE = 1_000_000;

/** The list's filters from the address; an unknown value is the default. */
export function discussionQueryOf(params: URLSearchParams): DiscussionQuery {
	const type = params.get("type") as DiscussionQuery["type"] | null;
	const status = params.get("status") as DiscussionQuery["status"] | null;
	const page = Number(params.get("p") ?? "0");
	return {
		type: type !== null && TYPES.has(type) ? type : DEFAULT_QUERY.type,
		status: status !== null && STATUSES.has(status) ? status : DEFAULT_QUERY.status,
		page: Number.isInteger(page) && page >= 0 && page <= MAX_PAGE ? page : 0,
	};
}

/** The address's query of the list's filters (`""` for the defaults), so links and Back keep them. */
export function discussionSearch(query: DiscussionQuery): string {
	const params = new URLSearchParams();
	if (query.type !== DEFAULT_QUERY.type) params.set("type", query.type);
	if (query.status !== DEFAULT_QUERY.status) params.set("status", query.status);
	if (query.page > 0) params.set("p", String(query.page));
	const search = params.toString();
	return search ? `?${search}` : "";
}

/** The filters' choices, in the order the tab shows them. */
export const TYPE_FILTERS: ReadonlyArray<{ value: DiscussionQuery["type"]; label: string }> = [
	{ value: "all", label: "All" },
	{ value: "discussion", label: "Discussions" },
	{ value: "pull_request", label: "Pull requests" },
];
export const STATUS_FILTERS: ReadonlyArray<{ value: DiscussionQuery["status"]; label: string }> = [
	{ value: "open", label: "Open" },
	{ value: "closed", label: "Closed" },
	{ value: "all", label: "All" },
];

/** Whether a page of `shown` discussions starting at `start` is followed by another of `count`. */
export function hasNextPage(page: { start: number; count: number }, shown: number): boolean {
	return page.start + shown < page.count;
}

const STATUS_LABELS: Record<DiscussionStatusName, string> = {
	open: "Open",
	closed: "Closed",
	merged: "Merged",
	draft: "Draft",
};

export function statusLabel(status: DiscussionStatusName): string {
	return STATUS_LABELS[status];
}

export function kindLabel(isPullRequest: boolean): string {
	return isPullRequest ? "Pull request" : "Discussion";
}

/** "1 comment", "3 comments". */
export function commentCountLabel(count: number): string {
	return `${count.toLocaleString("en-US")} ${count === 1 ? "comment" : "comments"}`;
}

/** What a status change says in the thread ("closed this discussion", "merged this pull request"…). */
function statusSentence(status: DiscussionStatusName, isPullRequest: boolean): string {
	const what = isPullRequest ? "this pull request" : "this discussion";
	switch (status) {
		case "open":
			return `opened ${what}`;
		case "closed":
			return `closed ${what}`;
		case "merged":
			return `merged ${what}`;
		case "draft":
			return `marked ${what} as a draft`;
	}
}

/** One line of a thread that is no comment: who did what, after their name. */
export function eventSentence(
	event: Exclude<DiscussionEventJson, CommentEvent>,
	isPullRequest: boolean,
): string {
	switch (event.type) {
		case "status-change":
			return statusSentence(event.data.status, isPullRequest);
		case "title-change":
			return `changed the title from “${event.data.from}” to “${event.data.to}”`;
		case "commit":
			return `added a commit: ${event.data.subject || "(no title)"}`;
	}
}

/** Who is looking: their account name, or undefined when signed out. */
export type Viewer = string | undefined;

/** What the viewer may do on a discussion (the hub checks again; these only choose the buttons). */
export interface DiscussionRights {
	comment: boolean;
	/** Close, or reopen, or open a draft for review. */
	changeStatus: boolean;
	merge: boolean;
}

export function discussionRights(details: DiscussionDetails, viewer: Viewer): DiscussionRights {
	const signedIn = viewer !== undefined;
	const writer = details.canWrite === true;
	const author = signedIn && details.author.name === viewer;
	return {
		comment: signedIn,
		changeStatus: signedIn && (author || writer) && details.status !== "merged",
		merge: signedIn && writer && details.isPullRequest && details.status === "open",
	};
}

/** Whether the viewer may edit a comment: their own, not hidden (the hub refuses others'). */
export function canEditComment(comment: CommentEvent, viewer: Viewer): boolean {
	return viewer !== undefined && !comment.data.hidden && comment.author.name === viewer;
}

/**
 * Whether the viewer may hide a comment: their own, or any when they may write to the repository (the
 * hub's rule); never one already hidden, since hiding cannot be undone.
 */
export function canHideComment(
	comment: CommentEvent,
	details: Pick<DiscussionDetails, "canWrite">,
	viewer: Viewer,
): boolean {
	return (
		viewer !== undefined &&
		!comment.data.hidden &&
		(comment.author.name === viewer || details.canWrite === true)
	);
}

/** The status the status button sets, and its label, for the discussion's status now. */
export function statusAction(
	details: Pick<DiscussionDetails, "status" | "isPullRequest">,
): { status: "open" | "closed"; label: string } | undefined {
	const what = details.isPullRequest ? "pull request" : "discussion";
	switch (details.status) {
		case "open":
			return { status: "closed", label: `Close ${what}` };
		case "closed":
			return { status: "open", label: `Reopen ${what}` };
		case "draft":
			return { status: "open", label: "Open for review" };
		case "merged":
			return undefined;
	}
}
