import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errorAnswer, HubError, type ErrorKind } from "../../errors.js";
import { JSON_TYPE } from "../../http.js";
import {
	checkUploadUrl,
	planLfsUploads,
	receiveLfsObject,
	requireHolderRight,
	UPLOAD_URL_TTL_SECONDS,
	uploadTargetOf,
	verifyLfsObject,
	type UploadGrant,
	type UploadUrlQuery,
} from "../../services/uploads.js";
import { actorOf, authenticationRequired, tooManyFailures } from "../auth.js";
import { gitReadAccess, hubOwnedPathsAsBefore, requireRepoFiles } from "../git.js";
import type { GitServer } from "../../git/serve.js";
import { repoPathName } from "../../repo-identity.js";
import { encodeId, publicOrigin } from "../models/context.js";
import { proposerAccess } from "../repo-access.js";
import {
	forEachRepoRoute,
	repoPageUrl,
	routeRepoId,
	type RepoUrls,
	type RouteIdShape,
} from "../repo-paths.js";
import { isStream } from "./commit.js";
import type { UploadRoutesOptions } from "./options.js";

/** Objects per batch request (huggingface_hub sends 256). */
const MAX_BATCH_OBJECTS = 1000;
const LFS_TYPE = "application/vnd.git-lfs+json";

/** The repository of a `/{namespace}/{name}.git/info/lfs/…` or `/{name}.git/…` URL (without `.git`; "" when it lacks it). */
function lfsRepoId(request: FastifyRequest): string {
	const { namespace, name } = request.params as { namespace?: string; name: string };
	if (!name.endsWith(".git")) return "";
	return namespace === undefined ? name.slice(0, -4) : `${namespace}/${name.slice(0, -4)}`;
}

/** An answer of the batch API itself, sent in git-LFS's error format (`{ message }`). */
class LfsError extends HubError {
	override name = "LfsError";
	constructor(kind: ErrorKind, message: string) {
		super(kind, message);
	}
}

/**
 * The error handler of the batch API's scope: its own errors in git-LFS's format; the others (the
 * access checks before it, failures inside it) go on to the hub's handler and read as everywhere else.
 */
async function lfsErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
	if (!(error instanceof LfsError)) throw error;
	const { status, headers } = errorAnswer(error);
	return reply.code(status).headers(headers).type(LFS_TYPE).send({ message: error.message });
}

/**
 * The git-LFS batch API as huggingface_hub uses it for large files when Xet is off (and git-lfs
 * clients for pushes): `POST /{id}.git/info/lfs/objects/batch` answers, per object, nothing when the
 * repository already holds it (the upload is skipped: re-running an upload resumes it), or an upload
 * action (a `PUT` to a signed URL, valid one hour, for exactly that object) and a verify action.
 * Uploads stream to storage, are checked against their SHA-256 and size, and only then become the
 * repository's; the commit refers to them by SHA-256.
 */
