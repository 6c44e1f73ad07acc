import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errorAnswer, HubError, reword, type ErrorKind } from "../../errors.js";
import { JSON_TYPE } from "../../http.js";
import { BlobDigestError, BlobTooLargeError, isSha256 } from "../../storage/types.js";
import { registerUpload } from "../../services/uploads.js";
import { repoObjects } from "../../uploads/objects.js";
import { sign, verify } from "../../uploads/signing.js";
import { auditContext, tooManyFailures } from "../auth.js";
import { encodeId, publicOrigin, type ModelRoutesOptions } from "../models/context.js";
import { repoAccess } from "../repo-access.js";
import { isStream } from "./commit.js";

/** How long an upload URL handed out by the batch API stays valid. */
export const UPLOAD_URL_TTL_SECONDS = 3600;
/** Objects per batch request (huggingface_hub sends 256). */
const MAX_BATCH_OBJECTS = 1000;
const LFS_TYPE = "application/vnd.git-lfs+json";

/** The repository of a `/{namespace}/{name}.git/info/lfs/…` URL (without `.git`; "" when it lacks it). */
function lfsModelId(request: FastifyRequest): string {
	const { namespace, repo } = request.params as { namespace: string; repo: string };
	return repo.endsWith(".git") ? `${namespace}/${repo.slice(0, -4)}` : "";
}

interface UploadGrant {
	modelId: string;
	oid: string;
	size: number;
	expires: number;
	actor: string;
	tokenId: string;
}

