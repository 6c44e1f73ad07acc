import type { FastifyInstance } from "fastify";
import type { ModelRoutesOptions } from "./context.js";
import { countRoute } from "./count.js";
import { listRoute } from "./list.js";
import { repoRoutes } from "./repo.js";
import { resolveRoutes } from "./resolve.js";

export type { ModelRoutesOptions } from "./context.js";

/** The hub API of models: listing, info, revisions, trees, paths-info, refs, file downloads, admin writes. */
export async function modelRoutes(app: FastifyInstance, options: ModelRoutesOptions): Promise<void> {
	listRoute(app, options);
	countRoute(app, options);
	repoRoutes(app, options);
	resolveRoutes(app, options);
}
