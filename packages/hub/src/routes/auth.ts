import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FailureLimiter } from "../accounts/rate-limit.js";
import { touchTokens, viewerForToken } from "../accounts/store.js";
import { ACCESS_TOKEN_PREFIX, plausibleToken } from "../accounts/tokens.js";
import {
	ANONYMOUS,
	ADMIN,
	AUTH_REQUIRED,
	RefusedError,
	type Refusal,
	type Viewer,
} from "../accounts/viewer.js";
import { whoamiJson } from "../accounts/whoami.js";
import { adminTokenMatches, checkAdmin } from "../auth.js";
import type { Database } from "../db/types.js";
import { JSON_TYPE, REPO_NOT_FOUND, sendError, sendHubError, headerText } from "../http.js";
import { actorFor, type Actor } from "../services/actor.js";

declare module "fastify" {
	interface FastifyRequest {
		/** Who sent the request (anonymous when no token came with it). */
		viewer: Viewer;
	}
	interface FastifyContextConfig {
		/**
		 * How the route authenticates, when not with the hub's access tokens: `admin` routes answer bad
		 * tokens themselves (403), `xet` routes take Xet CAS tokens, `signed` routes a signature in the URL.
		 */
		auth?: "admin" | "xet" | "signed";
	}
}

/** The message huggingface_hub knows for a token the hub does not accept. */
export const INVALID_CREDENTIALS = "Invalid credentials in Authorization header";

/** How often a token's `last_used_at` is written at most. */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_TOUCHED = 10_000;

export interface AuthOptions {
	db: Database;
	adminToken: string | undefined;
	limiter: FailureLimiter;
}

const PATHS_INFO = /^\/api\/models\/.+\/paths-info\//;

/** Requests that only read (whoami excepted: it is about the token itself). */
function isRead(request: FastifyRequest): boolean {
	if (request.method === "GET" || request.method === "HEAD") return !request.url.startsWith("/api/whoami-v2");
	return request.method === "POST" && PATHS_INFO.test(request.url);
}

/** `Bearer <token>` → the token, "malformed" for another scheme, undefined without a header. */
export function bearerToken(header: string | string[] | undefined): string | "malformed" | undefined {
	if (header === undefined) return undefined;
	if (typeof header !== "string") return "malformed";
	const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
	return match ? (match[1] as string) : "malformed";
}

/** Answers why a viewer may not do something (a hidden repository is answered as not found). */
export function refuse(reply: FastifyReply, refusal: Refusal): FastifyReply {
	if (refusal.hidden) return sendHubError(reply, "RepoNotFound", REPO_NOT_FOUND);
	if (refusal.status === 401) reply.header("www-authenticate", 'Bearer realm="modelhub"');
	// huggingface_hub shows X-Error-Message in its 403 errors.
	return reply
		.code(refusal.status)
		.header("x-error-message", headerText(refusal.message))
		.type(JSON_TYPE)
		.send({ error: refusal.message });
}

/** 429 for an address that failed to authenticate too often. */
export function sendTooManyFailures(reply: FastifyReply, seconds: number): FastifyReply {
	return reply
		.code(429)
		.header("retry-after", String(seconds))
		.type(JSON_TYPE)
		.send({
			error: `Too many failed authentication attempts from this address: retry in ${seconds} seconds`,
		});
}

/**
 * Resolves every request's viewer from its `Authorization` header before routing continues: the admin
 * token, a user's access token, or nobody. A token the hub does not know is a 401 (the public hub's
 * message), counted against the client's address; an address with too many failures gets 429s with
 * Retry-After until its window ends. Requests without a header cost nothing (no promise, no query).
 */
