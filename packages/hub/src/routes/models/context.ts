import type { FastifyReply, FastifyRequest } from "fastify";
import type { ResponseCache } from "../../cache.js";
import type { Database } from "../../db/types.js";
import { REPO_NOT_FOUND, sendError, sendHubError } from "../../http.js";
import { resolveRevision } from "../../repos/read.js";
import type { BlobStore } from "../../storage/types.js";

export interface ModelRoutesOptions {
	db: Database;
	cache: ResponseCache;
	storage: BlobStore;
	adminToken: string | undefined;
}

const MAX_REVISION_LENGTH = 256;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The model and commit a request names, or undefined after answering the error huggingface_hub expects
 * (RepoNotFound, RevisionNotFound with `Invalid rev id: …`).
 */
export async function resolveOrReply(
	reply: FastifyReply,
	db: Database,
	id: string,
	revision: string,
): Promise<{ modelId: string; commitId: string } | undefined> {
	if (
		revision.length === 0 ||
		revision.length > MAX_REVISION_LENGTH ||
		CONTROL.test(revision) ||
		!revision.isWellFormed()
	) {
		sendError(reply, 400, `invalid revision: must be 1 to ${MAX_REVISION_LENGTH} printable characters`);
		return undefined;
	}
	const resolved = await resolveRevision(db, id, revision);
	if (resolved.status === "no-model") {
		sendHubError(reply, "RepoNotFound", REPO_NOT_FOUND);
		return undefined;
	}
	if (resolved.status === "no-revision") {
		sendHubError(reply, "RevisionNotFound", `Invalid rev id: ${revision}`);
		return undefined;
	}
	return resolved;
}

/** The scheme and host to put in absolute Link URLs, when the Host header is a plain host name. */
export function originOf(request: FastifyRequest): string {
	const host = request.host;
	return typeof host === "string" && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
		? `${request.protocol}://${host}`
		: "";
}

/** `ns/name` → `ns/name`, each part URL-encoded (for Link URLs). */
export function encodeId(id: string): string {
	return id.split("/").map(encodeURIComponent).join("/");
}
