import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Multipart } from "@fastify/multipart";
import type { CommitAnswer } from "../../api/uploads.js";
import { HubError } from "../../errors.js";
import { JSON_TYPE } from "../../http.js";
import { startCommit, type CommitUpload } from "../../services/uploads.js";
import { lines } from "../../uploads/ndjson.js";
import {
	checkPath,
	CommitOperationError,
	parseDeletion,
	parseHeader,
	parseLfsFile,
	type CommitHeader,
	type CommitOperation,
} from "../../uploads/operations.js";
import { actorOf } from "../auth.js";
import { publicOrigin } from "../models/context.js";
import { proposerAccess } from "../repo-access.js";
import { apiRoute, forEachRepoRoute, repoPageUrl, type RepoUrls, type RouteIdShape } from "../repo-paths.js";
import type { UploadRoutesOptions } from "./options.js";
import { createsPullRequest } from "./preupload.js";

/** Room for one inline file of the largest allowed size, base64-encoded, and its JSON around it. */
function maxLineBytes(maxRegularBytes: number): number {
	return Math.ceil(maxRegularBytes / 3) * 4 + 64 * 1024;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

interface Limits {
	/** Where the commit's files go as they arrive. */
	upload: CommitUpload;
	maxRegularBytes: number;
	maxFileBytes: number;
	maxOperations: number;
}

/** One NDJSON line `{ key, value }` after the header, as an operation (inline files are stored). */
async function operationOf(limits: Limits, key: unknown, value: unknown): Promise<CommitOperation> {
	switch (key) {
		case "file": {
			const file = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
			const path = checkPath(file.path);
			if (typeof file.content !== "string")
				throw new CommitOperationError(`${path}: content must be a string`);
			const encoding = file.encoding ?? "base64";
			let bytes: Buffer;
			if (encoding === "base64") {
				if (!BASE64.test(file.content) || file.content.length % 4 !== 0) {
					throw new CommitOperationError(`${path}: content is not valid base64`);
				}
				bytes = Buffer.from(file.content, "base64");
			} else if (encoding === "utf-8" || encoding === "utf8") {
				bytes = Buffer.from(file.content, "utf8");
			} else {
				throw new CommitOperationError(`${path}: encoding must be "base64" or "utf-8"`);
			}
			return limits.upload.storeFile(path, bytes, true);
		}
		case "lfsFile":
			return parseLfsFile(value);
		case "deletedFile":
		case "deletedFolder":
			return parseDeletion(key, value);
		default:
			throw new CommitOperationError(
				`unknown operation ${JSON.stringify(String(key)).slice(0, 40)}: expected file, lfsFile, deletedFile or deletedFolder`,
			);
	}
}

function jsonLine(line: Buffer, index: number): { key: unknown; value: unknown } {
	let parsed: unknown;
	try {
		parsed = JSON.parse(line.toString("utf8"));
	} catch {
		throw new CommitOperationError(`line ${index + 1} of the commit is not valid JSON`);
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
		throw new CommitOperationError(`line ${index + 1} of the commit must be an object { key, value }`);
	}
	const record = parsed as Record<string, unknown>;
	return { key: record.key, value: record.value };
}

/** huggingface_hub's NDJSON: a header line, then one line per operation. */
async function readNdjson(
	limits: Limits,
	body: AsyncIterable<Uint8Array>,
): Promise<{ header: CommitHeader; operations: CommitOperation[] }> {
	let header: CommitHeader | undefined;
	const operations: CommitOperation[] = [];
	let index = 0;
	for await (const line of lines(body, maxLineBytes(limits.maxRegularBytes))) {
		if (line.length === 0 || (line.length === 1 && line[0] === 0x0d)) continue;
		const { key, value } = jsonLine(line, index++);
		if (header === undefined) {
			if (key !== "header") throw new CommitOperationError("the first line of a commit must be its header");
			header = parseHeader(value);
			continue;
		}
		if (key === "header") throw new CommitOperationError("a commit has one header");
		if (operations.length >= limits.maxOperations) throw tooManyOperations(limits.maxOperations);
		operations.push(await operationOf(limits, key, value));
	}
	if (header === undefined) throw new CommitOperationError("the commit is empty: send a header line first");
	return { header, operations };
}

function tooManyOperations(max: number): CommitOperationError {
	return new CommitOperationError(
		`a commit has at most ${max} operations (MODELHUB_MAX_COMMIT_OPERATIONS): split it into several commits`,
		"TooLarge",
	);
}

/** The percent-escapes browsers put in multipart file names (HTML's form encoding), undone. */
function multipartFilename(name: string): string {
	return name.replace(/%22/g, '"').replace(/%0D/gi, "\r").replace(/%0A/gi, "\n");
}

/**
 * A browser's commit, `multipart/form-data`: a `header` field first (the header line's JSON), then
 * any number of `operation` fields (NDJSON-style `{ key, value }` lines: lfsFile, deletedFile,
 * deletedFolder) and `file` parts whose file name is the path in the repository. File parts stream
 * to storage (up to MODELHUB_MAX_FILE_BYTES each): small text files stay regular, the rest LFS.
 */
async function readMultipart(
	limits: Limits,
	parts: AsyncIterable<Multipart>,
): Promise<{ header: CommitHeader; operations: CommitOperation[] }> {
	let header: CommitHeader | undefined;
	const operations: CommitOperation[] = [];
	for await (const part of parts) {
		if (part.type === "file") {
			if (header === undefined) {
				part.file.resume();
				throw new CommitOperationError("the 'header' field must come before the files");
			}
			if (part.fieldname !== "file") {
				part.file.resume();
				throw new CommitOperationError(
					`unexpected file field ${JSON.stringify(part.fieldname.slice(0, 40))}: name file parts 'file'`,
				);
			}
			if (operations.length >= limits.maxOperations) {
				part.file.resume();
				throw tooManyOperations(limits.maxOperations);
			}
			const path = checkPath(
				multipartFilename(part.filename ?? ""),
				"file name (the path in the repository)",
			);
			operations.push(await limits.upload.storeFile(path, part.file, false));
			continue;
		}
		const value = typeof part.value === "string" ? part.value : String(part.value);
		if (part.fieldname === "header") {
			if (header !== undefined) throw new CommitOperationError("a commit has one header");
			const parsed = jsonLine(Buffer.from(value, "utf8"), 0);
			header = parseHeader(parsed.key === "header" ? parsed.value : JSON.parse(value));
		} else if (part.fieldname === "operation") {
			if (header === undefined) throw new CommitOperationError("the 'header' field must come first");
			if (operations.length >= limits.maxOperations) throw tooManyOperations(limits.maxOperations);
			const { key, value: opValue } = jsonLine(Buffer.from(value, "utf8"), operations.length + 1);
			if (key === "file") {
				throw new CommitOperationError("send files as 'file' parts, not inline in an 'operation' field");
			}
			operations.push(await operationOf(limits, key, opValue));
		} else {
			throw new CommitOperationError(
				`unexpected field ${JSON.stringify(part.fieldname.slice(0, 40))}: expected header, operation or file`,
			);
		}
	}
	if (header === undefined) throw new CommitOperationError("the commit has no 'header' field");
	return { header, operations };
}

/** The multipart reader's own errors (limits, broken bodies) in a commit's words; others pass. */
function multipartError(error: unknown): never {
	const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
	if (typeof code === "string" && code.startsWith("FST_") && typeof statusCode === "number" && statusCode) {
		if (statusCode === 413) throw new HubError("TooLarge", "a file is larger than MODELHUB_MAX_FILE_BYTES");
		throw new HubError("Invalid", `malformed multipart body: ${(error as Error).message.slice(0, 200)}`);
	}
	throw error;
}

/** The commit's header and operations, from NDJSON or multipart (inline and multipart files stored). */
async function readCommit(
	request: FastifyRequest,
	limits: Limits,
): Promise<{ header: CommitHeader; operations: CommitOperation[] }> {
	if (request.isMultipart()) {
		return await readMultipart(
			limits,
			request.parts({
				limits: {
					fileSize: limits.maxFileBytes,
					files: limits.maxOperations,
					fields: limits.maxOperations + 1,
					fieldSize: 1024 * 1024,
					parts: limits.maxOperations * 2 + 1,
				},
			}),
		).catch(multipartError);
	}
	if (isStream(request.body) && /^application\/x-ndjson\b/i.test(request.headers["content-type"] ?? "")) {
		return await readNdjson(limits, request.body);
	}
	throw new HubError(
		"UnsupportedMediaType",
		"send the commit as application/x-ndjson (huggingface_hub's format) or multipart/form-data",
	);
}

/**
 * `POST /api/models/{id}/commit/{branch}`: one commit from huggingface_hub's NDJSON (or a browser's
 * multipart form). Rights and the branch are checked before a byte of the body is read; inline files
 * are stored as they arrive and made durable in batches (a failed request's are removed); the commit itself is one transaction (services/commits.ts).
 */
export function commitRoute(app: FastifyInstance, options: UploadRoutesOptions): void {
	const { services } = options;
	const { maxFileBytes, uploads } = services.settings;

	forEachRepoRoute(commitRouteOf);

	function commitRouteOf(urls: RepoUrls, shape: RouteIdShape): void {
		app.post<{ Params: { revision: string } }>(
			apiRoute(urls, "commit/:revision", shape),
			// Readers may open pull requests: startCommit checks the right for this revision before the body is read.
			{ onRequest: proposerAccess(services, urls.type), config: { upload: true } },
			async (request: FastifyRequest<{ Params: { revision: string } }>, reply) => {
				const repo = request.repo!;
				const upload = await startCommit(
					services,
					actorOf(request),
					repo,
					request.params.revision,
					createsPullRequest(request),
				);
				const limits: Limits = {
					upload,
					maxRegularBytes: uploads.maxRegularFileBytes,
					maxFileBytes,
					maxOperations: uploads.maxCommitOperations,
				};
				let parsed: { header: CommitHeader; operations: CommitOperation[] };
				try {
					parsed = await readCommit(request, limits);
				} catch (error) {
					await upload.abandon();
					throw error;
				}
				const result = await upload.commit(parsed.header, parsed.operations);
				const page = repoPageUrl(publicOrigin(request, options.publicUrl), repo);
				return reply.type(JSON_TYPE).send({
					success: true,
					commitOid: result.commitId,
					commitUrl: `${page}/commit/${result.commitId}`,
					// huggingface_hub reads the pull request's number from this URL's end (`…/discussions/N`).
					pullRequestUrl:
						result.pullRequest === undefined ? null : `${page}/discussions/${result.pullRequest}`,
				} satisfies CommitAnswer);
			},
		);
	}
}

export function isStream(body: unknown): body is AsyncIterable<Uint8Array> {
	return typeof body === "object" && body !== null && Symbol.asyncIterator in body;
}
