/**
 * Discussions and pull requests on the hub, for the Community tab (packages/hub/README.md, "Pull requests
 * and discussions"): the public hub's routes under `/api/{models|datasets}/{id}/discussions`, typed with
 * the hub's own answer shapes. The repository type comes from the options (a dataset page sets it).
 */
import type {
	CommentEvent,
	CommentRequest,
	CreateDiscussionRequest,
	CreatedDiscussion,
	DiscussionDetails,
	DiscussionPage,
	EditCommentRequest,
	MergedPullRequest,
	NewMessage,
	NewStatus,
	StatusChangeEvent,
	StatusRequest,
	UpdatedComment,
} from "@modelhub/hub/api";
import { apiUrl, repoApi, requestJson, type ApiOptions } from "./http";

/** Which discussions a page of the list shows (the hub's `type`, `status` and zero-based `p`). */
export interface DiscussionQuery {
	type: "all" | "discussion" | "pull_request";
	status: "all" | "open" | "closed";
	page: number;
}

function discussionsPath(id: string, options: ApiOptions, rest = ""): string {
	return `${repoApi(id, options)}/discussions${rest}`;
}

/** A page of a repository's discussions and pull requests, newest first. */
export async function listDiscussions(
	id: string,
	query: DiscussionQuery,
	options: ApiOptions,
): Promise<DiscussionPage> {
	const { data } = await requestJson<DiscussionPage>(
		apiUrl(options.baseUrl, discussionsPath(id, options), {
			type: query.type,
			status: query.status,
			p: query.page,
		}),
		options,
	);
	return data;
}

/** One discussion with its events; `diff` adds a pull request's git-style diff. */
export async function getDiscussion(
	id: string,
	num: number,
	{ diff = false }: { diff?: boolean },
	options: ApiOptions,
): Promise<DiscussionDetails> {
	const { data } = await requestJson<DiscussionDetails>(
		apiUrl(options.baseUrl, discussionsPath(id, options, `/${num}`), diff ? { diff: 1 } : undefined),
		options,
	);
	return data;
}

/** Opens a discussion (a pull request with `pullRequest`). */
export async function createDiscussion(
	id: string,
	request: CreateDiscussionRequest,
	options: ApiOptions,
): Promise<CreatedDiscussion> {
	const { data } = await requestJson<CreatedDiscussion>(
		apiUrl(options.baseUrl, discussionsPath(id, options)),
		{
			...options,
			method: "POST",
			body: request,
		},
	);
	return data;
}

/** Adds a comment. */
export async function commentDiscussion(
	id: string,
	num: number,
	comment: string,
	options: ApiOptions,
): Promise<CommentEvent> {
	const { data } = await requestJson<NewMessage>(
		apiUrl(options.baseUrl, discussionsPath(id, options, `/${num}/comment`)),
		{ ...options, method: "POST", body: { comment } satisfies CommentRequest },
	);
	return data.newMessage;
}

/** Closes or reopens a discussion. */
export async function setDiscussionStatus(
	id: string,
	num: number,
	status: StatusRequest["status"],
	options: ApiOptions,
): Promise<StatusChangeEvent> {
	const { data } = await requestJson<NewStatus>(
		apiUrl(options.baseUrl, discussionsPath(id, options, `/${num}/status`)),
		{ ...options, method: "POST", body: { status, comment: "" } satisfies StatusRequest },
	);
	return data.newStatus;
}

/** Merges a pull request into its target (write access; the hub refuses a conflict with a message). */
export async function mergePullRequest(
	id: string,
	num: number,
	options: ApiOptions,
): Promise<MergedPullRequest> {
	const { data } = await requestJson<MergedPullRequest>(
		apiUrl(options.baseUrl, discussionsPath(id, options, `/${num}/merge`)),
		{ ...options, method: "POST", body: { comment: "" } satisfies CommentRequest },
	);
	return data;
}

/** Replaces the text of one's own comment. */
export async function editComment(
	id: string,
	num: number,
	commentId: string,
	content: string,
	options: ApiOptions,
): Promise<CommentEvent> {
	const { data } = await requestJson<UpdatedComment>(
		apiUrl(
			options.baseUrl,
			discussionsPath(id, options, `/${num}/comment/${encodeURIComponent(commentId)}/edit`),
		),
		{ ...options, method: "POST", body: { content } satisfies EditCommentRequest },
	);
	return data.updatedComment;
}

/** Hides a comment for good: its text is dropped (its author, or a writer; the hub checks). */
export async function hideComment(
	id: string,
	num: number,
	commentId: string,
	options: ApiOptions,
): Promise<CommentEvent> {
	const { data } = await requestJson<UpdatedComment>(
		apiUrl(
			options.baseUrl,
			discussionsPath(id, options, `/${num}/comment/${encodeURIComponent(commentId)}/hide`),
		),
		{ ...options, method: "POST" },
	);
	return data.updatedComment;
}
