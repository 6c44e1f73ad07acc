import type { FastifyInstance } from "fastify";
import { modelCount } from "../../services/models.js";
import { cachedCountRoute } from "../list-query.js";
import type { ModelRoutesOptions } from "./context.js";
import { MODEL_LIST_PATH, parseListQuery } from "./list.js";

/**
 * `GET /api/models-count`: how many models `GET /api/models` with the same filters would list in all,
 * as `{ count, exact }` (the web app's "N models"). The public hub's listing has no total, and adding one
 * there would make every page `list_models` walks pay for a count, so it is a route of its own.
 */
export function countRoute(app: FastifyInstance, options: ModelRoutesOptions): void {
	cachedCountRoute(app, options, `${MODEL_LIST_PATH}-count`, parseListQuery, (request, filters, cap) =>
		modelCount(options, { ...filters, viewer: request.viewer }, cap),
	);
}
