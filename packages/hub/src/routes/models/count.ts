import type { FastifyInstance } from "fastify";
import { JSON_TYPE } from "../../http.js";
import { modelCount } from "../../services/models.js";
import type { RawQuery } from "../query.js";
import { viewerCacheKey, type ModelRoutesOptions } from "./context.js";
import { MODEL_LIST_PATH, parseListQuery } from "./list.js";

/** Counting stops here: past it the answer is "at least this many" (`exact: false`). */
export const MAX_MODEL_COUNT = 100_000;

/**
 * `GET /api/models-count`: how many models `GET /api/models` with the same filters would list in all,
 * as `{ count, exact }` (the web app's "N models"). The public hub's listing has no total, and adding one
 * there would make every page `list_models` walks pay for a count, so it is a route of its own.
 */
export function countRoute(app: FastifyInstance, options: ModelRoutesOptions): void {
	const { cache } = options;
	app.get(`${MODEL_LIST_PATH}-count`, async (request, reply) => {
		// Counted per viewer: private models count only for those who may read them.
		const key = viewerCacheKey("c", request.viewer, request.url);
		const hit = cache.get(key);
		if (hit) return reply.type(JSON_TYPE).send(hit.body);
		const filters = parseListQuery(request.query as RawQuery).query;
		const version = cache.version;
		const body = Buffer.from(
			JSON.stringify(await modelCount(options, { ...filters, viewer: request.viewer }, MAX_MODEL_COUNT)),
		);
		cache.set(key, { body }, version);
		return reply.type(JSON_TYPE).send(body);
	});
}
