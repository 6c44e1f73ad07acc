import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type {
	MirrorCacheStats,
	MirrorPinRequest,
	MirrorPrefetchProgress,
	MirrorPrefetchRequest,
} from "../api/admin.js";
import { MAX_PREFETCH_CONCURRENCY, DEFAULT_PREFETCH_CONCURRENCY } from "../commands/mirror.js";
import { prefetchLimit, type UpstreamSettings } from "../mirror/settings.js";
import { HubError } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import type { MirrorFile, MirrorService } from "../mirror/service.js";
import type { RepoKey } from "../repo-identity.js";
import { countDownload, INTERNAL_READ_HEADER, type DownloadsContext } from "../services/downloads.js";
import { COMMIT_ID } from "../vocabulary.js";
import { requireSiteAdmin } from "../services/actor.js";
import { actorOf, adminOnly } from "./auth.js";
import { objectBody } from "./body.js";
import type { UpstreamListing } from "./list-query.js";
import { originOf } from "./models/context.js";
import { fileCacheControl, parseRange } from "./models/resolve.js";
import {
	rawPathOf,
	repoWriteTarget,
	type ApiModelTarget,
	type RepoUrls,
	type ResolveTarget,
} from "./repo-paths.js";

/**
 * The HTTP shapes of mirror mode (src/mirror/service.ts): the upstream's JSON answers and files for
 * repositories this hub does not have, with the headers this hub's own answers carry. `X-Mirror-Age`
 * says how many seconds ago the upstream last confirmed what is served (past MODELHUB_UPSTREAM_TTL_S only
 * while it is unreachable).
 */

const AGE_HEADER = "x-mirror-age";

/** A signed-in downstream user (or the admin) may get what the upstream token reads (MirrorService). */
function signedIn(request: FastifyRequest): boolean {
	return request.viewer.kind !== "anonymous";
}

function pathAndQuery(request: FastifyRequest): string {
	return request.url;
}

/** The upstream's answer to a GET under a type's API (info, revision, tree, refs, commits). */
export async function mirrorApiGet(
	mirror: MirrorService,
	urls: RepoUrls,
	request: FastifyRequest,
	reply: FastifyReply,
	target: ApiModelTarget,
): Promise<FastifyReply> {
	const revision = "revision" in target ? target.revision : undefined;
	const info = target.kind === "info" || target.kind === "revision";
	const answer = await mirror.answer(
		{ type: urls.type, id: target.id, signedIn: signedIn(request) },
		{
			method: "GET",
			pathAndQuery: pathAndQuery(request),
			immutable: revision !== undefined && COMMIT_ID.test(revision),
			// The info without a revision is the default branch's (huggingface_hub's DEFAULT_REVISION, main).
			...(info ? { revision: revision ?? "main" } : {}),
		},
	);
	if (answer.nextPath) reply.header("link", `<${originOf(request)}${answer.nextPath}>; rel="next"`);
	return reply.header(AGE_HEADER, String(answer.ageSeconds)).type(JSON_TYPE).send(answer.body);
}

/**
 * The upstream's JSON answer to a GET of one of a repository's other API routes (`/api/datasets/{id}/croissant`),
 * asked as this hub was (same path and query), sent as `contentType`.
 */
export async function mirrorRepoGet(
	mirror: MirrorService,
	repo: RepoKey,
	request: FastifyRequest,
	reply: FastifyReply,
	contentType: string = JSON_TYPE,
): Promise<FastifyReply> {
	const answer = await mirror.answer(
		{ ...repo, signedIn: signedIn(request) },
		{ method: "GET", pathAndQuery: pathAndQuery(request), immutable: false },
	);
	return reply.header(AGE_HEADER, String(answer.ageSeconds)).type(contentType).send(answer.body);
}

/** The upstream's paths-info (the form huggingface_hub posts, passed on as it came). */
export async function mirrorPathsInfo(
	mirror: MirrorService,
	urls: RepoUrls,
	request: FastifyRequest,
	reply: FastifyReply,
	target: Extract<ApiModelTarget, { kind: "paths-info" }>,
	body: { paths: string[]; expand: boolean },
): Promise<FastifyReply> {
	const form = new URLSearchParams();
	for (const path of [...body.paths].sort()) form.append("paths", path);
	if (body.expand) form.append("expand", "true");
	const answer = await mirror.answer(
		{ type: urls.type, id: target.id, signedIn: signedIn(request) },
		{
			method: "POST",
			pathAndQuery: pathAndQuery(request),
			form: form.toString(),
			immutable: COMMIT_ID.test(target.revision),
		},
	);
	return reply.header(AGE_HEADER, String(answer.ageSeconds)).type(JSON_TYPE).send(answer.body);
}

/** What a listing by id reads of its query (the model and dataset listings' parsed queries). */
interface ListingByIdQuery {
	searchTerms?: string[];
	author?: string;
	limit: number;
}

/** A repository id, or the start of one, as a listing's search: `namespace/` and something. */
const ID_SEARCH = /^[^/\s]+\/[^/\s]*$/;

