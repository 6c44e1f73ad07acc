import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { PIPELINE_TYPES } from "@modelhub/tasks";
import { checkAdmin } from "../auth.js";
import type { ResponseCache } from "../cache.js";
import type { Database } from "../db/types.js";
import { JSON_TYPE, sendError } from "../http.js";
import { decodeCursor, SORT_KEYS, type Direction, type SortKey } from "../models/cursor.js";
import { idPartProblem } from "../models/ids.js";
import { ModelInputError, parseModelInput } from "../models/input.js";
import { ConflictError, deleteModel, getModel, listModels, notifyChange, putModel } from "../models/store.js";

export interface ModelRoutesOptions {
	db: Database;
	cache: ResponseCache;
	adminToken: string | undefined;
}

/** Values `expand` accepts: the mapping, plus the model's own fields (the public hub's vocabulary). */
const FULL_FIELDS = [
	"config",
	"cardData",
	"widgetData",
	"transformersInfo",
	"mask_token",
	"safetensors",
	"gguf",
];
export const EXPAND_VALUES = [
	"inferenceProviderMapping",
	"author",
	"pipeline_tag",
	"library_name",
	"tags",
	"downloads",
	"likes",
	"lastModified",
	"private",
	...FULL_FIELDS,
];

const expandSchema = {
	type: "array",
	items: { type: "string", enum: EXPAND_VALUES },
	maxItems: EXPAND_VALUES.length,
} as const;

const modelQuerySchema = {
	type: "object",
	additionalProperties: false,
	properties: { expand: expandSchema, "expand[]": expandSchema },
} as const;

const listQuerySchema = {
	type: "object",
	additionalProperties: false,
	properties: {
		search: { type: "string", maxLength: 200, pattern: "^[^\\u0000]*$" },
		pipeline_tag: { type: "string", enum: ["", ...PIPELINE_TYPES] },
		library: { type: "string", maxLength: 64, pattern: "^([A-Za-z0-9][A-Za-z0-9._+-]*)?$" },
		author: { type: "string", maxLength: 96, pattern: "^([A-Za-z0-9][A-Za-z0-9._-]*)?$" },
		sort: { type: "string", enum: [...SORT_KEYS] },
		direction: { type: "string", enum: ["-1", "1"] },
		limit: { type: "integer", minimum: 1, maximum: 100 },
		cursor: { type: "string", maxLength: 1024 },
		expand: expandSchema,
		"expand[]": expandSchema,
	},
} as const;

interface ModelParams {
	namespace: string;
	name: string;
}

interface ExpandQuery {
	expand?: string[];
	"expand[]"?: string[];
}

interface ListQuerystring extends ExpandQuery {
	search?: string;
	pipeline_tag?: string;
	library?: string;
	author?: string;
	sort?: SortKey;
	direction?: "-1" | "1";
	limit?: number;
	cursor?: string;
}

function expandOf(query: ExpandQuery): Set<string> {
	return new Set([...(query.expand ?? []), ...(query["expand[]"] ?? [])]);
}

function idOf(params: ModelParams): { id: string } | { error: string } {
	const problem = idPartProblem(params.namespace, "namespace") ?? idPartProblem(params.name, "model name");
	return problem ? { error: `invalid model id: ${problem}` } : { id: `${params.namespace}/${params.name}` };
}

/** The scheme and host to put in absolute Link URLs, when the Host header is a plain host name. */
function originOf(request: FastifyRequest): string {
	const host = request.host;
	return typeof host === "string" && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
		? `${request.protocol}://${host}`
		: "";
}