export function authRoutes(app: FastifyInstance, options: AuthOptions): void {
	const { db, adminToken, limiter } = options;
	const touched = new Map<string, number>();

	// Set on every request by the hook below (Fastify 5 decorates requests with primitives only).
	app.decorateRequest<Viewer | null>("viewer", null);

	function touch(tokenId: string): void {
		const now = Date.now();
		const last = touched.get(tokenId);
		if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
		if (touched.size >= MAX_TOUCHED) touched.clear();
		touched.set(tokenId, now);
		touchTokens(db, [tokenId]).catch(() => touched.delete(tokenId));
	}

	async function resolve(request: FastifyRequest, reply: FastifyReply, token: string | "malformed") {
		const blocked = limiter.blockedFor(request.ip);
		if (blocked > 0) return sendTooManyFailures(reply, blocked);
		const mode = request.routeOptions.config?.auth;
		if (token !== "malformed" && adminToken !== undefined && adminTokenMatches(token, adminToken)) {
			request.viewer = ADMIN;
			return undefined;
		}
		if (token !== "malformed" && plausibleToken(token)) {
			const viewer = await viewerForToken(db, token);
			if (viewer) {
				request.viewer = viewer;
				if (viewer.kind === "user") touch(viewer.token.id);
				return undefined;
			}
		}
		// A token of another service on a read (HF_TOKEN in a user's environment goes to whatever
		// HF_ENDPOINT names; the inference client sends its provider key): read as anonymous. Tokens
		// that look like this hub's own, and any token on a write, are refused and counted.
		if (mode !== "admin" && isRead(request) && !token.startsWith(ACCESS_TOKEN_PREFIX)) return undefined;
		limiter.fail(request.ip);
		// Admin routes keep their own answers (403 for a wrong admin token).
		if (mode === "admin") return undefined;
		reply.header("www-authenticate", 'Bearer realm="modelhub", error="invalid_token"');
		reply.header("x-error-message", INVALID_CREDENTIALS);
		return sendError(
			reply,
			401,
			token === "malformed"
				? "malformed Authorization header: expected 'Bearer <token>'"
				: INVALID_CREDENTIALS,
		);
	}

	// A callback hook: requests without credentials (the hot path) allocate no promise.
	app.addHook("onRequest", (request, reply, done) => {
		request.viewer = ANONYMOUS;
		const token = bearerToken(request.headers.authorization);
		if (token === undefined) {
			done();
			return;
		}
		// Only looked up with a token: Fastify builds `routeOptions` anew (a 12-field object) on each
		// access, a cost every anonymous read would otherwise pay.
		const mode = request.routeOptions.config?.auth;
		if (mode === "xet" || mode === "signed") {
			done();
			return;
		}
		// A hook that answered (401, 429) does not continue the request.
		resolve(request, reply, token).then(() => {
			if (!reply.sent) done();
		}, done);
	});

	app.get("/api/whoami-v2", async (request, reply) => {
		const viewer = request.viewer;
		if (viewer.kind === "anonymous") return refuse(reply, { status: 401, message: AUTH_REQUIRED });
		return reply.header("cache-control", "no-store").type(JSON_TYPE).send(whoamiJson(viewer));
	});
}

/** Who acts through the services for a request: its viewer, named with the token's id and the address. */
export function actorOf(request: FastifyRequest): Actor {
	return actorFor(request.viewer, request.ip);
}

/** The audit fields of a request: who (never the token itself, only its id) and from where. */
export function auditContext(request: FastifyRequest): Actor["audit"] {
	return actorOf(request).audit;
}

/** Answers a service's refusal (RefusedError); anything else is rethrown. */
export function answerRefusal(reply: FastifyReply, error: unknown): FastifyReply {
	if (error instanceof RefusedError) return refuse(reply, error.refusal);
	throw error;
}

/**
 * An onRequest hook for admin-only routes: 401 without a bearer token, 403 with a wrong one or when
 * MODELHUB_ADMIN_TOKEN is not set (checked before the body is read).
 */
export function adminOnly(adminToken: string | undefined) {
	return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
		const result = checkAdmin(request.headers.authorization, adminToken);
		if (result.ok) return undefined;
		if (result.status === 401) reply.header("www-authenticate", 'Bearer realm="modelhub"');
		return sendError(reply, result.status, result.error);
	};
}
