import type { FastifyRequest } from "fastify";
import type { RepoRef } from "../accounts/viewer.js";
import { authorizeRepo } from "../services/repos.js";
import type { WriteContext } from "../services/write.js";
import type { Role } from "../vocabulary.js";
import { authenticationRequired } from "./auth.js";
import { checkModelId } from "./repo-paths.js";

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
	return async (request: FastifyRequest): Promise<void> => {
		if (request.viewer.kind === "anonymous" && need !== "read") throw authenticationRequired();
		request.repo = await authorizeRepo(context, request.viewer, checkModelId(modelId(request)), need);
	};
}
