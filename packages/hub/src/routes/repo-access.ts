import type { FastifyRequest } from "fastify";
import type { RepoRef } from "../accounts/viewer.js";
import type { RepoType } from "../repo-identity.js";
import { authorizeRepo } from "../services/repos.js";
import type { WriteContext } from "../services/write.js";
import type { Role } from "../vocabulary.js";
import { authenticationRequired } from "./auth.js";
import { checkRepoId, routeRepoId } from "./repo-paths.js";

declare module "fastify" {
	interface FastifyRequest {
		/** The repository a write route acts on, once repoAccess() allowed it. */
		repo?: RepoRef;
	}
}

/**
 * An onRequest hook: the viewer must hold `need` on the route's repository (of `type`, its id read by
 * `idOf`). Runs before the body is read, so an upload nobody may make is refused without receiving a
 * byte of it. Private repositories the viewer cannot read are answered as missing (RepoNotFound).
 */
export function repoAccess(
	context: Pick<WriteContext, "db">,
	need: Role,
	type: RepoType,
	idOf: (request: FastifyRequest) => string = routeRepoId,
) {
	return async (request: FastifyRequest): Promise<void> => {
		if (request.viewer.kind === "anonymous" && need !== "read") throw authenticationRequired();
		request.repo = await authorizeRepo(
			context,
			request.viewer,
			{ type, id: checkRepoId(idOf(request), type) },
			need,
		);
	};
}

/**
 * An onRequest hook for writes a reader may make too (a pull request's commits and uploads): anonymous
 * requests are refused as by a write route (401 before the repository is looked up), others need read;
 * the service then checks the right for the revision.
 */
export function proposerAccess(
	context: Pick<WriteContext, "db">,
	type: RepoType,
	idOf: (request: FastifyRequest) => string = routeRepoId,
) {
	const readable = repoAccess(context, "read", type, idOf);
	return async (request: FastifyRequest): Promise<void> => {
		if (request.viewer.kind === "anonymous") throw authenticationRequired();
		await readable(request);
	};
}
