import type { FastifyInstance, FastifyRequest } from "fastify";
import type {
	CommentRequest,
	CreateDiscussionRequest,
	CreatedDiscussion,
	DiscussionDetails,
	DiscussionListParameters,
	DiscussionPage,
	EditCommentRequest,
	MergedPullRequest,
	NewMessage,
	NewStatus,
	NewTitle,
	StatusRequest,
	TitleRequest,
	UpdatedComment,
} from "../api/discussions.js";
import type { Unchecked } from "../api/unchecked.js";
import { HubError } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import {
	changeComment,
	changeDiscussionStatus,
	commentDiscussion,
	createDiscussion,
	discussionDetails,
	listRepoDiscussions,
	mergePullRequest,
	renameDiscussion,
	type DiscussionContext,
} from "../services/discussions.js";
import { actorOf } from "./auth.js";
import { objectBody } from "./body.js";
import { publicOrigin } from "./models/context.js";
import { choice, flag, one, whole, type RawQuery } from "./query.js";
import { repoAccess } from "./repo-access.js";
import { apiRoute, forEachRepoRoute, repoPageUrl, type RepoUrls, type RouteIdShape } from "./repo-paths.js";

export interface DiscussionRoutesOptions extends DiscussionContext {
	publicUrl: string | undefined;
}

/** A discussion's number from the URL: a whole number from 1; anything else names no discussion. */
function numberOf(request: FastifyRequest): number {
	const raw = (request.params as { num?: string }).num ?? "";
	if (!/^[1-9][0-9]{0,8}$/.test(raw))
		throw new HubError("NotFound", `Discussion #${raw.slice(0, 20)} not found`);
	return Number(raw);
}

/** A body that may be absent (huggingface_hub posts none to merge and hide). */
function optionalBody<Request>(request: FastifyRequest): Unchecked<Request> {
	return request.body === undefined || request.body === null ? {} : objectBody<Request>(request);
}

/**
 * The public hub's community API for every hosted repository type, as huggingface_hub 2.x calls it
 * (hf_api.py: get_repo_discussions, get_discussion_details, create_discussion, create_pull_request,
 * comment_discussion, rename_discussion, change_discussion_status, merge_pull_request,
 * edit_discussion_comment, hide_discussion_comment). Rights are the service's (services/discussions.ts):
 * the routes only check that the repository is readable before a body is read.
 */
export function discussionRoutes(app: FastifyInstance, options: DiscussionRoutesOptions): void {
	// `discussions` is a reserved repository name, so `/api/models/gpt2/discussions` is model gpt2's.
	forEachRepoRoute((urls, shape) => typeRoutes(app, options, urls, shape));
}

function typeRoutes(
	app: FastifyInstance,
	options: DiscussionRoutesOptions,
	urls: RepoUrls,
	shape: RouteIdShape,
): void {
	const route = (rest: string) => apiRoute(urls, rest, shape);
	const read = { onRequest: repoAccess(options, "read", urls.type) };
	const key = (request: FastifyRequest) => request.repo!;

	app.get(route("discussions"), read, async (request, reply) => {
		const query = request.query as RawQuery<keyof DiscussionListParameters>;
		const type = choice(query, "type", ["all", "discussion", "pull_request"] as const);
		const status = choice(query, "status", ["all", "open", "closed"] as const);
		const author = one(query, "author");
		const search = one(query, "search");
		const page = whole(query, "p", 0, 1_000_000) ?? 0;
		const listed = await listRepoDiscussions(
			options,
			request.viewer,
			key(request),
			{
				...(author !== undefined ? { author } : {}),
				...(type !== undefined && type !== "all" ? { type } : {}),
				...(status !== undefined && status !== "all" ? { status } : {}),
				...(search !== undefined ? { search: search.slice(0, 200) } : {}),
			},
			page,
		);
		return reply.type(JSON_TYPE).send({
			discussions: listed.discussions,
			count: listed.count,
			start: listed.start,
			numClosedDiscussions: listed.numClosed,
		} satisfies DiscussionPage);
	});

	app.post(route("discussions"), read, async (request, reply) => {
		const body = objectBody<CreateDiscussionRequest>(request);
		const row = await createDiscussion(options, actorOf(request), key(request), {
			title: body.title,
			description: body.description,
			pullRequest: body.pullRequest,
		});
		const repo = key(request);
		return reply.type(JSON_TYPE).send({
			num: row.num,
			url: `${repoPageUrl(publicOrigin(request, options.publicUrl), repo)}/discussions/${row.num}`,
			...(row.isPullRequest ? { gitReference: `refs/pr/${row.num}` } : {}),
		} satisfies CreatedDiscussion);
	});

	app.get(route("discussions/:num"), read, async (request, reply) => {
		const withDiff = flag(request.query as RawQuery<"diff">, "diff") === true;
		const details = await discussionDetails(
			options,
			request.viewer,
			key(request),
			numberOf(request),
			withDiff,
		);
		return reply.type(JSON_TYPE).send(details satisfies DiscussionDetails);
	});

	app.post(route("discussions/:num/comment"), read, async (request, reply) => {
		const body = objectBody<CommentRequest>(request);
		const event = await commentDiscussion(
			options,
			actorOf(request),
			key(request),
			numberOf(request),
			body.comment,
		);
		return reply.type(JSON_TYPE).send({ newMessage: event } as NewMessage);
	});

	app.post(route("discussions/:num/title"), read, async (request, reply) => {
		const body = objectBody<TitleRequest>(request);
		const event = await renameDiscussion(
			options,
			actorOf(request),
			key(request),
			numberOf(request),
			body.title,
		);
		return reply.type(JSON_TYPE).send({ newTitle: event } as NewTitle);
	});

	app.post(route("discussions/:num/status"), read, async (request, reply) => {
		const body = objectBody<StatusRequest>(request);
		const event = await changeDiscussionStatus(options, actorOf(request), key(request), numberOf(request), {
			status: body.status,
			comment: body.comment,
		});
		return reply.type(JSON_TYPE).send({ newStatus: event } as NewStatus);
	});

	app.post(route("discussions/:num/merge"), read, async (request, reply) => {
		const body = optionalBody<CommentRequest>(request);
		const num = numberOf(request);
		const merged = await mergePullRequest(options, actorOf(request), key(request), num, body.comment);
		return reply
			.type(JSON_TYPE)
			.send({ num, mergeCommitId: merged.mergeCommitId } satisfies MergedPullRequest);
	});

	app.post<{ Params: { num: string; comment: string } }>(
		route("discussions/:num/comment/:comment/edit"),
		read,
		async (request, reply) => {
			const body = objectBody<EditCommentRequest>(request);
			const updated = await changeComment(
				options,
				actorOf(request),
				key(request),
				numberOf(request),
				request.params.comment,
				{ content: body.content },
			);
			return reply.type(JSON_TYPE).send({ updatedComment: updated } satisfies UpdatedComment);
		},
	);

	app.post<{ Params: { num: string; comment: string } }>(
		route("discussions/:num/comment/:comment/hide"),
		read,
		async (request, reply) => {
			const updated = await changeComment(
				options,
				actorOf(request),
				key(request),
				numberOf(request),
				request.params.comment,
				{ hide: true },
			);
			return reply.type(JSON_TYPE).send({ updatedComment: updated } satisfies UpdatedComment);
		},
	);
}