function grantFields(grant: UploadGrant): string[] {
	return [
		"lfs-upload",
		grant.modelId,
		grant.oid,
		String(grant.size),
		String(grant.expires),
		grant.actor,
		grant.tokenId,
	];
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
export function lfsRoutes(app: FastifyInstance, options: ModelRoutesOptions): void {
	const { storage, signingKey, limiter } = options;

	// The batch API in a scope of its own, for its error handler.
	void app.register(async (lfs) => {
		lfs.setErrorHandler(lfsErrorHandler);
		batchRoutes(lfs, options);
	});

	// The upload itself: no Authorization header (huggingface_hub sends none to upload URLs), so the
	// signed URL is the permission. Checked before the body is read.
	app.put<{
		Params: { namespace: string; name: string; oid: string };
		Querystring: Record<string, string | undefined>;
	}>(
		"/api/lfs-upload/:namespace/:name/:oid",
		{
			config: { auth: "signed", upload: true },
			onRequest: async (request) => {
				const blocked = limiter.blockedFor(request.ip);
				if (blocked > 0) throw tooManyFailures(blocked);
				const q = request.query;
				const grant: UploadGrant = {
					modelId: `${request.params.namespace}/${request.params.name}`,
					oid: request.params.oid,
					size: Number(q.size),
					expires: Number(q.expires),
					actor: q.actor ?? "",
					tokenId: q.token ?? "",
				};
				const valid =
					typeof q.signature === "string" &&
					/^\d{1,16}$/.test(q.size ?? "") &&
					/^\d{1,12}$/.test(q.expires ?? "") &&
					verify(signingKey, grantFields(grant), q.signature);
				if (!valid) {
					limiter.fail(request.ip);
					throw new HubError(
						"Forbidden",
						"this upload URL is not valid: ask the LFS batch API for a new one",
					);
				}
				if (grant.expires < Date.now() / 1000) {
					throw new HubError("Forbidden", "this upload URL has expired: ask the LFS batch API for a new one");
				}
				(request as FastifyRequest & { grant?: UploadGrant }).grant = grant;
			},
		},
		async (request, reply) => {
			const grant = (request as FastifyRequest & { grant: UploadGrant }).grant;
			if (!isStream(request.body)) {
				throw new HubError("UnsupportedMediaType", "send the file's bytes as the request body");
			}
			const stored = await storage
				.put(request.body, {
					expectedSha256: grant.oid,
					expectedSize: grant.size,
					maxBytes: Math.min(grant.size, options.maxFileBytes),
				})
				.catch(
					reword(BlobDigestError, (error) => new HubError("Invalid", `upload refused: ${error.message}`)),
				)
				.catch(
					reword(
						BlobTooLargeError,
						() =>
							new HubError("Invalid", `upload refused: received more than the announced ${grant.size} bytes`),
					),
				);
			const registered = await registerUpload(
				options,
				{ actor: grant.actor, ...(grant.tokenId ? { tokenId: grant.tokenId } : {}), ip: request.ip },
				grant.modelId,
				stored,
				{ action: "lfs.upload", details: { oid: grant.oid, size: grant.size } },
			);
			if (!registered) throw new HubError("NotFound", "the repository no longer exists");
			return reply.type(JSON_TYPE).send({});
		},
	);
}

/** `objects/batch` and `objects/verify`. */
function batchRoutes(app: FastifyInstance, options: ModelRoutesOptions): void {
	const { db, storage, signingKey } = options;

	app.post(
		"/:namespace/:repo/info/lfs/objects/batch",
		{ onRequest: repoAccess(options, "write", lfsModelId) },
		async (request, reply) => {
			const repo = request.repo!;
			const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
				string,
				unknown
			>;
			if (body.operation !== "upload") {
				throw new LfsError(
					"Unprocessable",
					"only the upload operation is supported: download files from /{id}/resolve/{revision}/{path}",
				);
			}
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
			const wanted = objects.map((item) => {
				const object = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
				return { oid: object.oid, size: object.size };
			});
			const valid = wanted
				.filter((o) => typeof o.oid === "string" && isSha256(o.oid))
				.map((o) => o.oid as string);
			const held = await repoObjects(db, repo.id, valid);
			const origin = publicOrigin(request, options.publicUrl);
			const expires = Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS;
			const { actor, tokenId } = auditContext(request);
			const answers = [];
			for (const { oid, size } of wanted) {
				const sizeOk = typeof size === "number" && Number.isSafeInteger(size) && size >= 0;
				if (typeof oid !== "string" || !isSha256(oid) || !sizeOk) {
					answers.push({
						oid: String(oid).slice(0, 64),
						size: sizeOk ? size : 0,
						error: {
							code: 422,
							message: "oid must be a SHA-256 (64 lowercase hex digits) and size a whole number",
						},
					});
					continue;
				}
				if (size > options.maxFileBytes) {
					answers.push({
						oid,
						size,
						error: {
							code: 422,
							message: `the file has ${size} bytes, more than this hub accepts (MODELHUB_MAX_FILE_BYTES = ${options.maxFileBytes})`,
						},
					});
					continue;
				}
				const known = held.get(oid);
				if (known && known.size === size && (await storage.stat(oid)) !== undefined) {
					answers.push({ oid, size, authenticated: true });
					continue;
				}
				const grant: UploadGrant = { modelId: repo.id, oid, size, expires, actor, tokenId: tokenId ?? "" };
				const query = new URLSearchParams({
					size: String(size),
					expires: String(expires),
					actor,
					token: grant.tokenId,
					signature: sign(signingKey, grantFields(grant)),
				});
				answers.push({
					oid,
					size,
					authenticated: true,
					actions: {
						upload: {
							href: `${origin}/api/lfs-upload/${encodeId(repo.id)}/${oid}?${query.toString()}`,
							expires_in: UPLOAD_URL_TTL_SECONDS,
						},
						verify: {
							href: `${origin}/${encodeId(repo.id)}.git/info/lfs/objects/verify`,
							expires_in: UPLOAD_URL_TTL_SECONDS,
						},
					},
				});
			}
			return reply.type(LFS_TYPE).send({ transfer: "basic", objects: answers, hash_algo: "sha256" });
		},
	);

	app.post(
		"/:namespace/:repo/info/lfs/objects/verify",
		{ onRequest: repoAccess(options, "write", lfsModelId) },
		async (request, reply) => {
			const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
				string,
				unknown
			>;
			const { oid, size } = body;
			if (typeof oid !== "string" || !isSha256(oid))
				throw new LfsError("Unprocessable", "oid must be a SHA-256");
			const held = (await repoObjects(db, request.repo!.id, [oid])).get(oid);
			if (!held || (typeof size === "number" && held.size !== size)) {
				throw new LfsError("NotFound", `object ${oid} was not uploaded to ${request.repo!.id}`);
			}
			return reply.type(LFS_TYPE).send({ oid, size: held.size });
		},
	);
}
