import type { FastifyInstance } from "fastify";
import type {
	OrgMemberChange,
	OrgMembersParameters,
	OrgOverview,
	QuickSearchAnswer,
	QuickSearchParameters,
	SetOrgMemberRequest,
	UserOverview,
} from "../api/people.js";
import { HubError } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import { removeMember, setMember } from "../services/accounts.js";
import { orgMembers, orgOverview, quickSearch, userOverview, type SearchType } from "../services/people.js";
import type { WriteContext } from "../services/write.js";
import { many, one, whole, invalidParameter, type RawQuery } from "./query.js";
import { actorOf } from "./auth.js";
import { originOf } from "./models/context.js";
import { objectBody } from "./body.js";

/** Members per page of `GET /api/organizations/{name}/members`: by default, and at most. */
const MEMBERS_PAGE = 500;
const MAX_MEMBERS_PAGE = 1000;
/** Results of each kind of `GET /api/quicksearch`: by default, and at most. */
const SEARCH_RESULTS = 5;
const MAX_SEARCH_RESULTS = 20;
/** The longest search text looked for (longer names cannot exist: ids are at most 96 + 1 + 96). */
const MAX_SEARCH_TEXT = 200;
const SEARCH_TYPES: readonly SearchType[] = ["model", "dataset", "user", "org"];

function noUser(name: string): HubError {
	return new HubError("NotFound", `no user named ${name.slice(0, 100)}`);
}

function noOrg(name: string): HubError {
	return new HubError("NotFound", `no organisation named ${name.slice(0, 100)}`);
}

/**
 * Users and organisations as huggingface_hub reads them (overviews, members), the member changes an
 * organisation's admins make, and the header search. HTTP only: services/people.ts and
 * services/accounts.ts decide what is shown and who may change what.
 */
export function peopleRoutes(app: FastifyInstance, options: WriteContext): void {
	app.get<{ Params: { name: string } }>("/api/users/:name/overview", async (request, reply) => {
		const overview = await userOverview(options, request.viewer, request.params.name);
		if (!overview) throw noUser(request.params.name);
		return reply
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(overview satisfies UserOverview);
	});

	app.get<{ Params: { name: string } }>("/api/organizations/:name/overview", async (request, reply) => {
		const overview = await orgOverview(options, request.viewer, request.params.name);
		if (!overview) throw noOrg(request.params.name);
		return reply
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(overview satisfies OrgOverview);
	});

	app.get<{ Params: { name: string } }>("/api/organizations/:name/members", async (request, reply) => {
		const query = request.query as RawQuery<keyof OrgMembersParameters>;
		const limit = whole(query, "limit", 1, MAX_MEMBERS_PAGE) ?? MEMBERS_PAGE;
		const cursor = one(query, "cursor");
		const page = await orgMembers(options, request.viewer, request.params.name, {
			limit,
			...(cursor !== undefined ? { after: cursor } : {}),
		});
		if (!page) throw noOrg(request.params.name);
		if (page.next !== undefined) {
			const next = new URLSearchParams({ limit: String(limit), cursor: page.next });
			const path = `/api/organizations/${encodeURIComponent(page.org)}/members`;
			// huggingface_hub's paginate() follows this header.
			reply.header("link", `<${originOf(request)}${path}?${next.toString()}>; rel="next"`);
		}
		return reply.header("cache-control", "no-store").type(JSON_TYPE).send(page.members);
	});

	app.put<{ Params: { org: string; user: string } }>(
		"/api/organizations/:org/members/:user",
		async (request, reply) => {
			const member = await setMember(
				options,
				actorOf(request),
				request.params.org,
				request.params.user,
				objectBody<SetOrgMemberRequest>(request).role,
			);
			return reply.type(JSON_TYPE).send(member satisfies OrgMemberChange);
		},
	);

	app.delete<{ Params: { org: string; user: string } }>(
		"/api/organizations/:org/members/:user",
		async (request, reply) => {
			const { org, user } = request.params;
			const removed = await removeMember(options, actorOf(request), org, user);
			if (!removed)
				throw new HubError("NotFound", `${user.slice(0, 100)} is not a member of ${org.slice(0, 100)}`);
			return reply.type(JSON_TYPE).send({ org, user, role: null } satisfies OrgMemberChange);
		},
	);

	app.get("/api/quicksearch", async (request, reply) => {
		const query = request.query as RawQuery<keyof QuickSearchParameters>;
		const text = (one(query, "q") ?? "").trim();
		if (text.length > MAX_SEARCH_TEXT) {
			throw invalidParameter("q", `longer than ${MAX_SEARCH_TEXT} characters`);
		}
		// Types this hub has no repositories or accounts of (space, paper…) are ignored, not refused:
		// clients ask for several at once.
		const asked = many(query, "type", 10, true);
		const types = new Set(
			asked.length === 0 ? SEARCH_TYPES : SEARCH_TYPES.filter((type) => asked.includes(type)),
		);
		const limit = whole(query, "limit", 1, MAX_SEARCH_RESULTS) ?? SEARCH_RESULTS;
		const answer = await quickSearch(options, request.viewer, { text, types, limit });
		return reply
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(answer satisfies QuickSearchAnswer);
	});
}
