import type { FastifyReply, FastifyRequest } from "fastify";
import { AUTH_REQUIRED, RefusedError, type RepoRef, type Role } from "../accounts/viewer.js";
import { sendError } from "../http.js";
import { modelIdProblem } from "../models/ids.js";
import { authorizeRepo } from "../services/repos.js";
import type { WriteContext } from "../services/write.js";
import { refuse } from "./auth.js";

declare module "fastify" {
	interface FastifyRequest {
		/** The repository a write route acts on, once repoAccess() allowed it. */
		repo?: RepoRef;
	}
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
	context: Pick<WriteContext, "db">,
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
		try {
			request.repo = await authorizeRepo(context, request.viewer, id, need);
		} catch (error) {
			if (error instanceof RefusedError) return refuse(reply, error.refusal);
			throw error;
		}
		return undefined;
	};
}
