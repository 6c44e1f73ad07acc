import type { FastifyInstance } from "fastify";
import type { MirrorService } from "../../mirror/service.js";
import { REPO_TYPE_URLS, repoPagePath } from "../../repo-identity.js";
import { croissantOf, viewedDataset, type ViewerContext } from "../../services/viewer.js";
import { readableRevision } from "../../services/contents.js";
import type { JsonLd } from "../../viewer/croissant.js";
import { publicOrigin } from "../models/context.js";
import { mirrorRepoGet } from "../mirror.js";
import { checkRepoId } from "../repo-paths.js";

const JSON_LD = "application/ld+json; charset=utf-8";

/**
 * `GET /api/datasets/{namespace}/{name}/croissant`: the dataset's Croissant metadata (JSON-LD) at main, as the
 * public hub serves it (mlcroissant reads `https://huggingface.co/api/datasets/{id}/croissant`). A dataset the
 * caller may not read is the API's plain 404, as `/api/datasets/{id}` answers it. In mirror mode a dataset this
 * hub does not have is the upstream's, as the other dataset API routes answer it.
 */
export function croissantRoutes(
	app: FastifyInstance,
	context: ViewerContext,
	publicUrl: string | undefined,
	mirror: MirrorService | undefined,
): void {
	const api = REPO_TYPE_URLS.dataset.api;
	app.get<{ Params: { namespace: string; name: string } }>(
		`/api/${api}/:namespace/:name/croissant`,
		async (request, reply): Promise<JsonLd | typeof reply> => {
			const id = checkRepoId(`${request.params.namespace}/${request.params.name}`, "dataset");
			if (mirror && (await mirror.mirrors({ type: "dataset", id })))
				return mirrorRepoGet(mirror, { type: "dataset", id }, request, reply, JSON_LD);
			// The repository's own 404 first (private, missing), then the viewer's reading of its files.
			await readableRevision(context, request.viewer, { type: "dataset", id }, "main");
			const dataset = await viewedDataset(context, request.viewer, id, "main");
			const page = `${publicOrigin(request, publicUrl)}${repoPagePath({ type: "dataset", id })}`;
			void reply.header("x-revision", dataset.at.commitId);
			void reply.header("cache-control", dataset.at.private ? "private, no-store" : "no-cache");
			void reply.type(JSON_LD);
			return croissantOf(context, dataset, page);
		},
	);
}
