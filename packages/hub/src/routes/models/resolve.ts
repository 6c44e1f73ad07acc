import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { entryNotFound, HubError } from "../../errors.js";
import { mirrorResolve } from "../mirror.js";
import { fileDownloadUrl, fileEtag, type FileEntry, type ReadableRevision } from "../../services/contents.js";
import { servedBytes, servedFile, servedRevision } from "../../services/serving.js";
import { countDownload, INTERNAL_READ_HEADER } from "../../services/downloads.js";
import { COMMIT_ID } from "../../vocabulary.js";
import {
	checkRepoPath,
	decodeSegments,
	forEachRepoRoute,
	parseResolvePath,
	rawPathOf,
	repoPageUrl,
	type RepoUrls,
} from "../repo-paths.js";
import { publicOrigin, type ModelRoutesOptions } from "./context.js";
import { requireFileAccess } from "../../services/gated.js";

function isRepoNotFound(error: unknown): boolean {
	return error instanceof HubError && error.code === "RepoNotFound";
}

/** How long a presigned download URL stays valid. */
const PRESIGNED_TTL_SECONDS = 3600;

const CONTENT_TYPES: Record<string, string> = {
	json: "application/json; charset=utf-8",
	md: "text/markdown; charset=utf-8",
	txt: "text/plain; charset=utf-8",
	py: "text/x-python; charset=utf-8",
	yaml: "text/yaml; charset=utf-8",
	yml: "text/yaml; charset=utf-8",
	jinja: "text/plain; charset=utf-8",
	gitattributes: "text/plain; charset=utf-8",
};

function contentTypeOf(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const extension = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
	return CONTENT_TYPES[extension] ?? "application/octet-stream";
}

function contentDisposition(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
	return `inline; filename*=UTF-8''${encodeURIComponent(name)}; filename="${ascii}";`;
}

/** A single `bytes=` range of a file of `size` bytes: the range, "unsatisfiable", or undefined (serve it all). */
export function parseRange(
	header: string | undefined,
	size: number,
): { start: number; end: number } | "unsatisfiable" | undefined {
	if (header === undefined) return undefined;
	const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
	// Several ranges, or another unit: RFC 9110 lets a server ignore Range and send the whole file.
	if (!match) return undefined;
	const [, first = "", last = ""] = match;
	if (first === "" && last === "") return undefined;
	if (first.length > 16 || last.length > 16) return "unsatisfiable";
	if (first === "") {
		const suffix = Number(last);
		if (suffix === 0) return "unsatisfiable";
		return { start: Math.max(0, size - suffix), end: size };
	}
	const start = Number(first);
	const end = last === "" ? size : Math.min(Number(last) + 1, size);
	if (start >= size || (last !== "" && Number(last) < start)) return "unsatisfiable";
	return { start, end };
}

/**
 * The Cache-Control of a file's answer. A commit's files never change (immutable); a branch's may, and
 * the ETag revalidates them. A private repository's file may be kept by the client that fetched it, never
 * by a shared cache (a proxy or CDN would hand it to anyone asking the same URL): `private` (RFC 9111).
 */
export function fileCacheControl(
	repo: { private: boolean; gated?: string | null },
	byCommitId: boolean,
): string {
	// A gated repository's files are served only to those with access: no shared cache either.
	if (repo.private || repo.gated)
		return byCommitId ? "private, max-age=31536000, immutable" : "private, no-cache";
	return byCommitId ? "public, max-age=31536000, immutable" : "no-cache";
}

