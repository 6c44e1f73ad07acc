import type { FastifyInstance, FastifyRequest } from "fastify";
import { HubError } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import { XET_HASH } from "../xet/hashes.js";
import { issueXetWriteToken, receiveShard, receiveXorb, xetGrantOf, type XetGrant } from "../services/xet.js";
import { actorOf, bearerToken, tooManyFailures } from "./auth.js";
import { publicOrigin } from "./models/context.js";
import { proposerAccess } from "./repo-access.js";
import { apiRoute, forEachRepoRoute, type RepoUrls, type RouteIdShape } from "./repo-paths.js";
import { isStream } from "./uploads/commit.js";
import type { UploadRoutesOptions } from "./uploads/options.js";
import { createsPullRequest } from "./uploads/preupload.js";

declare module "fastify" {
	interface FastifyRequest {
		xet?: XetGrant;
	}
}

/** Where the hub serves the Xet CAS API (the `casUrl` it hands out). */
export const XET_PREFIX = "/xet";

export const XET_DISABLED =
	"Xet uploads are turned off on this hub (MODELHUB_XET=false): set HF_HUB_DISABLE_XET=1 to upload through LFS";

/**
 * Where a hub with Xet turned off sends hf_xet. hf_xet shows only the status and URL of a failed
 * request, never the body: so the URL itself tells the user what to do, and every request there fails
 * at once with a 400 (which hf_xet does not retry).
 */
export const XET_OFF_PREFIX = "/xet-is-off-on-this-hub--set-HF_HUB_DISABLE_XET=1";

const NO_XET_DOWNLOADS =
	"This hub serves files over plain HTTP (/{id}/resolve/{revision}/{path}), not through Xet";

/**
 * The part of the Xet protocol that huggingface_hub 2.x uploads need (its default with hf_xet
 * installed, which does not fall back to LFS): a CAS token (`xet-write-token`), xorb upload, shard
 * upload. Xorbs are stored as blobs and kept per account; a shard's files are rebuilt from the
 * uploader's own xorbs into ordinary content-addressed blobs and checked against their SHA-256, so
 * commits, downloads and storage stay as for any other file. Global deduplication and Xet downloads
 * are not offered (downloads go over HTTP): the client copes with both.
 */
export function xetRoutes(app: FastifyInstance, options: UploadRoutesOptions): void {
	const { services, limiter } = options;
	const xetOn = services.settings.uploads.xet;

	forEachRepoRoute(writeTokenRoute);

	function writeTokenRoute(urls: RepoUrls, shape: RouteIdShape): void {
		app.get<{ Params: { revision: string } }>(
			apiRoute(urls, "xet-write-token/:revision", shape),
			// Readers may ask too, for a pull request: the service checks the right for the revision.
			{ onRequest: proposerAccess(services, urls.type) },
			async (request, reply) => {
				if (!xetOn) {
					return reply
						.header("cache-control", "no-store")
						.type(JSON_TYPE)
						.send({
							accessToken: "xet-is-off",
							exp: Math.floor(Date.now() / 1000) + 3600,
							casUrl: `${publicOrigin(request, options.publicUrl)}${XET_OFF_PREFIX}`,
						});
				}
				// huggingface_hub asks for `None` with create_pr=1 (the pull request's ref is not known yet, and
				// its utils/_xet.py says the server answers "a token for PR refs"): the token is the repository's.
				const createPr = createsPullRequest(request);
				const revision = createPr && request.params.revision === "None" ? "main" : request.params.revision;
				const { token, expiresAt } = await issueXetWriteToken(
					services,
					actorOf(request),
					request.repo!,
					revision,
					createPr,
				);
				return reply
					.header("cache-control", "no-store")
					.type(JSON_TYPE)
					.send({
						accessToken: token,
						exp: expiresAt,
						casUrl: `${publicOrigin(request, options.publicUrl)}${XET_PREFIX}`,
					});
			},
		);
	}

	async function casAuth(request: FastifyRequest): Promise<void> {
		if (!xetOn) throw new HubError("NotImplemented", XET_DISABLED);
		const header = request.headers.authorization;
		const token = bearerToken(header);
		const credential = token === "malformed" ? String(header) : token;
		if (credential !== undefined) {
			const block = limiter.blocked(request.ip, credential);
			if (block) throw tooManyFailures(block);
		}
		const grant =
			typeof token === "string" && token !== "malformed" ? await xetGrantOf(services, token) : undefined;
		if (!grant) {
			if (credential !== undefined) limiter.fail(request.ip, credential);
			throw new HubError(
				"Unauthorized",
				"a valid Xet token is required (ask /api/models/{id}/xet-write-token/{revision} for one)",
				{ challenge: 'Bearer realm="modelhub-xet"' },
			);
		}
		request.xet = grant;
	}
	const cas = { onRequest: casAuth, config: { auth: "xet" as const, upload: true } };

	app.all(`${XET_OFF_PREFIX}/*`, { config: { auth: "xet" as const } }, async () => {
		throw new HubError("Invalid", XET_DISABLED);
	});

	app.get(`${XET_PREFIX}/v1/chunks/:prefix/:hash`, cas, async () => {
		throw new HubError("NotFound", "global deduplication is not offered by this hub");
	});
	for (const path of [`${XET_PREFIX}/v1/reconstructions/:hash`, `${XET_PREFIX}/v2/reconstructions/:hash`]) {
		app.get(path, cas, async () => {
			throw new HubError("NotFound", NO_XET_DOWNLOADS);
		});
	}
	// hf_xet tries the streaming v2 shard API first and falls back to v1 on 404.
	app.post(`${XET_PREFIX}/v2/shards`, cas, async () => {
		throw new HubError("NotFound", "this hub speaks the v1 shard API");
	});

	app.post<{ Params: { prefix: string; hash: string } }>(
		`${XET_PREFIX}/v1/xorbs/:prefix/:hash`,
		cas,
		async (request, reply) => {
			const { prefix, hash } = request.params;
			if (prefix !== "default") throw new HubError("Invalid", "the xorb prefix must be 'default'");
			if (!XET_HASH.test(hash)) throw new HubError("Invalid", "a xorb hash is 64 lowercase hex digits");
			const body = request.body;
			if (!isStream(body)) throw new HubError("Invalid", "send the serialized xorb as the request body");
			const inserted = await receiveXorb(services, request.xet!, hash, body);
			return reply.type(JSON_TYPE).send({ was_inserted: inserted });
		},
	);

	app.post(`${XET_PREFIX}/v1/shards`, cas, async (request, reply) => {
		const grant = request.xet!;
		const body = request.body;
		if (!isStream(body)) throw new HubError("Invalid", "send the serialized shard as the request body");
		const registered = await receiveShard(services, grant, body, request.ip);
		return reply.type(JSON_TYPE).send({ result: registered > 0 ? 1 : 0 });
	});
}