export function lfsRoutes(app: FastifyInstance, options: UploadRoutesOptions): void {
	const { services, limiter } = options;

	// The batch API in a scope of its own, for its error handler.
	void app.register(async (lfs) => {
		lfs.setErrorHandler(lfsErrorHandler);
		lfs.addHook("onRequest", hubOwnedPathsAsBefore);
		forEachRepoRoute((urls, shape) => batchRoutes(lfs, options, urls, shape));
	});

	// The upload itself: no Authorization header (huggingface_hub sends none to upload URLs), so the
	// signed URL is the permission. Checked before the body is read.
	forEachRepoRoute(uploadRoute);

	function uploadRoute(urls: RepoUrls, shape: RouteIdShape): void {
		app.put<{
			Params: { namespace?: string; name: string; oid: string };
			Querystring: UploadUrlQuery;
		}>(
			`/api/lfs-upload/${urls.page.slice(1)}${shape}/:oid`,
			{
				config: { auth: "signed", upload: true },
				onRequest: async (request) => {
					// The signature is the credential of an upload URL: counted like a token.
					const credential = `signature:${request.query.signature ?? ""}`;
					const block = limiter.blocked(request.ip, credential);
					if (block) throw tooManyFailures(block);
					const checked = checkUploadUrl(services, {
						repo: { type: urls.type, id: routeRepoId(request) },
						oid: request.params.oid,
						query: request.query,
					});
					if (checked.status === "invalid") {
						limiter.fail(request.ip, credential);
						throw new HubError(
							"Forbidden",
							"this upload URL is not valid: ask the LFS batch API for a new one",
						);
					}
					if (checked.status !== "valid") {
						throw new HubError(
							"Forbidden",
							"this upload URL has expired: ask the LFS batch API for a new one",
						);
					}
					// The URL names who it was issued to: their token and rights are checked now, at use.
					await requireHolderRight(
						services,
						{ account: checked.grant.actor, tokenId: checked.grant.tokenId },
						checked.grant.repo,
						"upload URL",
						checked.grant.right,
					);
					(request as FastifyRequest & { grant?: UploadGrant }).grant = checked.grant;
				},
			},
			async (request, reply) => {
				const grant = (request as FastifyRequest & { grant: UploadGrant }).grant;
				if (!isStream(request.body)) {
					throw new HubError("UnsupportedMediaType", "send the file's bytes as the request body");
				}
				await receiveLfsObject(services, grant, request.body, request.ip);
				return reply.type(JSON_TYPE).send({});
			},
		);
	}
}

/** A batch request's object list, checked the same way for downloads and uploads. */
function batchObjects(body: Record<string, unknown>): unknown[] {
	const objects = body.objects;
	if (!Array.isArray(objects) || objects.length > MAX_BATCH_OBJECTS) {
		throw new LfsError(
			"Unprocessable",
			`'objects' must be a list of at most ${MAX_BATCH_OBJECTS} { oid, size }`,
		);
	}
	if (body.hash_algo !== undefined && body.hash_algo !== "sha256") {
		throw new LfsError("Conflict", "only sha256 objects are supported");
	}
	return objects as unknown[];
}

/**
 * The batch API's download answer for git-lfs: per object the repository holds (any of its files, Xet-
 * stored ones included), a download action to its bytes on the same URLs git-lfs derives; the request's
 * own Authorization header goes with it (in the answer's body, never in a URL) so private files download.
 */
async function lfsDownloads(
	git: GitServer,
	request: FastifyRequest,
	body: Record<string, unknown>,
	publicUrl: string | undefined,
) {
	const objects = batchObjects(body);
	const repo = request.repo!;
	const base = `${repoPageUrl(publicOrigin(request, publicUrl), repo)}.git/info/lfs/objects/`;
	const authorization = request.headers.authorization;
	const answers = [];
	const asked = objects.map((item) => {
		const object = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
		const oid = typeof object.oid === "string" && /^[0-9a-f]{64}$/.test(object.oid) ? object.oid : undefined;
		return { object, oid, size: typeof object.size === "number" ? object.size : undefined };
	});
	const held = await git.heldBlobSizes(
		repo,
		asked.flatMap(({ oid }) => (oid === undefined ? [] : [oid])),
	);
	for (const { object, oid, size: askedSize } of asked) {
		if (oid === undefined) {
			answers.push({
				oid: object.oid,
				size: askedSize,
				error: { code: 422, message: "oid must be a SHA-256" },
			});
			continue;
		}
		const size = held.get(oid);
		if (size === undefined) {
			answers.push({
				oid,
				size: askedSize,
				error: { code: 404, message: `object ${oid} is not in ${repo.id}` },
			});
			continue;
		}
		answers.push({
			oid,
			size,
			authenticated: true,
			actions: {
				download: {
					href: `${base}${oid}`,
					...(typeof authorization === "string" ? { header: { Authorization: authorization } } : {}),
					expires_in: UPLOAD_URL_TTL_SECONDS,
				},
			},
		});
	}
	return { transfer: "basic", objects: answers, hash_algo: "sha256" };
}

