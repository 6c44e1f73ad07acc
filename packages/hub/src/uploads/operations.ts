import type { Unchecked } from "../api/unchecked.js";
import type { BlobLocation } from "../blobs/small.js";
import type { CommitHeaderRequest } from "../api/uploads.js";
import { HubError, type ErrorKind } from "../errors.js";
import type { TreeEdit } from "../repos/commits.js";
import { repoPathProblem, writablePathProblem } from "../repos/paths.js";
import { isSha256 } from "../storage/types.js";
import { hasControlCharacterBesidesLines } from "@modelhub/tasks/literals";

/**
 * The operations of a commit, as huggingface_hub's `create_commit` sends them (one NDJSON line each
 * after the header): `file` (content inline, stored before the commit is made), `lfsFile` (an object
 * the repository already holds, by SHA-256), `deletedFile`, `deletedFolder`. Copies arrive as `file`
 * or `lfsFile` (the client resolves them). Applied in order to the branch's current files.
 */
export type CommitOperation =
	| {
			kind: "file";
			path: string;
			sha256: string;
			size: number;
			gitOid: string | undefined;
			lfs: boolean;
			/** Where the commit stored its bytes, when it did (a hint for reading them back: readBlob). */
			storedIn?: BlobLocation;
	  }
	| { kind: "lfsFile"; path: string; sha256: string; size: number | undefined }
	| { kind: "deletedFile"; path: string }
	| { kind: "deletedFolder"; path: string };

export interface CommitHeader {
	summary: string;
	description: string;
	/** The commit the client expects the branch to point to (a full id or a prefix of 5 or more). */
	parentCommit?: string;
}

/** A commit that cannot be made as sent (Invalid unless another kind is given). */
export class CommitOperationError extends HubError {
	override name = "CommitOperationError";
	constructor(message: string, kind: ErrorKind = "Invalid") {
		super(kind, message);
	}
}

const MAX_SUMMARY = 1000;
const MAX_DESCRIPTION = 100_000;

function bad(message: string): never {
	throw new CommitOperationError(message);
}

function record(value: unknown, what: string): Record<string, unknown> {
	if (typeof value !== "object" || value === null || Array.isArray(value)) bad(`${what} must be an object`);
	return value as Record<string, unknown>;
}

export function checkPath(value: unknown, what = "path", use: "write" | "name" = "write"): string {
	if (typeof value !== "string") bad(`${what} must be a string`);
	// A path written must be safe for every client (writablePathProblem); one only named (deleted) need
	// only be a path, so that files stored before a rule existed can still be removed.
	const problem = use === "write" ? writablePathProblem(value) : repoPathProblem(value);
	if (problem) bad(`invalid ${what} ${JSON.stringify(value.slice(0, 200))}: ${problem}`);
	return value;
}

/** The header line's value: `{ summary, description?, parentCommit? }`. */
export function parseHeader(value: unknown): CommitHeader {
	const header: Unchecked<CommitHeaderRequest> = record(value, "the header");
	let summary = header.summary;
	if (typeof summary !== "string" || summary.trim() === "")
		bad("the commit summary must be a non-empty string");
	let description = header.description ?? "";
	if (typeof description !== "string") bad("the commit description must be a string");
	// A summary is one line: further lines belong to the description (as `git commit -m` would have it).
	summary = summary.replace(/\r\n?/g, "\n").trim();
	const newline = (summary as string).indexOf("\n");
	if (newline >= 0) {
		description = `${(summary as string).slice(newline + 1).trim()}${description ? `\n\n${description}` : ""}`;
		summary = (summary as string).slice(0, newline).trim();
	}
	if ((summary as string).length > MAX_SUMMARY)
		bad(`the commit summary must be at most ${MAX_SUMMARY} characters`);
	if ((description as string).length > MAX_DESCRIPTION) {
		bad(`the commit description must be at most ${MAX_DESCRIPTION} characters`);
	}
	for (const text of [summary as string, description as string]) {
		if (hasControlCharacterBesidesLines(text) || !text.isWellFormed()) {
			bad("the commit message must not contain control characters or unpaired surrogates");
		}
	}
	const out: CommitHeader = { summary: summary as string, description: (description as string).trim() };
	const parent = header.parentCommit;
	if (parent !== undefined && parent !== null) {
		if (typeof parent !== "string" || !/^[0-9a-fA-F]{5,40}$/.test(parent)) {
			bad("parentCommit must be a commit id (5 to 40 hexadecimal digits)");
		}
		out.parentCommit = parent.toLowerCase();
	}
	return out;
}

/** An `lfsFile` value: `{ path, algo: "sha256", oid, size? }` (copies leave size out). */
export function parseLfsFile(value: unknown): CommitOperation {
	const file = record(value, "an lfsFile");
	const path = checkPath(file.path);
	if (file.algo !== undefined && file.algo !== "sha256")
		bad(`${path}: only sha256 LFS objects are supported`);
	if (typeof file.oid !== "string" || !isSha256(file.oid))
		bad(`${path}: oid must be a SHA-256 (64 lowercase hex digits)`);
	const size = file.size;
	if (
		size !== undefined &&
		size !== null &&
		(typeof size !== "number" || !Number.isSafeInteger(size) || size < 0)
	) {
		bad(`${path}: size must be a non-negative whole number`);
	}
	return { kind: "lfsFile", path, sha256: file.oid, size: typeof size === "number" ? size : undefined };
}

export function parseDeletion(key: "deletedFile" | "deletedFolder", value: unknown): CommitOperation {
	const entry = record(value, `a ${key}`);
	let path = entry.path;
	// huggingface_hub sends folders with their trailing "/".
	if (key === "deletedFolder" && typeof path === "string") path = path.replace(/\/+$/, "");
	return { kind: key, path: checkPath(path, "path", "name") };
}

/** Whether a parentCommit (full or a prefix) names the branch's head. */
export function parentMatches(parentCommit: string, head: string): boolean {
	return head.startsWith(parentCommit);
}

/**
 * The operations as edits to the branch's tree, in order (repos/commits.ts applies them and answers
 * deletions of missing paths). `objects` are the LFS objects the repository holds (an `lfsFile` naming
 * anything else is refused).
 */
export function operationEdits(
	operations: readonly CommitOperation[],
	objects: ReadonlyMap<string, { size: number; gitOid: string | null }>,
): TreeEdit[] {
	return operations.map((op): TreeEdit => {
		switch (op.kind) {
			case "file":
				return {
					kind: "put",
					file: { path: op.path, sha256: op.sha256, size: op.size, gitOid: op.gitOid, lfs: op.lfs },
				};
			case "lfsFile": {
				const object = objects.get(op.sha256);
				if (!object) {
					bad(
						`${op.path}: the LFS object ${op.sha256} was never uploaded to this repository; upload it first (the LFS batch API, or Xet)`,
					);
				}
				if (op.size !== undefined && op.size !== object.size) {
					bad(`${op.path}: the LFS object ${op.sha256} has ${object.size} bytes, not ${op.size}`);
				}
				return {
					kind: "put",
					file: { path: op.path, sha256: op.sha256, size: object.size, gitOid: object.gitOid, lfs: true },
				};
			}
			case "deletedFile":
				return { kind: "deleteFile", path: op.path };
			case "deletedFolder":
				return { kind: "deleteFolder", path: op.path };
		}
	});
}
