import type { FastifyRequest } from "fastify";
import type { AuthFailureLimits } from "../../accounts/auth-limits.js";
import type { Viewer } from "../../accounts/viewer.js";
import type { ResponseCache } from "../../cache.js";
import type { MirrorService } from "../../mirror/service.js";
import type { DownloadsContext } from "../../services/downloads.js";
import type { RepoContext } from "../../services/repos.js";
import type { ServingContext } from "../../services/serving.js";

/** The services' context (database, file storage, the change bus) and what the routes add to it. */
export interface ModelRoutesOptions extends RepoContext, DownloadsContext, ServingContext {
	/** Cached GET answers (cleared by a listener of the change bus). */
	cache: ResponseCache;
	adminToken: string | undefined;
	/** The URL clients reach the hub at, when configured (MODELHUB_PUBLIC_URL). */
	publicUrl: string | undefined;
	limiter: AuthFailureLimits;
	/** Mirror mode (MODELHUB_UPSTREAM_URL): repositories this hub does not have are the upstream's. */
	mirror?: MirrorService | undefined;
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