/**
 * Mirror mode's part of a listing (`GET /api/models`, `/api/datasets`): when it is by id (its `search`
 * names a repository, `namespace/name` or the start of one, or it has an `author`), the upstream's
 * answer to the same query (MirrorService.listing) follows this hub's items on the listing's last page,
 * up to its limit. Without a mirror: none.
 */
export function upstreamListing(
	mirror: MirrorService | undefined,
	type: RepoKey["type"],
): UpstreamListing<ListingByIdQuery> | undefined {
	if (mirror === undefined) return undefined;
	return {
		asks: (q) => {
			if (q.author !== undefined) return true;
			const search = q.search;
			return (Array.isArray(search) ? search : [search]).some((value) => value?.includes("/") === true);
		},
		merge: async (request, query, page) => {
			const terms = query.searchTerms ?? [];
			const search = terms.length === 1 && ID_SEARCH.test(terms[0] ?? "") ? terms[0] : undefined;
			if (terms.length > 0 && search === undefined) return page;
			if (search === undefined && query.author === undefined) return page;
			// This hub's own items first; the upstream's on the last page, in the room left.
			const room = query.limit - page.items.length;
			if (page.next !== undefined || room <= 0) return page;
			const url = new URL(request.url, "http://listing.invalid");
			url.searchParams.delete("cursor");
			const items = await mirror.listing(
				type,
				{ search, author: query.author },
				`${url.pathname}${url.search}`,
				signedIn(request),
				room,
			);
			return { items: [...page.items, ...items] };
		},
	};
}

