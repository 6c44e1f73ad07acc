import type { FastifyRequest } from "fastify";
import type { FailureLimiter } from "../../accounts/rate-limit.js";
import { canRead, type Viewer } from "../../accounts/viewer.js";
import type { ResponseCache } from "../../cache.js";
import type { UploadSettings } from "../../config.js";
import type { Database } from "../../db/types.js";
import { HubError, repoNotFound, revisionNotFound } from "../../errors.js";
import { resolveRevision } from "../../repos/read.js";
import type { ChangeEvents } from "../../services/changes.js";
import type { BlobStore } from "../../storage/types.js";

export interface ModelRoutesOptions {
	db: Database;
	/** The bus the services announce their writes on (the cache listens to it). */
	changes: ChangeEvents;
	/** Cached GET answers (cleared by a listener of `changes`). */
	cache: ResponseCache;
	storage: BlobStore;
	adminToken: string | undefined;
	/** Largest file an upload may store. */
	maxFileBytes: number;
	uploads: UploadSettings;
	/** The URL clients reach the hub at, when configured (MODELHUB_PUBLIC_URL). */
	publicUrl: string | undefined;
	/** Key of the signatures in the upload URLs the hub hands out (shared by hubs on one database). */
	signingKey: Buffer;
	limiter: FailureLimiter;
}

/**
 * The cache key of a GET answer: the raw URL, prefixed by who asks when it is someone (an answer may
 * include private models only they see). Anonymous answers never include private models.
 */
export function viewerCacheKey(kind: string, viewer: Viewer, url: string): string {
	if (viewer.kind === "anonymous") return `${kind}:${url}`;
	if (viewer.kind === "admin") return `${kind}@admin:${url}`;
	return `${kind}@${viewer.account.name}:${url}`;
}

const MAX_REVISION_LENGTH = 256;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The model and commit a request names, or the error huggingface_hub expects (RepoNotFound,
 * RevisionNotFound with `Invalid rev id: …`).
 */
export async function resolveForViewer(
	db: Database,
	id: string,
	revision: string,
	viewer: Viewer,
): Promise<{ modelId: string; commitId: string; author: string | null; private: boolean }> {
	if (
		revision.length === 0 ||
		revision.length > MAX_REVISION_LENGTH ||
		CONTROL.test(revision) ||
		!revision.isWellFormed()
	) {
		throw new HubError(
			"Invalid",
			`invalid revision: must be 1 to ${MAX_REVISION_LENGTH} printable characters`,
		);
	}
	const resolved = await resolveRevision(db, id, revision);
	// A private model the viewer may not read is answered exactly as a missing one.
	if (resolved.status === "no-model" || !canRead(viewer, { id, ...resolved })) throw repoNotFound();
	if (resolved.status === "no-revision") throw revisionNotFound(revision);
	return resolved;
}

/**
 * The hub's own origin for URLs it hands out that clients must reach (commit URLs, upload URLs, the
 * Xet CAS): MODELHUB_PUBLIC_URL when set, else the request's scheme and host.
 */
export function publicOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
	if (publicUrl !== undefined) return publicUrl;
	const origin = originOf(request);
	return origin === "" ? `${request.protocol}://127.0.0.1` : origin;
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
