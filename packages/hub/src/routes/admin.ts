import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
	AccountInputError,
	AccountNotFoundError,
	checkRole,
	createOrg,
	createUser,
	getAccount,
	issueToken,
	listAccounts,
	listMembers,
	listTokens,
	removeMembership,
	revokeToken,
	setMembership,
} from "../accounts/store.js";
import { AUDIT_ACTIONS, listAudit, recordAudit } from "../audit/log.js";
import type { ResponseCache } from "../cache.js";
import { notifyChange } from "../db/changes.js";
import type { Database } from "../db/types.js";
import { JSON_TYPE, sendError } from "../http.js";
import { ConflictError } from "../models/store.js";
import { choice, QueryError, whole, one, type RawQuery } from "./query.js";
import { adminOnly, auditContext } from "./auth.js";
import { originOf } from "./models/context.js";

export interface AdminRoutesOptions {
	db: Database;
	cache: ResponseCache;
	adminToken: string | undefined;
}

const MAX_AUDIT_PAGE = 1000;

function body(request: FastifyRequest): Record<string, unknown> {
	const value = request.body;
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		throw new AccountInputError("request body must be a JSON object");
	}
	return value as Record<string, unknown>;
}

/** The account errors as HTTP answers; anything else is rethrown. */
function answerError(reply: FastifyReply, error: unknown): FastifyReply {
	if (error instanceof AccountInputError || error instanceof QueryError)
		return sendError(reply, 400, error.message);
	if (error instanceof AccountNotFoundError) return sendError(reply, 404, error.message);
	if (error instanceof ConflictError) return sendError(reply, 409, error.message);
	throw error;
}

/**
 * The admin API, authorised by MODELHUB_ADMIN_TOKEN: users, their tokens, organisations and their
 * members, and the audit log. The CLI offers the same operations on the database directly.
 */
