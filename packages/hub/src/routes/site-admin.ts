import type { FastifyInstance } from "fastify";
import type {
	AdminAccount,
	AdminInvite,
	AdminListParameters,
	RevokedInvite,
	SetSiteAdminRequest,
	SiteAdminChange,
} from "../api/sessions.js";
import { JSON_TYPE } from "../http.js";
import { grantSiteAdmin, invitesFor, revokeInvite, usersFor } from "../services/sessions.js";
import type { WriteContext } from "../services/write.js";
import { actorOf } from "./auth.js";
import { objectBody } from "./body.js";
import { originOf } from "./models/context.js";
import { one, whole, type RawQuery } from "./query.js";

/** Accounts and invites per page of the admin lists: by default, and at most. */
const ADMIN_PAGE = 100;
const MAX_ADMIN_PAGE = 1000;
/** Longer cursors cannot be account names (at most 96 characters). */
const MAX_CURSOR = 100;

/**
 * What the web's site administration pages use: the users with their state (paged by name), the
 * invites (newest first), revoking an unused invite, and the hub admin's grant of the site-admin role.
 * HTTP only: services/sessions.ts decides who may (the hub admin; site admins for all but the grant).
 */
export function siteAdminRoutes(app: FastifyInstance, options: WriteContext): void {
	app.get("/api/admin/accounts", async (request, reply) => {
		const query = request.query as RawQuery<keyof AdminListParameters>;
		const limit = whole(query, "limit", 1, MAX_ADMIN_PAGE) ?? ADMIN_PAGE;
		const cursor = one(query, "cursor")?.slice(0, MAX_CURSOR);
		// One more than asked: whether there is a next page.
		const rows = await usersFor(options, actorOf(request), {
			limit: limit + 1,
			...(cursor !== undefined ? { after: cursor } : {}),
		});
		const page = rows.slice(0, limit);
		const last = page.at(-1);
		if (rows.length > limit && last) {
			const next = new URLSearchParams({ limit: String(limit), cursor: last.name });
			reply.header("link", `<${originOf(request)}/api/admin/accounts?${next.toString()}>; rel="next"`);
		}
		return reply
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(page satisfies AdminAccount[]);
	});

	app.get("/api/admin/invites", async (request, reply) => {
		const query = request.query as RawQuery<keyof AdminListParameters>;
		const limit = whole(query, "limit", 1, MAX_ADMIN_PAGE) ?? ADMIN_PAGE;
		const invites = await invitesFor(options, actorOf(request), limit);
		return reply
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(invites satisfies AdminInvite[]);
	});

	app.delete<{ Params: { id: string } }>("/api/admin/invites/:id", async (request, reply) => {
		await revokeInvite(options, actorOf(request), request.params.id);
		return reply.type(JSON_TYPE).send({ id: request.params.id, revoked: true } satisfies RevokedInvite);
	});

	app.put<{ Params: { user: string } }>("/api/admin/users/:user/site-admin", async (request, reply) => {
		const input = objectBody<SetSiteAdminRequest>(request);
		const change = await grantSiteAdmin(options, actorOf(request), request.params.user, input.siteAdmin);
		return reply.type(JSON_TYPE).send(change satisfies SiteAdminChange);
	});
}