export async function modelRoutes(app: FastifyInstance, options: ModelRoutesOptions): Promise<void> {
	const { db, cache, adminToken } = options;

	async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
		const result = checkAdmin(request.headers.authorization, adminToken);
		if (result.ok) return undefined;
		if (result.status === 401) reply.header("www-authenticate", 'Bearer realm="modelhub"');
		return sendError(reply, result.status, result.error);
	}

	app.get<{ Params: ModelParams; Querystring: ExpandQuery }>(
		"/api/models/:namespace/:name",
		{ schema: { querystring: modelQuerySchema } },
		// Not an async function: a cache hit (the hot path) is answered without creating a promise.
		(request, reply) => {
			const parsed = idOf(request.params);
			if ("error" in parsed) return sendError(reply, 400, parsed.error);
			const withMappings = expandOf(request.query).has("inferenceProviderMapping");
			const key = `${withMappings ? "m+" : "m:"}${parsed.id.toLowerCase()}`;
			const hit = cache.get(key);
			if (hit) {
				reply.type(JSON_TYPE).send(hit.body);
				return undefined;
			}
			const version = cache.version;
			return getModel(db, parsed.id, { withMappings }).then((model) => {
				if (!model) return sendError(reply, 404, `model ${parsed.id} not found`);
				const body = Buffer.from(JSON.stringify(model));
				cache.set(key, { body }, version);
				return reply.type(JSON_TYPE).send(body);
			});
		},
	);

	app.get<{ Querystring: ListQuerystring }>(
		"/api/models",
		{ schema: { querystring: listQuerySchema } },
		async (request, reply) => {
			const q = request.query;
			const sort: SortKey = q.sort ?? "downloads";
			const direction: Direction = q.direction === "1" ? 1 : -1;
			const limit = q.limit ?? 20;
			const expand = expandOf(q);
			const after = q.cursor ? decodeCursor(q.cursor, sort, direction) : undefined;
			if (typeof after === "string")
				return sendError(reply, 400, `invalid value for query parameter 'cursor': ${after}`);
			const query = {
				search: q.search || undefined,
				pipelineTag: q.pipeline_tag || undefined,
				library: q.library || undefined,
				author: q.author || undefined,
				sort,
				direction,
				limit,
				after,
				withMappings: expand.has("inferenceProviderMapping"),
				full: FULL_FIELDS.some((field) => expand.has(field)),
			};
			const key = `l:${JSON.stringify([query.search, query.pipelineTag, query.library, query.author, sort, direction, limit, q.cursor, query.withMappings, query.full])}`;
			let entry = cache.get(key);
			if (!entry) {
				const version = cache.version;
				const page = await listModels(db, query);
				entry = { body: Buffer.from(JSON.stringify(page.models)), next: page.next };
				cache.set(key, entry, version);
			}
			if (entry.next) {
				const params = new URLSearchParams();
				if (query.search) params.set("search", query.search);
				if (query.pipelineTag) params.set("pipeline_tag", query.pipelineTag);
				if (query.library) params.set("library", query.library);
				if (query.author) params.set("author", query.author);
				params.set("sort", sort);
				params.set("direction", String(direction));
				params.set("limit", String(limit));
				for (const value of expand) params.append("expand[]", value);
				params.set("cursor", entry.next);
				reply.header("link", `<${originOf(request)}/api/models?${params.toString()}>; rel="next"`);
				reply.header("x-next-cursor", entry.next);
			}
			return reply.type(JSON_TYPE).send(entry.body);
		},
	);

	app.put<{ Params: ModelParams }>(
		"/api/models/:namespace/:name",
		{ onRequest: requireAdmin },
		async (request, reply) => {
			const parsed = idOf(request.params);
			if ("error" in parsed) return sendError(reply, 400, parsed.error);
			let model;
			try {
				model = parseModelInput(request.body, parsed.id);
			} catch (error) {
				if (error instanceof ModelInputError) return sendError(reply, 400, error.message);
				throw error;
			}
			let created: boolean;
			try {
				created = await db.transaction(async (tx) => {
					const result = await putModel(tx, model);
					await notifyChange(tx);
					return result.created;
				});
			} catch (error) {
				if (error instanceof ConflictError) return sendError(reply, 409, error.message);
				throw error;
			} finally {
				cache.clear();
			}
			const stored = await getModel(db, parsed.id, { withMappings: true });
			return reply
				.code(created ? 201 : 200)
				.type(JSON_TYPE)
				.send(stored);
		},
	);

	app.delete<{ Params: ModelParams }>(
		"/api/models/:namespace/:name",
		{ onRequest: requireAdmin },
		async (request, reply) => {
			const parsed = idOf(request.params);
			if ("error" in parsed) return sendError(reply, 400, parsed.error);
			let deleted: string | undefined;
			try {
				deleted = await db.transaction(async (tx) => {
					const id = await deleteModel(tx, parsed.id);
					if (id !== undefined) await notifyChange(tx);
					return id;
				});
			} finally {
				cache.clear();
			}
			if (deleted === undefined) return sendError(reply, 404, `model ${parsed.id} not found`);
			return reply.type(JSON_TYPE).send({ deleted });
		},
	);
}
