import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Unchecked } from "../../api/unchecked.js";
import type { PreuploadAnswer, PreuploadRequest, UploadParameters } from "../../api/uploads.js";
import { HubError } from "../../errors.js";
import { JSON_TYPE } from "../../http.js";
import { fileOid } from "../../repos/git.js";
import { entriesAt, fileAt, fileBytes, readableRevision } from "../../services/contents.js";
import { GitIgnore } from "../../uploads/gitignore.js";
import { CommitOperationError, checkPath } from "../../uploads/operations.js";
import { uploadMode } from "../../uploads/upload-mode.js";
import { flag, type RawQuery } from "../query.js";
import type { ModelRoutesOptions } from "../models/context.js";
import { repoAccess } from "../repo-access.js";

/** Files per preupload call (huggingface_hub sends 256). */
const MAX_PREUPLOAD_FILES = 1000;
const MAX_GITIGNORE_BYTES = 1024 * 1024;
const SAMPLE_BYTES = 512;

export const PULL_REQUESTS_UNSUPPORTED =
	"Pull requests are not supported by this hub: commit to a branch (create one with create_branch)";

/** Refuses `create_pr=1` (sent by huggingface_hub's `create_pr=True`) clearly. */
export function refusePullRequest(request: FastifyRequest): void {
	if (flag(request.query as RawQuery<keyof UploadParameters>, "create_pr") === true) {
		throw new HubError("Invalid", PULL_REQUESTS_UNSUPPORTED);
	}
}

interface PreuploadFile {
	path: string;
	size: number;
	sample: Buffer;
}

function parseFiles(body: unknown): { files: PreuploadFile[]; gitIgnore: string | undefined } {
	const record: Unchecked<PreuploadRequest> = typeof body === "object" && body !== null ? body : {};
	const list = record.files;
	if (!Array.isArray(list))
		throw new CommitOperationError("'files' must be a list of { path, sample, size }");
	if (list.length > MAX_PREUPLOAD_FILES) {
		throw new CommitOperationError(`at most ${MAX_PREUPLOAD_FILES} files per preupload request`);
	}
	const files = list.map((item, index): PreuploadFile => {
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
 * `POST /api/models/{id}/preupload/{revision}`: how each file is to be uploaded (`regular` inline in
 * the commit, `lfs` beforehand), whether `.gitignore` excludes it, and the `oid` of the file already at
 * that path (its SHA-256 for LFS files, its git blob id otherwise), which huggingface_hub compares with
 * its own to leave unchanged files out of the commit.
 */
export function preuploadRoute(app: FastifyInstance, options: ModelRoutesOptions): void {
	app.post<{ Params: { revision: string } }>(
		"/api/models/:namespace/:name/preupload/:revision",
		{ onRequest: repoAccess(options, "write") },
		async (request, reply) => {
			refusePullRequest(request);
			const parsed = parseFiles(request.body);
			const resolved = await readableRevision(
				options,
				request.viewer,
				request.repo!.id,
				request.params.revision,
			);
			let ignore: GitIgnore | undefined;
			if (parsed.gitIgnore !== undefined) ignore = new GitIgnore(parsed.gitIgnore);
			else {
				const stored = await fileAt(options, resolved, ".gitignore");
				if (stored && stored.size <= MAX_GITIGNORE_BYTES) {
					const chunks: Buffer[] = [];
					for await (const chunk of await fileBytes(options, stored)) chunks.push(chunk as Buffer);
					ignore = new GitIgnore(Buffer.concat(chunks).toString("utf8"));
				}
			}
			const existing = await entriesAt(
				options,
				resolved,
				parsed.files.map((file) => file.path),
			);
			const oids = new Map<string, string>();
			for (const entry of existing) {
				if (entry.type === "file") oids.set(entry.path, entry.lfs ? entry.sha256 : fileOid(entry));
			}
			return reply.type(JSON_TYPE).send({
				files: parsed.files.map((file) => {
					const oid = oids.get(file.path);
					return {
						path: file.path,
						uploadMode: uploadMode(file, options.uploads.maxRegularFileBytes),
						shouldIgnore: ignore?.ignores(file.path) ?? false,
						...(oid !== undefined ? { oid } : {}),
					};
				}),
				commitOid: resolved.commitId,
			} satisfies PreuploadAnswer);
		},
	);
}