export function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions): void {
	const { db, cache } = options;
	const route = { onRequest: adminOnly(options.adminToken), config: { auth: "admin" as const } };

	app.post("/api/admin/users", route, async (request, reply) => {
		try {
			const input = body(request);
			const result = await db.transaction(async (tx) => {
				const user = await createUser(tx, { name: input.name, fullname: input.fullname });
				const token = await issueToken(tx, { user: user.name, role: "write" });
				await recordAudit(tx, [
					{ ...auditContext(request), action: "user.create", details: { user: user.name } },
					{
						...auditContext(request),
						action: "token.create",
						details: { user: user.name, token: token.id, scope: token.role },
					},
				]);
				return { name: user.name, token: token.token };
			});
			return reply.code(201).header("cache-control", "no-store").type(JSON_TYPE).send(result);
		} catch (error) {
			return answerError(reply, error);
		}
	});

	app.get("/api/admin/users", route, async (_request, reply) => {
		const users = await listAccounts(db, "user");
		const memberships = await db.query<{ member: string; org: string; role: string }>(
			"SELECT member, org, role FROM memberships ORDER BY org",
		);
		return reply.type(JSON_TYPE).send(
			users.map((user) => ({
				name: user.name,
				fullname: user.fullname,
				createdAt: user.createdAt,
				orgs: memberships.rows
					.filter((row) => row.member === user.name)
					.map((row) => ({ name: row.org, role: row.role })),
			})),
		);
	});

	app.post<{ Params: { user: string } }>("/api/admin/users/:user/tokens", route, async (request, reply) => {
		try {
			const input = body(request);
			const token = await db.transaction(async (tx) => {
				const issued = await issueToken(tx, {
					user: request.params.user,
					role: input.scope ?? input.role,
					displayName: input.name ?? input.displayName,
				});
				await recordAudit(tx, {
					...auditContext(request),
					action: "token.create",
					details: { user: issued.account, token: issued.id, scope: issued.role },
				});
				return issued;
			});
			return reply.code(201).header("cache-control", "no-store").type(JSON_TYPE).send({
				name: token.account,
				token: token.token,
				id: token.id,
				scope: token.role,
				displayName: token.displayName,
			});
		} catch (error) {
			return answerError(reply, error);
		}
	});

	app.get<{ Params: { user: string } }>("/api/admin/users/:user/tokens", route, async (request, reply) => {
		try {
			const tokens = await listTokens(db, request.params.user);
			return reply.type(JSON_TYPE).send(
				tokens.map((token) => ({
					id: token.id,
					displayName: token.displayName,
					scope: token.role,
					createdAt: token.createdAt,
					lastUsedAt: token.lastUsedAt,
					revokedAt: token.revokedAt,
				})),
			);
		} catch (error) {
			return answerError(reply, error);
		}
	});

	app.delete<{ Params: { id: string } }>("/api/admin/tokens/:id", route, async (request, reply) => {
		const revoked = await db.transaction(async (tx) => {
			const token = await revokeToken(tx, request.params.id);
			if (token) {
				await recordAudit(tx, {
					...auditContext(request),
					action: "token.revoke",
					details: { user: token.account, token: token.id },
				});
			}
			return token;
		});
		if (!revoked) return sendError(reply, 404, `no token with id ${request.params.id.slice(0, 64)}`);
		return reply
			.type(JSON_TYPE)
			.send({ id: revoked.id, name: revoked.account, revokedAt: revoked.revokedAt });
	});

	app.post("/api/admin/orgs", route, async (request, reply) => {
		try {
			const input = body(request);
			const created = await db.transaction(async (tx) => {
				const result = await createOrg(tx, {
					name: input.name,
					fullname: input.fullname,
					members: input.members,
				});
				await recordAudit(tx, {
					...auditContext(request),
					action: "org.create",
					details: { org: result.org.name, members: result.members },
				});
				await notifyChange(tx);
				return result;
			});
			cache.clear();
			return reply.code(201).type(JSON_TYPE).send({ name: created.org.name, members: created.members });
		} catch (error) {
			return answerError(reply, error);
		}
	});

	app.get("/api/admin/orgs", route, async (_request, reply) => {
		const orgs = await listAccounts(db, "org");
		const out = [];
		for (const org of orgs)
			out.push({ name: org.name, fullname: org.fullname, members: await listMembers(db, org.name) });
		return reply.type(JSON_TYPE).send(out);
	});

	app.put<{ Params: { org: string; user: string } }>(
		"/api/admin/orgs/:org/members/:user",
		route,
		async (request, reply) => {
			try {
				const role = checkRole(body(request).role);
				const member = await db.transaction(async (tx) => {
					const org = await getAccount(tx, request.params.org);
					const set = await setMembership(tx, request.params.org, request.params.user, role);
					await recordAudit(tx, {
						...auditContext(request),
						action: "org.member.set",
						details: { org: org?.name, user: set.user, role },
					});
					await notifyChange(tx);
					return { org: org?.name, ...set };
				});
				cache.clear();
				return reply.type(JSON_TYPE).send(member);
			} catch (error) {
				return answerError(reply, error);
			}
		},
	);

	app.delete<{ Params: { org: string; user: string } }>(
		"/api/admin/orgs/:org/members/:user",
		route,
		async (request, reply) => {
			const removed = await db.transaction(async (tx) => {
				const done = await removeMembership(tx, request.params.org, request.params.user);
				if (done) {
					await recordAudit(tx, {
						...auditContext(request),
						action: "org.member.remove",
						details: { org: request.params.org, user: request.params.user },
					});
					await notifyChange(tx);
				}
				return done;
			});
			cache.clear();
			if (!removed) return sendError(reply, 404, "no such membership");
			return reply.type(JSON_TYPE).send({ removed: true });
		},
	);

	app.get("/api/admin/audit", route, async (request, reply) => {
		try {
			const q = request.query as RawQuery;
			const limit = whole(q, "limit", 1, MAX_AUDIT_PAGE) ?? 100;
			const before = whole(q, "before", 1, Number.MAX_SAFE_INTEGER);
			const repo = one(q, "repo");
			const actor = one(q, "actor");
			const action = choice(q, "action", AUDIT_ACTIONS);
			const page = await listAudit(db, {
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
			return reply.type(JSON_TYPE).send(page);
		} catch (error) {
			return answerError(reply, error);
		}
	});
}
