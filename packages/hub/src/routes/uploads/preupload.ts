import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Unchecked } from "../../api/unchecked.js";
import type { PreuploadAnswer, PreuploadRequest, UploadParameters } from "../../api/uploads.js";
import { JSON_TYPE } from "../../http.js";
import { MAX_GITIGNORE_BYTES, planPreupload, type PlannedFile } from "../../services/uploads.js";
import { CommitOperationError, checkPath } from "../../uploads/operations.js";
import { actorOf } from "../auth.js";
import { flag, type RawQuery } from "../query.js";
import { proposerAccess } from "../repo-access.js";
import { apiRoute, forEachRepoRoute, type RepoUrls, type RouteIdShape } from "../repo-paths.js";
import type { UploadRoutesOptions } from "./options.js";

/** Files per preupload call (huggingface_hub sends 256). */
const MAX_PREUPLOAD_FILES = 1000;
const SAMPLE_BYTES = 512;

/** Whether the request opens a pull request (`create_pr=1`, sent by huggingface_hub's `create_pr=True`). */
export function createsPullRequest(request: FastifyRequest): boolean {
	return flag(request.query as RawQuery<keyof UploadParameters>, "create_pr") === true;
}

function parseFiles(body: unknown): { files: PlannedFile[]; gitIgnore: string | undefined } {
	const record: Unchecked<PreuploadRequest> = typeof body === "object" && body !== null ? body : {};
	const list = record.files;
	if (!Array.isArray(list))
		throw new CommitOperationError("'files' must be a list of { path, sample, size }");
	if (list.length > MAX_PREUPLOAD_FILES) {
		throw new CommitOperationError(`at most ${MAX_PREUPLOAD_FILES} files per preupload request`);
	}
	const files = list.map((item, index): PlannedFile => {
		const file: Unchecked<PreuploadRequest["files"][number]> =
			typeof item === "object" && item !== null ? item : {};
		const path = checkPath(file.path, `files[${index}].path`);
		const size = file.size;
		if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) {
			throw new CommitOperationError(`files[${index}].size must be a non-negative whole number`);
		}
		const sample =
			typeof file.sample === "string"
				? Buffer.from(file.sample, "base64").subarray(0, SAMPLE_BYTES)
				: Buffer.alloc(0);
		return { path, size, sample };
	});
	const gitIgnore = record.gitIgnore;
	if (gitIgnore !== undefined && (typeof gitIgnore !== "string" || gitIgnore.length > MAX_GITIGNORE_BYTES)) {
		throw new CommitOperationError(
			`'gitIgnore' must be a string of at most ${MAX_GITIGNORE_BYTES} characters`,
		);
	}
	return { files, gitIgnore: gitIgnore as string | undefined };
}

/**
 * `POST /api/models/{id}/preupload/{revision}`: how each file is to be uploaded, whether `.gitignore`
 * excludes it, and the `oid` of the file already at that path (services/uploads.ts, planPreupload).
 */
export function preuploadRoute(app: FastifyInstance, options: UploadRoutesOptions): void {
	const { services } = options;
	forEachRepoRoute(preuploadRouteOf);

	function preuploadRouteOf(urls: RepoUrls, shape: RouteIdShape): void {
		app.post<{ Params: { revision: string } }>(
			apiRoute(urls, "preupload/:revision", shape),
			// Readers may open pull requests: the service checks the right for this revision.
			{ onRequest: proposerAccess(services, urls.type) },
			async (request, reply) => {
				const parsed = { ...parseFiles(request.body), createPr: createsPullRequest(request) };
				const plan = await planPreupload(
					services,
					actorOf(request),
					request.repo!,
					request.params.revision,
					parsed,
				);
				return reply.type(JSON_TYPE).send({
					files: plan.files.map((file) => ({
						path: file.path,
						uploadMode: file.mode,
						shouldIgnore: file.ignored,
						...(file.oid !== undefined ? { oid: file.oid } : {}),
					})),
					commitOid: plan.commitId,
				} satisfies PreuploadAnswer);
			},
		);
	}
}