/** `objects/batch` and `objects/verify`. */
function batchRoutes(
	app: FastifyInstance,
	options: UploadRoutesOptions,
	urls: RepoUrls,
	shape: RouteIdShape,
): void {
	const { services } = options;
	const { type } = urls;

	app.post(
		`${urls.page}${shape}/info/lfs/objects/batch`,
		// Read access first (git-lfs needs git's 401 to send credentials); downloads of a gated repository's
		// files need access to them (below).
		{ onRequest: gitReadAccess(services, urls) },
		async (request, reply) => {
			const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
				string,
				unknown
			>;
			if (body.operation === "download" && options.git !== undefined) {
				// Downloads are the files' bytes: a gated repository's only to those with access. Uploads (a
				// reader's pull request) need read access only.
				await requireRepoFiles({ db: services.db, publicUrl: options.publicUrl }, request, request.repo!);
				return reply.type(LFS_TYPE).send(await lfsDownloads(options.git, request, body, options.publicUrl));
			}
			if (body.operation !== "upload") {
				throw new LfsError("Unprocessable", "the operation must be upload or download");
			}
			if (request.viewer.kind === "anonymous") throw authenticationRequired();
			const repo = request.repo!;
			const objects = batchObjects(body);
			const wanted = objects.map((item) => {
				const object = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
				return { oid: object.oid, size: object.size };
			});
			// The ref the objects are for (git-LFS's `ref.name`); huggingface_hub sends none for a new pull request.
			const ref =
				typeof body.ref === "object" && body.ref !== null
					? (body.ref as Record<string, unknown>).name
					: undefined;
			const target = uploadTargetOf(typeof ref === "string" ? ref : undefined, false);
			const plans = await planLfsUploads(services, actorOf(request), repo, wanted, target);
			const origin = publicOrigin(request, options.publicUrl);
			const authorization = request.headers.authorization;
			const answers = plans.map((plan) => {
				const { oid, size } = plan;
				switch (plan.status) {
					case "invalid":
						return {
							oid,
							size,
							error: {
								code: 422,
								message: "oid must be a SHA-256 (64 lowercase hex digits) and size a whole number",
							},
						};
					case "too-large":
						return {
							oid,
							size,
							error: {
								code: 422,
								message: `the file has ${size} bytes, more than this hub accepts (MODELHUB_MAX_FILE_BYTES = ${services.settings.maxFileBytes})`,
							},
						};
					case "over-quota":
						return { oid, size, error: { code: 413, message: plan.message } };
					case "held":
						return { oid, size, authenticated: true };
					case "upload":
						return {
							oid,
							size,
							authenticated: true,
							actions: {
								upload: {
									href: `${origin}/api/lfs-upload/${encodeId(repoPathName(repo))}/${oid}?${new URLSearchParams(plan.query).toString()}`,
									expires_in: UPLOAD_URL_TTL_SECONDS,
								},
								// With the request's own credentials, as downloads carry them: git-lfs sends an
								// action's header and nothing else (its access mode is per URL), and the
								// verify route needs write access.
								verify: {
									href: `${repoPageUrl(origin, repo)}.git/info/lfs/objects/verify`,
									...(typeof authorization === "string" ? { header: { Authorization: authorization } } : {}),
									expires_in: UPLOAD_URL_TTL_SECONDS,
								},
							},
						};
				}
			});
			return reply.type(LFS_TYPE).send({ transfer: "basic", objects: answers, hash_algo: "sha256" });
		},
	);

	app.post(
		`${urls.page}${shape}/info/lfs/objects/verify`,
		// Readers uploading for a pull request verify too: the service checks they may take part.
		{ onRequest: proposerAccess(services, type, lfsRepoId) },
		async (request, reply) => {
			const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
				string,
				unknown
			>;
			const verified = await verifyLfsObject(services, actorOf(request), request.repo!, {
				oid: body.oid,
				size: body.size,
			});
			if (verified.status === "invalid-oid") throw new LfsError("Unprocessable", "oid must be a SHA-256");
			if (verified.status === "not-held") {
				throw new LfsError("NotFound", `object ${verified.oid} was not uploaded to ${request.repo!.id}`);
			}
			return reply.type(LFS_TYPE).send({ oid: verified.oid, size: verified.size });
		},
	);
}
