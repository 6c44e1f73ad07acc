import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type {
	AccessRequestEntry,
	AccessState,
	AskAccessRequest,
	GrantAccessRequest,
	HandleAccessRequest,
	LikeAnswer,
	RepoLiker,
	UserLike,
} from "../api/community.js";
import { HubError } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import { encodeRepoId, repoApiPath } from "../repo-identity.js";
import {
	accessState,
	grantAccess,
	handleAccessRequest,
	listAccessRequests,
	requestAccess,
	type AccessCursor,
} from "../services/gated.js";
import { repoLikers, setLike, userLikes } from "../services/likes.js";
import { actorOf } from "./auth.js";
import { objectBody } from "./body.js";
import { originOf, type ModelRoutesOptions } from "./models/context.js";
import { one, whole, type RawQuery } from "./query.js";
import { repoAccess } from "./repo-access.js";
import { apiRoute, forEachRepoRoute } from "./repo-paths.js";

/** Entries per page of the request lists, likers and likes: by default, and at most. */
const PAGE = 500;
const MAX_PAGE = 1000;

const STATUSES = ["pending", "accepted", "rejected"] as const;

/** An opaque cursor: base64url of a JSON value (a forged one is a 400). */
function encodeCursor(value: unknown): string {
	return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function decodeCursor<T>(text: string | undefined, valid: (value: unknown) => value is T): T | undefined {
	if (text === undefined) return undefined;
	try {
		const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
		if (valid(value)) return value;
	} catch {
		// answered below
	}
	throw new HubError("Invalid", "invalid 'cursor': pass the one the Link header gave");
}

function isAccessCursor(value: unknown): value is AccessCursor {
	const cursor = value as AccessCursor;
	return (
		typeof value === "object" &&
		value !== null &&
		typeof cursor.account === "string" &&
		typeof cursor.requestedAt === "string" &&
		!Number.isNaN(Date.parse(cursor.requestedAt))
	);
}

function isLikeCursor(value: unknown): value is { likedAt: string; type: "model" | "dataset"; id: string } {
	const cursor = value as { likedAt?: unknown; type?: unknown; id?: unknown };
	return (
		typeof value === "object" &&
		value !== null &&
		typeof cursor.likedAt === "string" &&
		!Number.isNaN(Date.parse(cursor.likedAt)) &&
		(cursor.type === "model" || cursor.type === "dataset") &&
		typeof cursor.id === "string"
	);
}

type PageQuery = RawQuery<"limit" | "cursor">;

/** Sends a page, with `Link: <…>; rel="next"` (huggingface_hub's paginate() follows it) when more follow. */
function sendPage(
	request: FastifyRequest,
	reply: FastifyReply,
	path: string,
	limit: number,
	next: string | undefined,
	entries: unknown[],
): FastifyReply {
	if (next !== undefined) {
		const query = new URLSearchParams({ limit: String(limit), cursor: next });
		reply.header("link", `<${originOf(request)}${path}?${query.toString()}>; rel="next"`);
	}
	return reply.header("cache-control", "no-store").type(JSON_TYPE).send(entries);
}

/**
 * Gated access and likes (issue 24), for every hosted repository type: the owner's side of access
 * requests as huggingface_hub calls it, the requester's form (`…/ask-access`, this hub's), `like`,
 * `unlike`, likers and a user's likes. HTTP only: services/gated.ts and services/likes.ts decide.
 */
export function communityRoutes(app: FastifyInstance, options: ModelRoutesOptions): void {
	// The action words (`like`, `likers`, `ask-access`, `user-access-request`) are reserved repository
	// names, so `/api/models/gpt2/likers` is model gpt2's likers, never the info of a model `gpt2/likers`.
	forEachRepoRoute((urls, shape) => {
		const { type } = urls;
		const read = { onRequest: repoAccess(options, "read", type) };

		for (const status of STATUSES) {
			app.get(apiRoute(urls, `user-access-request/${status}`, shape), read, async (request, reply) => {
				const query = request.query as PageQuery;
				const limit = whole(query, "limit", 1, MAX_PAGE) ?? PAGE;
				const after = decodeCursor(one(query, "cursor"), isAccessCursor);
				const repo = request.repo!;
				const page = await listAccessRequests(options, request.viewer, repo, status, { limit, after });
				const path = `${repoApiPath({ type, id: repo.id })}/user-access-request/${status}`;
				return sendPage(
					request,
					reply,
					path,
					limit,
					page.next && encodeCursor(page.next),
					page.entries satisfies AccessRequestEntry[],
				);
			});
		}

		app.post(apiRoute(urls, "user-access-request/handle", shape), read, async (request, reply) => {
			const body = objectBody<HandleAccessRequest>(request);
			const entry = await handleAccessRequest(options, actorOf(request), request.repo!, {
				user: body.user,
				status: body.status,
				rejectionReason: body.rejectionReason,
			});
			return reply.type(JSON_TYPE).send(entry satisfies AccessRequestEntry);
		});

		app.post(apiRoute(urls, "user-access-request/grant", shape), read, async (request, reply) => {
			const body = objectBody<GrantAccessRequest>(request);
			const entry = await grantAccess(options, actorOf(request), request.repo!, { user: body.user });
			return reply.type(JSON_TYPE).send(entry satisfies AccessRequestEntry);
		});

		app.get(apiRoute(urls, "ask-access", shape), read, async (request, reply) => {
			const state = await accessState(options, request.viewer, request.repo!);
			return reply
				.header("cache-control", "no-store")
				.type(JSON_TYPE)
				.send(state satisfies AccessState);
		});

		app.post(apiRoute(urls, "ask-access", shape), read, async (request, reply) => {
			const body = request.body === undefined ? {} : objectBody<AskAccessRequest>(request);
			const state = await requestAccess(options, actorOf(request), request.repo!, body.fields);
			return reply.type(JSON_TYPE).send(state satisfies AccessState);
		});

		for (const [method, liked] of [
			["post", true],
			["delete", false],
		] as const) {
			app[method](apiRoute(urls, "like", shape), read, async (request, reply) => {
				const answer = await setLike(options, actorOf(request), request.repo!, liked);
				return reply.type(JSON_TYPE).send(answer satisfies LikeAnswer);
			});
		}

		app.get(apiRoute(urls, "likers", shape), read, async (request, reply) => {
			const query = request.query as PageQuery;
			const limit = whole(query, "limit", 1, MAX_PAGE) ?? PAGE;
			const after = one(query, "cursor");
			const repo = request.repo!;
			const page = await repoLikers(options, request.viewer, repo, { limit, after });
			const path = `${repoApiPath({ type, id: repo.id })}/likers`;
			return sendPage(request, reply, path, limit, page.next, page.likers satisfies RepoLiker[]);
		});
	});

	app.get<{ Params: { name: string } }>("/api/users/:name/likes", async (request, reply) => {
		const query = request.query as PageQuery;
		const limit = whole(query, "limit", 1, MAX_PAGE) ?? PAGE;
		const after = decodeCursor(one(query, "cursor"), isLikeCursor);
		const page = await userLikes(options, request.viewer, request.params.name, { limit, after });
		if (!page) throw new HubError("NotFound", `no user named ${request.params.name.slice(0, 100)}`);
		const path = `/api/users/${encodeRepoId(request.params.name)}/likes`;
		return sendPage(
			request,
			reply,
			path,
			limit,
			page.next && encodeCursor(page.next),
			page.likes satisfies UserLike[],
		);
	});
}
