import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { MAX_PATH_LENGTH, repoPathProblem } from "@modelhub/tasks/repositories";
import type { DatasetInfoParameters } from "../../api/datasets.js";
import type { ModelInfoParameters } from "../../api/models.js";
import { DATASET_INFO_PROPERTIES, isDatasetProperty } from "../../datasets/properties.js";
import { datasetInfo } from "../../services/datasets.js";
import type { Deleted, PathsInfoRequest, RefsParameters, RepoRefs, TreeParameters } from "../../api/repos.js";
import type { Unchecked } from "../../api/unchecked.js";
import type { CachedResponse } from "../../cache.js";
import { entryNotFound, HubError, noSuchApiRoute, repoNotFound } from "../../errors.js";
import { JSON_TYPE } from "../../http.js";
import { parseModelInput } from "../../models/input.js";
import { INFO_PROPERTIES, isModelProperty } from "../../models/properties.js";
import { folderExists, pathsInfoOf, readableRevision, refsOf, treeListing } from "../../services/contents.js";
import { modelInfo } from "../../services/models.js";
import { deleteModelRecord, putModelRecord } from "../../services/repos.js";
import {
	DATASET_EXPAND_PROPERTIES,
	EXPAND_PROPERTIES,
	type DatasetProperty,
	type ModelProperty,
} from "../../vocabulary.js";
import { flag, invalidParameter, many, one, type RawQuery } from "../query.js";
import {
	checkRepoPath,
	decodeSegments,
	hostedRepoUrls,
	parseApiModelPath,
	rawPathOf,
	repoApiUrl,
	type ApiModelTarget,
	type RepoUrls,
} from "../repo-paths.js";
import { actorOf, adminOnly } from "../auth.js";
import { mirrorApiGet, mirrorPathsInfo } from "../mirror.js";
import { commitAnswer, commitsPage } from "./commits.js";
import { originOf, viewerCacheKey, type ModelRoutesOptions } from "./context.js";

/** GET answers under a type's API are cached by their raw URL (path and query as sent) and viewer. */
function cacheKey(request: FastifyRequest): string {
	return viewerCacheKey("g", request.viewer, request.url);
}
/** Tree page sizes: the public hub's (50 when each entry carries its last commit). */
const TREE_PAGE = 1000;
const TREE_PAGE_EXPANDED = 50;
const MAX_PATHS_INFO = 1000;

function infoProperties(q: RawQuery<keyof ModelInfoParameters>): Set<ModelProperty> {
	const properties = new Set<ModelProperty>(INFO_PROPERTIES);
	for (const value of many(q, "expand", EXPAND_PROPERTIES.length * 2)) {
		if (!isModelProperty(value)) {
			throw invalidParameter(
				"expand",
				`${JSON.stringify(value.slice(0, 64))} is not one of ${EXPAND_PROPERTIES.join(", ")}`,
			);
		}
		properties.add(value);
	}
	return properties;
}

function datasetInfoProperties(q: RawQuery<keyof DatasetInfoParameters>): Set<DatasetProperty> {
	const properties = new Set<DatasetProperty>(DATASET_INFO_PROPERTIES);
	const expand = many(q, "expand", DATASET_EXPAND_PROPERTIES.length * 2);
	// An `expand` answers with exactly what it names (as huggingface_hub documents for dataset_info).
	if (expand.length > 0) properties.clear();
	for (const value of expand) {
		if (!isDatasetProperty(value)) {
			throw invalidParameter(
				"expand",
				`${JSON.stringify(value.slice(0, 64))} is not one of ${DATASET_EXPAND_PROPERTIES.join(", ")}`,
			);
		}
		properties.add(value);
	}
	return properties;
}

function encodeTreeCursor(path: string): string {
	return Buffer.from(JSON.stringify([1, path]), "utf8").toString("base64url");
}

function decodeTreeCursor(text: string): string {
	try {
		if (text.length > 4 * MAX_PATH_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) throw new Error();
		const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown;
		if (Array.isArray(value) && value.length === 2 && value[0] === 1 && typeof value[1] === "string") {
			if (repoPathProblem(value[1]) === undefined) return value[1];
		}
	} catch {
		// fall through
	}
	throw invalidParameter("cursor", "cursor is not one this hub issued");
}

/** The `paths` and `expand` of a paths-info body: a form (what huggingface_hub sends) or JSON. */
function pathsInfoBody(body: unknown): { paths: string[]; expand: boolean } {
	const record = (typeof body === "object" && body !== null ? body : {}) as Unchecked<PathsInfoRequest>;
	const raw = record.paths;
	const paths = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
	if (paths.length > MAX_PATHS_INFO)
		throw new HubError("Invalid", `at most ${MAX_PATHS_INFO} paths per request`);
	for (const path of paths) {
		if (typeof path !== "string") throw new HubError("Invalid", "'paths' must be a list of strings");
		const problem = repoPathProblem(path);
		if (problem)
			throw new HubError("Invalid", `invalid path ${JSON.stringify(path.slice(0, 100))}: ${problem}`);
	}
	const expand = record.expand;
	return {
		paths: paths as string[],
		expand: expand === true || (typeof expand === "string" && ["true", "1"].includes(expand.toLowerCase())),
	};
}

