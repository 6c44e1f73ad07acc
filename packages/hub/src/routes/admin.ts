import type { FastifyInstance } from "fastify";
import type {
	AdminOrg,
	AdminToken,
	AdminUser,
	AuditPage,
	AuditParameters,
	CreatedOrg,
	CreatedToken,
	CreatedUser,
	CreateOrgRequest,
	CreateTokenRequest,
	CreateUserRequest,
	Membership,
	RemovedMember,
	RevokedToken,
	SetMemberRequest,
} from "../api/admin.js";
import { HubError } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import {
	addOrg,
	addToken,
	addUser,
	auditPage,
	orgsWithMembers,
	removeMember,
	setMember,
	tokensOf,
	usersWithOrgs,
	withdrawToken,
} from "../services/accounts.js";
import type { WriteContext } from "../services/write.js";
import { AUDIT_ACTIONS } from "../vocabulary.js";
import { choice, whole, one, type RawQuery } from "./query.js";
import { actorOf, adminOnly } from "./auth.js";
import { originOf } from "./models/context.js";
import { objectBody } from "./body.js";

export interface AdminRoutesOptions extends WriteContext {
	adminToken: string | undefined;
}

const MAX_AUDIT_PAGE = 1000;

/**
 * The admin API, authorised by MODELHUB_ADMIN_TOKEN: users, their tokens, organisations and their
 * members, and the audit log. HTTP only: the operations are services/accounts.ts's, which the CLI
 * calls too.
 */
export function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions): void {
	const route = { onRequest: adminOnly(options.adminToken), config: { auth: "admin" as const } };

	app.post("/api/admin/users", route, async (request, reply) => {
		const input = objectBody<CreateUserRequest>(request);
		const created = await addUser(options, actorOf(request), {
			name: input.name,
			fullname: input.fullname,
		});
		return reply
			.code(201)
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(created satisfies CreatedUser);
	});

	app.get("/api/admin/users", route, async (request, reply) => {
		return reply.type(JSON_TYPE).send((await usersWithOrgs(options, actorOf(request))) satisfies AdminUser[]);
	});

	app.post<{ Params: { user: string } }>("/api/admin/users/:user/tokens", route, async (request, reply) => {
		const input = objectBody<CreateTokenRequest>(request);
		const token = await addToken(options, actorOf(request), {
			user: request.params.user,
			role: input.scope ?? input.role,
			displayName: input.name ?? input.displayName,
		});
		return reply
			.code(201)
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send({
				name: token.account,
				token: token.token,
				id: token.id,
				scope: token.role,
				displayName: token.displayName,
			} satisfies CreatedToken);
	});

	app.get<{ Params: { user: string } }>("/api/admin/users/:user/tokens", route, async (request, reply) => {
		const tokens = await tokensOf(options, actorOf(request), request.params.user);
		return reply.type(JSON_TYPE).send(
			tokens.map((token): AdminToken => ({
				id: token.id,
				displayName: token.displayName,
				scope: token.role,
				createdAt: token.createdAt,
				lastUsedAt: token.lastUsedAt,
				revokedAt: token.revokedAt,
			})),
		);
	});

	app.delete<{ Params: { id: string } }>("/api/admin/tokens/:id", route, async (request, reply) => {
		const revoked = await withdrawToken(options, actorOf(request), request.params.id);
		if (!revoked) throw new HubError("NotFound", `no token with id ${request.params.id.slice(0, 64)}`);
		return reply
			.type(JSON_TYPE)
			.send({ id: revoked.id, name: revoked.account, revokedAt: revoked.revokedAt } satisfies RevokedToken);
	});

	app.post("/api/admin/orgs", route, async (request, reply) => {
		const input = objectBody<CreateOrgRequest>(request);
		const created = await addOrg(options, actorOf(request), {
			name: input.name,
			fullname: input.fullname,
			members: input.members,
		});
		return reply
			.code(201)
			.type(JSON_TYPE)
			.send({ name: created.org.name, members: created.members } satisfies CreatedOrg);
	});

	app.get("/api/admin/orgs", route, async (request, reply) => {
		return reply
			.type(JSON_TYPE)
			.send((await orgsWithMembers(options, actorOf(request))) satisfies AdminOrg[]);
	});

	app.put<{ Params: { org: string; user: string } }>(
		"/api/admin/orgs/:org/members/:user",
		route,
		async (request, reply) => {
			const member = await setMember(
				options,
				actorOf(request),
				request.params.org,
				request.params.user,
				objectBody<SetMemberRequest>(request).role,
			);
			return reply.type(JSON_TYPE).send(member satisfies Membership);
		},
	);

	app.delete<{ Params: { org: string; user: string } }>(
		"/api/admin/orgs/:org/members/:user",
		route,
		async (request, reply) => {
			const removed = await removeMember(options, actorOf(request), request.params.org, request.params.user);
			if (!removed) throw new HubError("NotFound", "no such membership");
			return reply.type(JSON_TYPE).send({ removed: true } satisfies RemovedMember);
		},
	);

	app.get("/api/admin/audit", route, async (request, reply) => {
		const q = request.query as RawQuery<keyof AuditParameters>;
		const limit = whole(q, "limit", 1, MAX_AUDIT_PAGE) ?? 100;
		const before = whole(q, "before", 1, Number.MAX_SAFE_INTEGER);
		const repo = one(q, "repo");
		const actor = one(q, "actor");
		const action = choice(q, "action", AUDIT_ACTIONS);
		const page = await auditPage(options, actorOf(request), {
			limit,
			...(before !== undefined ? { before } : {}),
			...(repo !== undefined ? { repo } : {}),
			...(actor !== undefined ? { actor } : {}),
			...(action !== undefined ? { action } : {}),
		});
		if (page.next !== undefined) {
			const next = new URLSearchParams();
			for (const [key, value] of Object.entries({ limit, repo, actor, action })) {
				if (value !== undefined) next.set(key, String(value));
			}
			next.set("before", String(page.next));
			reply.header("link", `<${originOf(request)}/api/admin/audit?${next.toString()}>; rel="next"`);
		}
		return reply.type(JSON_TYPE).send(page satisfies AuditPage);
	});
}
