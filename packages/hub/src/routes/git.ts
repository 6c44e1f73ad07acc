import { PassThrough, Transform, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { RefusedError, type RepoRef } from "../accounts/viewer.js";
import { HubError } from "../errors.js";
import { cacheRefs, GitCommandError, incomingDir, receivePack } from "../git/receive-objects.js";
import {
	PushProtocolError,
	readPushRequest,
	receiveAdvertisement,
	reportStatus,
	ZERO_ID,
} from "../git/receive.js";
import { gitProtocol, type GitServer } from "../git/serve.js";
import { actorFor } from "../services/actor.js";
import type { ServiceContext } from "../services/context.js";
import { applyPush } from "../services/push.js";
import { isOwnedFirstSegment, type RepoKey } from "../repo-identity.js";
import { participantRefusal } from "../services/discussions.js";
import { requireFileAccess } from "../services/gated.js";
import { authorizeRepo } from "../services/repos.js";
import { publicOrigin } from "./models/context.js";
import { movedLocation } from "./redirects.js";
import type { WriteContext } from "../services/write.js";
import { checkRepoId, forEachRepoRoute, repoPageUrl, type RepoUrls } from "./repo-paths.js";

/**
 * Git's smart HTTP protocol, read side (`git clone`, `fetch`, `pull`, `ls-remote`), on the URLs git
 * derives from a repository's page: `/{ns}/{name}` and `/{ns}/{name}.git`, `/datasets/{ns}/{name}(.git)`…
 * `GET …/info/refs?service=git-upload-pack` advertises, `POST …/git-upload-pack` answers; both run the
 * real `git upload-pack` (git/serve.ts). Anonymous requests for a private or missing repository get the
 * same 401 with a Basic challenge, so git asks for credentials and existence does not leak. A clone
 * and an LFS object are a repository's files: a gated repository's are served only to those with access
 * to its files (requireRepoFiles), as resolve serves them.
 */

export const BASIC_CHALLENGE = 'Basic realm="ModelHub"';
const ADVERTISEMENT_TYPE = "application/x-git-upload-pack-advertisement";
const REQUEST_TYPE = "application/x-git-upload-pack-request";
const RESULT_TYPE = "application/x-git-upload-pack-result";

export interface GitRouteOptions extends Pick<WriteContext, "db"> {
	git: GitServer;
	/** What pushes are committed with (services/push.ts). */
	services: ServiceContext;
	/** MODELHUB_PUBLIC_URL, for the repository's page in a gated refusal. */
	publicUrl?: string | undefined;
}

const RECEIVE_REQUEST_TYPE = "application/x-git-receive-pack-request";

/**
 * Access for a push: write access, or for someone who may take part in the repository's discussions
 * without it, read access (they may push to pull requests they may commit to: each ref update is
 * checked, services/push.ts). Anonymous requests get git's 401 (Basic challenge) so git asks for
 * credentials; a signed-in refusal (a read token, no access) is answered as text/plain, which git
 * prints as `remote: <reason>`, with its status.
 */
async function writableRepo(
	options: Pick<WriteContext, "db">,
	request: FastifyRequest,
	reply: FastifyReply,
	urls: RepoUrls,
): Promise<RepoRef | undefined> {
	const target = gitRepo(request, urls);
	try {
		return await authorizeRepo(options, request.viewer, target, "write");
	} catch (error) {
		if (!(error instanceof RefusedError)) throw error;
		if (request.viewer.kind === "anonymous") {
			throw new HubError(
				"Unauthorized",
				"Authentication required: sign in with a username and an access token",
				{
					challenge: BASIC_CHALLENGE,
				},
			);
		}
		if (error.refusal.status === 403) {
			const readable = await authorizeRepo(options, request.viewer, target, "read").catch((refused) => {
				if (refused instanceof RefusedError) return undefined;
				throw refused;
			});
			if (readable && participantRefusal(request.viewer, readable) === undefined) return readable;
		}
		await reply.code(error.status).type("text/plain; charset=utf-8").send(`${error.message}\n`);
		return undefined;
	}
}

/** The repository of a `…/:namespace/:name(.git)/…` route, or of a `…/:name(.git)/…` one (a bare id). */
function gitRepo(request: FastifyRequest, urls: RepoUrls): RepoKey {
	const { namespace, name: segment } = request.params as { namespace?: string; name: string };
	const name = segment.endsWith(".git") ? segment.slice(0, -4) : segment;
	return {
		type: urls.type,
		id: checkRepoId(namespace === undefined ? name : `${namespace}/${name}`, urls.type),
	};
}

/**
 * An onRequest hook of the git and git-LFS routes' scopes: a top-level first segment the web app or the
 * API owns (`/api/info/refs`, `/settings/git-upload-pack`: RESERVED_FIRST_SEGMENTS) is never a bare
 * model's, though the router matches `/:name/…` before the app's catch-all. Such a path is handed to the
 * not-found handler, answered as it was before bare ids had git URLs; no bare model can be so named.
 */
export async function hubOwnedPathsAsBefore(
	request: FastifyRequest,
	reply: FastifyReply,
): Promise<FastifyReply | undefined> {
	const { namespace, name } = request.params as { namespace?: string; name?: string };
	if (namespace !== undefined || name === undefined || !isOwnedFirstSegment(name)) return undefined;
	// Only the top-level shape: under `/datasets/` the type's prefix comes first.
	if (!(request.routeOptions.url ?? "").startsWith("/:name/")) return undefined;
	reply.callNotFound();
	return reply;
}

/** Read access, with git's answer for anonymous requests that may not read (401, Basic challenge). */
async function readableRepo(
	options: Pick<WriteContext, "db">,
	request: FastifyRequest,
	urls: RepoUrls,
): Promise<RepoRef> {
	const target = gitRepo(request, urls);
	try {
		return await authorizeRepo(options, request.viewer, target, "read");
	} catch (error) {
		if (
			request.viewer.kind === "anonymous" &&
			error instanceof RefusedError &&
			error.refusal.status === 404 &&
			// A former id of a repository anyone may read: the error handler answers its redirect.
			(await movedLocation(options.db, request)) === undefined
		) {
			throw new HubError(
				"Unauthorized",
				"Authentication required: sign in with a username and an access token",
				{
					challenge: BASIC_CHALLENGE,
				},
			);
		}
		throw error;
	}
}

/**
 * An onRequest hook for the URLs git and git-lfs derive (`…/{name}.git/info/lfs/…`): read access, answered
 * as git expects for anonymous requests (401 with a Basic challenge); sets `request.repo`. With `files`,
 * access to the files of a gated repository too (requireRepoFiles).
 */
export function gitReadAccess(
	options: Pick<WriteContext, "db"> & { publicUrl?: string | undefined },
	urls: RepoUrls,
	files = false,
) {
	return async (request: FastifyRequest): Promise<void> => {
		request.repo = await readableRepo(options, request, urls);
		if (files) await requireRepoFiles(options, request, request.repo);
	};
}

/**
 * Access to all the files of a readable repository (a clone, LFS objects), for git and git-lfs: a gated
 * repository's are refused as resolve refuses them (services/gated.ts: 401 GatedRepo to the anonymous,
 * with git's Basic challenge so git asks for credentials; 403 GatedRepo to a user without access).
 */
export function requireRepoFiles(
	options: Pick<WriteContext, "db"> & { publicUrl?: string | undefined },
	request: FastifyRequest,
	repo: RepoRef,
): Promise<void> {
	return requireFileAccess(
		options,
		request.viewer,
		repo,
		"",
		() => repoPageUrl(publicOrigin(request, options.publicUrl), repo),
		BASIC_CHALLENGE,
	);
}

/** pkt-line of a text (length in 4 hex digits, itself included). */
function pktLine(text: string): string {
	return `${(Buffer.byteLength(text) + 4).toString(16).padStart(4, "0")}${text}`;
}

/** A request body past its limit. */
class BodyTooLarge extends Error {
	override name = "BodyTooLarge";
}

/** A request body, gunzipped when git sent it compressed, ended with an error past `limit` bytes. */
function boundedBody(
	request: FastifyRequest,
	limit: number,
	setting = "MODELHUB_GIT_MAX_REQUEST_BYTES",
): Readable {
	const raw = request.body as Readable;
	let source: Readable = raw;
	const encoding = request.headers["content-encoding"];
	if (encoding === "gzip" || encoding === "x-gzip") source = raw.pipe(createGunzip());
	else if (encoding !== undefined && encoding !== "identity") {
		throw new HubError(
			"UnsupportedMediaType",
			`unsupported Content-Encoding: ${String(encoding).slice(0, 40)}`,
		);
	}
	let seen = 0;
	const counted = new Transform({
		transform(chunk: Buffer, _encoding, done) {
			seen += chunk.byteLength;
			if (seen > limit) done(new BodyTooLarge(`git request larger than ${limit} bytes (${setting})`));
			else done(null, chunk);
		},
	});
	source.on("error", (error) => counted.destroy(error));
	return source.pipe(counted);
}

function abortOnClose(reply: FastifyReply): AbortSignal {
	const controller = new AbortController();
	reply.raw.once("close", () => controller.abort());
	return controller.signal;
}

export async function gitRoutes(app: FastifyInstance, options: GitRouteOptions): Promise<void> {
	await app.register(async (scope) => {
		scope.addContentTypeParser(REQUEST_TYPE, (_request, payload, done) => done(null, payload));
		scope.addContentTypeParser(RECEIVE_REQUEST_TYPE, (_request, payload, done) => done(null, payload));
		scope.addHook("onRequest", hubOwnedPathsAsBefore);
		// `/{prefix}{id}(.git)/…` for both id shapes: `/gpt2/info/refs` is model gpt2's (three segments,
		// where a namespaced id makes four), `/datasets/squad/info/refs` dataset squad's (the type's
		// prefix is matched before a namespace could be).
		forEachRepoRoute((urls, shape) => {
			scope.get(`${urls.page}${shape}/info/refs`, async (request, reply) => {
				const service = (request.query as { service?: unknown }).service;
				if (service === "git-receive-pack") {
					const repo = await writableRepo(options, request, reply, urls);
					if (repo === undefined) return reply;
					const dir = await options.git.prepare(repo);
					const refs = await cacheRefs(dir, abortOnClose(reply));
					return reply
						.type("application/x-git-receive-pack-advertisement")
						.header("cache-control", "no-cache, max-age=0, must-revalidate")
						.send(receiveAdvertisement(refs));
				}
				if (service !== "git-upload-pack") {
					// Dumb HTTP is not served.
					throw new HubError("Forbidden", "only git's smart HTTP protocol is served: use git 1.6.6 or later");
				}
				const repo = await readableRepo(options, request, urls);
				await requireRepoFiles(options, request, repo);
				const dir = await options.git.prepare(repo);
				const protocol = gitProtocol(request.headers["git-protocol"]);
				const output = await options.git.uploadPack(dir, { protocol, signal: abortOnClose(reply) });
				const body = new PassThrough();
				// Protocol v0/v1 answers start with the service line; v2 starts with its capabilities
				// (as git http-backend does).
				if (!protocol?.split(":").includes("version=2"))
					body.write(`${pktLine("# service=git-upload-pack\n")}0000`);
				output.pipe(body);
				return reply
					.type(ADVERTISEMENT_TYPE)
					.header("cache-control", "no-cache, max-age=0, must-revalidate")
					.send(body);
			});
			// An LFS object's bytes, by SHA-256, for git-lfs (the batch API's download href): any file the
			// repository holds, Xet-stored ones included, as a plain LFS object.
			scope.get(
				`${urls.page}${shape}/info/lfs/objects/:oid`,
				{ onRequest: gitReadAccess(options, urls, true) },
				async (request, reply) => {
					const { oid } = request.params as { oid: string };
					const repo = request.repo as RepoRef;
					const size = /^[0-9a-f]{64}$/.test(oid) ? await options.git.heldBlobSize(repo, oid) : undefined;
					if (size === undefined)
						throw new HubError("NotFound", `object ${oid.slice(0, 64)} is not in ${repo.id}`);
					const bytes = await options.git.lfsObject(oid, size);
					return reply.type("application/octet-stream").header("content-length", String(size)).send(bytes);
				},
			);
			// A push of many files over a slow link takes longer than MODELHUB_REQUEST_TIMEOUT_MS: as for other
			// uploads, its body must keep moving (the idle limit), and the git time limit below bounds the whole.
			scope.post(
				`${urls.page}${shape}/git-receive-pack`,
				{ config: { upload: true } },
				async (request, reply) => {
					if ((request.headers["content-type"] ?? "").split(";")[0]?.trim() !== RECEIVE_REQUEST_TYPE) {
						throw new HubError("UnsupportedMediaType", `send ${RECEIVE_REQUEST_TYPE}`);
					}
					const repo = await writableRepo(options, request, reply, urls);
					if (repo === undefined) return reply;
					const { settings } = options.git;
					const signal = AbortSignal.any([
						abortOnClose(reply),
						AbortSignal.timeout(settings.timeoutSeconds * 1000),
					]);
					const release = await options.git.slot();
					try {
						const dir = await options.git.prepare(repo);
						let pushRequest;
						try {
							pushRequest = await readPushRequest(
								boundedBody(request, settings.maxPushBytes, "MODELHUB_GIT_MAX_PUSH_BYTES"),
							);
						} catch (error) {
							if (error instanceof PushProtocolError) throw new HubError("Invalid", error.message);
							if (error instanceof BodyTooLarge) throw new HubError("TooLarge", error.message);
							throw error;
						}
						const { commands, capabilities, pack } = pushRequest;
						// git's probe before a large push (a lone flush): nothing to do.
						if (commands.length === 0)
							return reply.type("application/x-git-receive-pack-result").send(Buffer.alloc(0));
						const sideBand = capabilities.has("side-band-64k");
						const answer = (body: Buffer) =>
							reply
								.type("application/x-git-receive-pack-result")
								.header("cache-control", "no-cache, max-age=0, must-revalidate")
								.send(body);
						let quarantine;
						try {
							// Deletions only: git sends no pack.
							const deletesOnly = commands.every((command) => command.newId === ZERO_ID);
							quarantine = await receivePack(dir, deletesOnly ? undefined : pack, {
								maxBytes: settings.maxPushBytes,
								signal,
								tempRoot: incomingDir(settings.dir),
							});
						} catch (error) {
							if (!(error instanceof GitCommandError) && !(error instanceof BodyTooLarge)) throw error;
							const reason = error.message;
							return answer(
								reportStatus(
									reason,
									commands.map((command) => ({ ref: command.ref, ok: false, reason: "unpacker error" })),
									{ sideBand, messages: [`the pack was refused: ${reason}`] },
								),
							);
						}
						try {
							const outcomes = await applyPush(
								options.services,
								actorFor(request.viewer, request.ip),
								repo,
								quarantine,
								commands,
								{ maxCommits: settings.maxPushCommits },
							);
							const messages = outcomes.flatMap((outcome) =>
								outcome.ok ? [] : [`${outcome.ref}: ${outcome.reason}`],
							);
							return answer(reportStatus(undefined, outcomes, { sideBand, messages }));
						} finally {
							await quarantine.remove();
						}
					} finally {
						release();
					}
				},
			);
			scope.post(`${urls.page}${shape}/git-upload-pack`, async (request, reply) => {
				if ((request.headers["content-type"] ?? "").split(";")[0]?.trim() !== REQUEST_TYPE) {
					throw new HubError("UnsupportedMediaType", `send ${REQUEST_TYPE}`);
				}
				const repo = await readableRepo(options, request, urls);
				await requireRepoFiles(options, request, repo);
				const dir = await options.git.prepare(repo);
				const body = boundedBody(request, options.git.settings.maxRequestBytes);
				const output = await options.git.uploadPack(dir, {
					protocol: gitProtocol(request.headers["git-protocol"]),
					body,
					signal: abortOnClose(reply),
				});
				return reply
					.type(RESULT_TYPE)
					.header("cache-control", "no-cache, max-age=0, must-revalidate")
					.send(output);
			});
		});
	});
}