/**
 * The API of each hosted repository type under its prefix (`/api/models/{id}`, `…/revision/{rev}`,
 * `…/tree/…`, `…/refs`, `…/commits/{rev}`, `…/paths-info/{rev}`) and the admin writes of models.
 */
export function repoRoutes(app: FastifyInstance, options: ModelRoutesOptions): void {
	// huggingface_hub posts paths-info as a form.
	app.addContentTypeParser(
		"application/x-www-form-urlencoded",
		{ parseAs: "string" },
		(_request, body, done) => {
			const out: Record<string, string | string[]> = {};
			for (const [key, value] of new URLSearchParams(body as string)) {
				const previous = out[key];
				out[key] =
					previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
			}
			done(null, out);
		},
	);
	for (const urls of hostedRepoUrls()) typeRoutes(app, options, urls);
}

function typeRoutes(app: FastifyInstance, options: ModelRoutesOptions, urls: RepoUrls): void {
	const { cache, adminToken } = options;
	const { type } = urls;
	// Each type answers its info with its own store: a type is hosted once it has one.
	if (type !== "model" && type !== "dataset")
		throw new Error(`no info answer for ${type} repositories: host them once they have one`);

	function target(request: FastifyRequest): ApiModelTarget {
		return parseApiModelPath(decodeSegments(rawPathOf(request.url).slice(urls.api.length)), type);
	}

	/** Sends a cached answer; `next` is the path of the next page, made absolute per request. */
	function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse): FastifyReply {
		if (entry.next) reply.header("link", `<${originOf(request)}${entry.next}>; rel="next"`);
		return reply.type(JSON_TYPE).send(entry.body);
	}

	/** Produces the answer, caches it (keyed by the raw URL and viewer) and sends it. */
	async function cached(
		request: FastifyRequest,
		reply: FastifyReply,
		produce: () => Promise<{ body: unknown; next?: string }>,
	): Promise<FastifyReply> {
		const key = cacheKey(request);
		const version = cache.version;
		const produced = await produce();
		const entry: CachedResponse = { body: Buffer.from(JSON.stringify(produced.body)) };
		if (produced.next) entry.next = produced.next;
		cache.set(key, entry, version);
		return sendCached(request, reply, entry);
	}

	async function info(request: FastifyRequest, reply: FastifyReply, id: string, revision?: string) {
		if (type === "dataset") return datasetInfoAnswer(request, reply, id, revision);
		const q = request.query as RawQuery<keyof ModelInfoParameters>;
		const properties = infoProperties(q);
		const withBlobs = flag(q, "blobs") === true;
		const securityStatus = flag(q, "securityStatus") === true;
		return cached(request, reply, async () => {
			let commitId: string | undefined;
			if (revision !== undefined) {
				commitId = (await readableRevision(options, request.viewer, { type, id }, revision)).commitId;
			}
			const model = await modelInfo(options, id, {
				viewer: request.viewer,
				properties,
				withBlobs,
				securityStatus,
				...(commitId ? { commitId } : {}),
			});
			if (!model) throw repoNotFound();
			return { body: model };
		});
	}

	async function datasetInfoAnswer(
		request: FastifyRequest,
		reply: FastifyReply,
		id: string,
		revision: string | undefined,
	) {
		const q = request.query as RawQuery<keyof DatasetInfoParameters>;
		const properties = datasetInfoProperties(q);
		const withBlobs = flag(q, "blobs") === true;
		return cached(request, reply, async () => {
			let commitId: string | undefined;
			if (revision !== undefined) {
				commitId = (await readableRevision(options, request.viewer, { type, id }, revision)).commitId;
			}
			const dataset = await datasetInfo(options, id, {
				viewer: request.viewer,
				properties,
				withBlobs,
				...(commitId ? { commitId } : {}),
			});
			if (!dataset) throw repoNotFound();
			return { body: dataset };
		});
	}

	async function tree(
		request: FastifyRequest,
		reply: FastifyReply,
		t: Extract<ApiModelTarget, { kind: "tree" }>,
	) {
		const q = request.query as RawQuery<keyof TreeParameters>;
		const recursive = flag(q, "recursive") === true;
		const expand = flag(q, "expand") === true;
		const cursor = one(q, "cursor");
		const after = cursor === undefined ? undefined : decodeTreeCursor(cursor);
		if (t.path !== "") checkRepoPath(t.path);
		return cached(request, reply, async () => {
			const resolved = await readableRevision(options, request.viewer, { type, id: t.id }, t.revision);
			if (!(await folderExists(options, resolved, t.path))) {
				throw entryNotFound(`Entry not found: no folder ${t.path} at this revision`, resolved.commitId);
			}
			const page = await treeListing(options, resolved, {
				path: t.path,
				recursive,
				limit: expand ? TREE_PAGE_EXPANDED : TREE_PAGE,
				...(after !== undefined ? { after } : {}),
				withLastCommits: expand,
			});
			let next: string | undefined;
			const last = page.entries[page.entries.length - 1];
			if (page.more && last) {
				const params = new URLSearchParams({
					recursive: String(recursive),
					expand: String(expand),
					cursor: encodeTreeCursor(last.path),
				});
				const path = t.path === "" ? "" : `/${encodeURIComponent(t.path)}`;
				next = repoApiUrl(
					urls,
					resolved.id,
					`tree/${encodeURIComponent(t.revision)}${path}?${params.toString()}`,
				);
			}
			return { body: page.entries, ...(next ? { next } : {}) };
		});
	}

	async function refs(
		request: FastifyRequest,
		reply: FastifyReply,
		id: string,
		includePullRequests: boolean,
	) {
		return cached(request, reply, async () => {
			const all = await refsOf(
				options,
				await readableRevision(options, request.viewer, { type, id }, "main"),
			);
			const shape = (kind: "branch" | "tag") =>
				all
					.filter((ref) => ref.kind === kind)
					.map((ref) => ({
						name: ref.name,
						ref: `refs/${kind === "branch" ? "heads" : "tags"}/${ref.name}`,
						targetCommit: ref.commitId,
					}));
			return {
				body: {
					branches: shape("branch"),
					converts: [],
					tags: shape("tag"),
					// Pull request refs are named in full (`refs/pr/1`), as huggingface_hub's revision for them.
					...(includePullRequests
						? {
								pullRequests: all
									.filter((ref) => ref.kind === "pr")
									.map((ref) => ({ name: ref.name, ref: ref.name, targetCommit: ref.commitId })),
							}
						: {}),
				} satisfies RepoRefs,
			};
		});
	}

	// Not an async function: a cache hit (the hot path) is answered without parsing or a promise.
	app.get(`${urls.api}*`, (request, reply) => {
		const hit = cache.get(cacheKey(request));
		if (hit) {
			sendCached(request, reply, hit);
			return undefined;
		}
		return answer(request, reply);
	});

	async function answer(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
		const t = target(request);
		const mirror = options.mirror;
		// Mirror mode: a repository this hub does not have (in any visibility) is the upstream's.
		if (mirror && (await mirror.mirrors({ type, id: t.id })))
			return mirrorApiGet(mirror, urls, request, reply, t);
		switch (t.kind) {
			case "info":
				return info(request, reply, t.id);
			case "revision":
				return info(request, reply, t.id, t.revision);
			case "tree":
				return tree(request, reply, t);
			case "refs":
				return refs(
					request,
					reply,
					t.id,
					flag(request.query as RawQuery<keyof RefsParameters>, "include_prs") === true,
				);
			case "commits":
				return cached(request, reply, async () => {
					const resolved = await readableRevision(options, request.viewer, { type, id: t.id }, t.revision);
					return commitsPage(options, urls, resolved, t.revision, request.query as RawQuery);
				});
			case "commit":
				return cached(request, reply, async () =>
					commitAnswer(
						options,
						urls,
						await readableRevision(options, request.viewer, { type, id: t.id }, t.revision),
						t.revision,
						request.query as RawQuery<"cursor">,
					),
				);
			default:
				throw new HubError("MethodNotAllowed", "use POST for paths-info");
		}
	}

	app.post(`${urls.api}*`, async (request, reply) => {
		const t = target(request);
		if (t.kind !== "paths-info") throw noSuchApiRoute();
		const body = pathsInfoBody(request.body);
		const mirror = options.mirror;
		if (mirror && (await mirror.mirrors({ type, id: t.id }))) {
			return mirrorPathsInfo(mirror, urls, request, reply, t, body);
		}
		const resolved = await readableRevision(options, request.viewer, { type, id: t.id }, t.revision);
		return reply.type(JSON_TYPE).send(await pathsInfoOf(options, resolved, body.paths, body.expand));
	});

	// The admin's record writes are the model catalogue's (import, seed): datasets are made by commits.
	if (type !== "model") return;
	const admin = { onRequest: adminOnly(adminToken), config: { auth: "admin" as const } };

	app.put(`${urls.api}*`, admin, async (request, reply) => {
		const t = target(request);
		if (t.kind !== "info") throw noSuchApiRoute();
		const model = parseModelInput(request.body, t.id);
		const { created, info } = await putModelRecord(options, actorOf(request), model, {
			viewer: request.viewer,
			properties: new Set([...INFO_PROPERTIES, "inferenceProviderMapping"]),
		});
		return reply
			.code(created ? 201 : 200)
			.type(JSON_TYPE)
			.send(info);
	});

	app.delete(`${urls.api}*`, admin, async (request, reply) => {
		const t = target(request);
		if (t.kind !== "info") throw noSuchApiRoute();
		const deleted = await deleteModelRecord(options, actorOf(request), t.id);
		if (deleted === undefined) throw repoNotFound();
		return reply.type(JSON_TYPE).send({ deleted } satisfies Deleted);
	});
}