function etagMatches(header: string | undefined, etag: string): boolean {
	if (header === undefined) return false;
	return header.split(",").some((candidate) => {
		const value = candidate.trim().replace(/^W\//, "");
		return value === "*" || value === `"${etag}"`;
	});
}

/**
 * `GET|HEAD /{id}/resolve/{revision}/{path}`: a file's bytes with the headers huggingface_hub's
 * downloads read: `X-Repo-Commit`, `ETag` (git blob id, or the SHA-256 for LFS files, also as
 * `X-Linked-Etag` with `X-Linked-Size`), `Content-Length`, ranges (`Accept-Ranges`, 206, 416). LFS
 * files are redirected (302) to a presigned storage URL when the store offers one.
 */
export function resolveRoutes(app: FastifyInstance, options: ModelRoutesOptions): void {
	async function handler(urls: RepoUrls, request: FastifyRequest, reply: FastifyReply) {
		const segments = decodeSegments(rawPathOf(request.url).slice(urls.page.length));
		const target = parseResolvePath(segments, urls.type);
		const { id, revision, path } = target;
		const mirror = options.mirror;
		const resolved = mirror
			? await servedRevision(options, request.viewer, { type: urls.type, id }, revision).catch(
					async (error: unknown) => {
						// Not this hub's (in any visibility): the upstream's, in mirror mode.
						if (isRepoNotFound(error) && (await mirror.mirrors({ type: urls.type, id }))) return undefined;
						throw error;
					},
				)
			: await servedRevision(options, request.viewer, { type: urls.type, id }, revision);
		if (resolved === undefined && mirror) {
			checkRepoPath(path);
			return mirrorResolve(mirror, options, urls, request, reply, target);
		}
		if (resolved === undefined) throw entryNotFound(`Entry not found: ${path}`);
		checkRepoPath(path);
		await requireFileAccess(options, request.viewer, resolved, path, () =>
			repoPageUrl(publicOrigin(request, options.publicUrl), resolved),
		);
		const file = await servedFile(options, resolved, path);
		if (!file) throw entryNotFound(`Entry not found: ${path}`, resolved.commitId);
		return sendFile(request, reply, file, resolved, COMMIT_ID.test(revision));
	}

	/** Counts the download of a file this answer serves (src/services/downloads.ts says which count). */
	function served(request: FastifyRequest, at: ReadableRevision, file: FileEntry): void {
		countDownload(options, {
			at,
			path: file.path,
			client: request.ip,
			internal: request.headers[INTERNAL_READ_HEADER] !== undefined,
		});
	}

	async function sendFile(
		request: FastifyRequest,
		reply: FastifyReply,
		file: FileEntry,
		at: ReadableRevision,
		immutable: boolean,
	) {
		const commitId = at.commitId;
		const etag = fileEtag(file);
		reply.headers({
			"x-repo-commit": commitId,
			etag: `"${etag}"`,
			"accept-ranges": "bytes",
			"content-type": contentTypeOf(file.path),
			"content-disposition": contentDisposition(file.path),
			"cache-control": fileCacheControl(at, immutable),
			"access-control-expose-headers":
				"X-Repo-Commit, ETag, X-Linked-Etag, X-Linked-Size, Content-Range, Content-Length, Location, X-Error-Code, X-Error-Message",
			"access-control-allow-origin": "*",
		});
		if (file.lfs) reply.headers({ "x-linked-etag": `"${file.sha256}"`, "x-linked-size": String(file.size) });

		if (etagMatches(request.headers["if-none-match"], etag)) {
			served(request, at, file);
			return reply.code(304).send();
		}

		if (file.lfs) {
			const location = await fileDownloadUrl(
				options,
				file,
				PRESIGNED_TTL_SECONDS,
				fileCacheControl(at, immutable),
			);
			if (location) {
				served(request, at, file);
				return reply.code(302).header("location", location).header("content-length", "0").send();
			}
		}

		const range = parseRange(request.headers.range, file.size);
		if (range === "unsatisfiable") {
			return reply
				.code(416)
				.header("content-range", `bytes */${file.size}`)
				.header("content-length", "0")
				.send();
		}
		served(request, at, file);
		const start = range?.start ?? 0;
		const end = range?.end ?? file.size;
		if (range) reply.code(206).header("content-range", `bytes ${start}-${end - 1}/${file.size}`);
		reply.header("content-length", String(end - start));
		if (request.method === "HEAD") return reply.send();
		return reply.send(await servedBytes(options, file, range ? { start, end } : undefined));
	}

	// HEAD is its own route: the one Fastify derives from GET answers Content-Length: 0 to a body-less
	// reply, and huggingface_hub takes the file size from this HEAD.
	forEachRepoRoute((urls, shape) => {
		const answer = (request: FastifyRequest, reply: FastifyReply) => handler(urls, request, reply);
		const url = `${urls.page}${shape}/resolve/*`;
		app.get(url, { exposeHeadRoute: false }, answer);
		app.head(url, answer);
	});
}