function etagMatches(header: string | undefined, etag: string): boolean {
	if (header === undefined) return false;
	return header.split(",").some((candidate) => {
		const value = candidate.trim().replace(/^W\//, "");
		return value === "*" || value === `"${etag}"`;
	});
}

/**
 * `GET|HEAD /{id}/resolve/{revision}/{path}` of an upstream repository: the headers huggingface_hub
 * reads (X-Repo-Commit, ETag, X-Linked-Etag, X-Linked-Size, Content-Length, ranges), and the bytes from
 * storage, or streamed from the one upstream fetch of the file.
 */
export async function mirrorResolve(
	mirror: MirrorService,
	counting: Pick<DownloadsContext, "downloads">,
	urls: RepoUrls,
	request: FastifyRequest,
	reply: FastifyReply,
	target: ResolveTarget,
): Promise<FastifyReply> {
	const repo = { type: urls.type, id: target.id, signedIn: signedIn(request) };
	const prefix = urls.page.slice(1);
	const file: MirrorFile = await mirror.file(repo, prefix, target.revision, target.path);
	/** Counts the download this answer serves, unless the upstream was asked for it (it counted it). */
	const served = async (fetched: boolean): Promise<void> => {
		const internal = request.headers[INTERNAL_READ_HEADER] !== undefined;
		if (file.asked || fetched || internal) return;
		const libraryName = repo.type === "model" ? await mirror.libraryOf(repo) : undefined;
		countDownload(counting, {
			at: { type: repo.type, id: repo.id.toLowerCase(), libraryName, mirrored: true },
			path: file.path,
			client: request.ip,
			internal,
		});
	};
	reply.headers({
		"x-repo-commit": file.commitId,
		etag: `"${file.etag}"`,
		"accept-ranges": "bytes",
		"content-type": "application/octet-stream",
		// What a signed-in user gets may be what only the upstream token reads: never in shared caches.
		"cache-control": fileCacheControl({ private: repo.signedIn }, COMMIT_ID.test(target.revision)),
		"access-control-expose-headers":
			"X-Repo-Commit, ETag, X-Linked-Etag, X-Linked-Size, Content-Range, Content-Length, X-Mirror-Age",
		"access-control-allow-origin": "*",
		[AGE_HEADER]: String(Math.floor(file.ageSeconds)),
	});
	if (file.lfs) reply.headers({ "x-linked-etag": `"${file.etag}"`, "x-linked-size": String(file.size) });
	if (etagMatches(request.headers["if-none-match"], file.etag)) {
		await served(false);
		return reply.code(304).send();
	}
	const range = parseRange(request.headers.range, file.size);
	if (range === "unsatisfiable") {
		return reply
			.code(416)
			.header("content-range", `bytes */${file.size}`)
			.header("content-length", "0")
			.send();
	}
	const start = range?.start ?? 0;
	const end = range?.end ?? file.size;
	if (range) reply.code(206).header("content-range", `bytes ${start}-${end - 1}/${file.size}`);
	reply.header("content-length", String(end - start));
	if (request.method === "HEAD") {
		await served(false);
		return reply.send();
	}
	const { body, fetched } = await mirror.bytes(repo, prefix, file, range ? { start, end } : undefined);
	try {
		await served(fetched);
	} catch (error) {
		// Not sent: closed here (a transfer's spool stays while a stream of it is open).
		body.destroy();
		throw error;
	}
	return reply.send(body);
}

/** Refuses writes to repositories that exist only upstream, with a message that says so. */
export function mirrorWriteGuard(app: FastifyInstance, mirror: MirrorService): void {
	// The write routes of a repository (commits, uploads' pre-checks, Xet tokens, branches and tags,
	// settings, LFS batches at `{id}.git/info/lfs/…`), for `ns/name` and bare ids alike, read by the
	// routes' own rule.
	app.addHook("onRequest", async (request) => {
		if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return;
		const target = repoWriteTarget(rawPathOf(request.url));
		if (target) await mirror.checkWrite(target);
	});
}

/** `namespace/name` or a bare name, as repository ids are (src/repo-identity.ts allows no more). */
const REPO_ID = /^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/)?[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

/**
 * Mirror mode's admin API (MODELHUB_ADMIN_TOKEN): the cache's statistics (site admins may read them),
 * pinning repositories so that their files are never evicted (MODELHUB_MIRROR_CACHE_BYTES), prefetches.
 */
export function mirrorAdminRoutes(
	app: FastifyInstance,
	mirror: MirrorService,
	settings: UpstreamSettings,
	adminToken: string | undefined,
): void {
	const admin = { onRequest: adminOnly(adminToken), config: { auth: "admin" as const } };
	// Read by the web's site administration page too: site admins (a session) as well as the admin token.
	app.get("/api/admin/mirror", async (request, reply) => {
		requireSiteAdmin(actorOf(request));
		return noStoreJson(reply, (await mirror.cacheStats()) satisfies MirrorCacheStats);
	});
	app.put("/api/admin/mirror/pins", admin, async (request, reply) => {
		const body = objectBody<MirrorPinRequest>(request);
		const { type, id } = bodyRepo(body);
		if (typeof body.pinned !== "boolean") throw new HubError("Invalid", "'pinned' is true or false");
		await mirror.pin({ type, id }, body.pinned);
		return noStoreJson(reply, (await mirror.cacheStats()) satisfies MirrorCacheStats);
	});
	app.post("/api/admin/mirror/prefetch", admin, async (request, reply) => {
		const body = objectBody<MirrorPrefetchRequest>(request);
		const { type, id } = bodyRepo(body);
		const revision = body.revision ?? "main";
		if (!isRevision(revision))
			throw new HubError("Invalid", "'revision' is a branch, tag or commit id (at most 200 characters)");
		const concurrency = body.concurrency ?? DEFAULT_PREFETCH_CONCURRENCY;
		if (
			typeof concurrency !== "number" ||
			!Number.isInteger(concurrency) ||
			concurrency < 1 ||
			concurrency > MAX_PREFETCH_CONCURRENCY
		)
			throw new HubError("Invalid", `'concurrency' is a number from 1 to ${MAX_PREFETCH_CONCURRENCY}`);
		const maxBytes = body.maxBytes ?? undefined;
		if (
			maxBytes !== undefined &&
			(typeof maxBytes !== "number" || !Number.isSafeInteger(maxBytes) || maxBytes < 1)
		)
			throw new HubError("Invalid", "'maxBytes' is a positive number of bytes");
		if (body.withToken !== undefined && typeof body.withToken !== "boolean")
			throw new HubError("Invalid", "'withToken' is true or false");
		const { progress, started } = mirror.startPrefetch(
			{ type, id, signedIn: body.withToken === true },
			revision,
			{ concurrency, maxBytes: prefetchLimit(settings, maxBytes) },
		);
		return noStoreJson(reply.code(started ? 202 : 200), progress satisfies MirrorPrefetchProgress);
	});
	app.get("/api/admin/mirror/prefetch", admin, async (_request, reply) =>
		noStoreJson(reply, { prefetches: mirror.prefetchList() satisfies MirrorPrefetchProgress[] }),
	);
	app.get<{ Params: { id: string } }>("/api/admin/mirror/prefetch/:id", admin, async (request, reply) => {
		const progress = mirror.prefetchList().find((entry) => entry.id === request.params.id);
		if (!progress)
			throw new HubError(
				"NotFound",
				`no prefetch ${request.params.id.slice(0, 64)} (finished ones are kept a while)`,
			);
		return noStoreJson(reply, progress satisfies MirrorPrefetchProgress);
	});
}

/** An admin answer: JSON that no cache keeps (it changes with every fetch). */
function noStoreJson(reply: FastifyReply, body: unknown): FastifyReply {
	return reply.header("cache-control", "no-store").type(JSON_TYPE).send(body);
}

/** The repository an admin request's body names: `type` (model by default) and `repo`, checked. */
function bodyRepo(body: { type?: unknown; repo?: unknown }): { type: "model" | "dataset"; id: string } {
	const type = body.type ?? "model";
	if (type !== "model" && type !== "dataset") throw new HubError("Invalid", "'type' is model or dataset");
	if (typeof body.repo !== "string" || !REPO_ID.test(body.repo))
		throw new HubError("Invalid", "'repo' is a repository id, namespace/name");
	return { type, id: body.repo };
}

/** A revision as the resolve route takes it: no control characters, bounded. */
function isRevision(value: unknown): value is string {
	return typeof value === "string" && value.length >= 1 && value.length <= 200 && !/\p{Cc}/u.test(value);
}
