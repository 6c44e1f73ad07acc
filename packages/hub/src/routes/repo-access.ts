import type { FastifyReply, FastifyRequest } from "fastify";
import { AUTH_REQUIRED, repoRefusal, type RepoRef, type Role } from "../accounts/viewer.js";
import type { Queryable } from "../db/types.js";
import { REPO_NOT_FOUND, sendError, sendHubError } from "../http.js";
import { modelIdProblem } from "../models/ids.js";
import { refuse } from "./auth.js";

declare module "fastify" {
	interface FastifyRequest {
		/** The repository a write route acts on, once repoAccess() allowed it. */
		repo?: RepoRef;
	}
}

/** A model's id (stored spelling), namespace and visibility, found case-insensitively. */
export async function findRepo(db: Queryable, id: string): Promise<RepoRef | undefined> {
	const result = await db.query<{ id: string; author: string | null; private: boolean }>(
		"SELECT id, author, private FROM models WHERE lower(id) = lower($1)",
		[id],
	);
	const row = result.rows[0];
	return row ? { id: row.id, author: row.author, private: row.private } : undefined;
}

/** The model id of a `/api/models/:namespace/:name/…` route. */
export function routeModelId(request: FastifyRequest): string {
	const params = request.params as { namespace?: string; name?: string };
	return params.namespace === undefined ? (params.name ?? "") : `${params.namespace}/${params.name ?? ""}`;
}

/**
 * An onRequest hook: the viewer must hold `need` on the route's repository. Runs before the body is
 * read, so an upload nobody may make is refused without receiving a byte of it. Private repositories
 * the viewer cannot read are answered as missing (RepoNotFound).
 */
export function repoAccess(
	db: Queryable,
	need: Role,
	modelId: (request: FastifyRequest) => string = routeModelId,
) {
	return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
		if (request.viewer.kind === "anonymous" && need !== "read") {
			return refuse(reply, { status: 401, message: AUTH_REQUIRED });
		}
		const id = modelId(request);
		const problem = modelIdProblem(id);
		if (problem) return sendError(reply, 400, `invalid model id: ${problem}`);
		const repo = await findRepo(db, id);
		if (!repo) return sendHubError(reply, "RepoNotFound", REPO_NOT_FOUND);
		const refusal = repoRefusal(request.viewer, repo, need);
		if (refusal) return refuse(reply, refusal);
		request.repo = repo;
		return undefined;
	};
}
