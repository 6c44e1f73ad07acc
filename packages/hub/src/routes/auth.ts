import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AuthBlock, AuthFailureLimits } from "../accounts/auth-limits.js";
import type { TokenViewerCache } from "../accounts/token-cache.js";
import { ACCESS_TOKEN_PREFIX, plausibleToken } from "../accounts/tokens.js";
import { ANONYMOUS, ADMIN, AUTH_REQUIRED, RefusedError, type Viewer } from "../accounts/viewer.js";
import { whoamiJson } from "../accounts/whoami.js";
import { adminTokenMatches, checkAdmin } from "../auth.js";
import { BEARER_CHALLENGE, HubError, kindOfStatus, tooManyRequests } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import { csrfTokenOf } from "../accounts/sessions.js";
import type { SelfServiceSettings } from "../config.js";
import { recordTokenUse, viewerOfToken } from "../services/accounts.js";
import { recordSessionUse, viewerOfSession } from "../services/sessions.js";
import { CSRF_HEADER, SESSION_COOKIE, cookieValue } from "./cookies.js";
import { actorFor, type Actor } from "../services/actor.js";
import type { ReadContext } from "../services/models.js";
import { hostedRepoUrls } from "./repo-paths.js";

declare module "fastify" {
	interface FastifyRequest {
		/** Who sent the request (anonymous when no token came with it). */
		viewer: Viewer;
		/** The browser session's secret when its cookie came with the request (live or not). */
		sessionSecret: string | null;
	}
	interface FastifyContextConfig {
		/**
		 * How the route authenticates, when not with the hub's access tokens: `admin` routes answer bad
		 * tokens themselves (403), `xet` routes take Xet CAS tokens, `signed` routes a signature in the URL.
		 */
		auth?: "admin" | "xet" | "signed";
		/**
		 * Sign-in and sign-up replace the browser's session rather than act as it: they need no CSRF
		 * token (they take JSON only, which no form of another site can send, and check Origin).
		 */
		signIn?: boolean;
	}
}

/** The message huggingface_hub knows for a token the hub does not accept. */
export const INVALID_CREDENTIALS = "Invalid credentials in Authorization header";

/**
 * The answer to a huggingface.co token (`hf_…`) on a write or whoami: the public hub's message would
 * not say what is wrong; this hub only knows the tokens it issued itself.
 */
export const FOREIGN_TOKEN =
	"This is a huggingface.co token (hf_…): this hub only accepts tokens it issued itself (mh_…). Sign in with your password on this hub and create one under Settings → Access tokens (/settings/tokens)";

/** The answer to a cookie-authenticated write without the session's CSRF token. */
export const CSRF_REFUSED =
	"Missing or wrong CSRF token: a write signed in by the session cookie must send the X-CSRF-Token header (the modelhub_csrf cookie's value) from this hub's own pages";

/** How often a token's `last_used_at` is written at most. */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_TOUCHED = 10_000;

export interface AuthOptions extends ReadContext {
	/** Who recently used tokens are (one query per request otherwise). */
	tokenViewers: TokenViewerCache;
	adminToken: string | undefined;
	limiter: AuthFailureLimits;
	selfService: SelfServiceSettings;
	/** The URL clients reach the hub at, when configured: its origin is the hub's own for the Origin check. */
	publicUrl?: string | undefined;
}

/** Methods that change nothing: no CSRF token needed. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether a request's `Origin`, when the browser sent one, is this hub's own. */
export function sameOrigin(request: FastifyRequest, publicUrl: string | undefined): boolean {
	const origin = request.headers.origin;
	if (origin === undefined) return true;
	if (publicUrl !== undefined && origin === new URL(publicUrl).origin) return true;
	return origin === `${request.protocol}://${request.host}`;
}

/**
 * Paths where the browser session is looked up: the API, file downloads and the LFS batch API (the web
 * page's large-file uploads; its writes need the CSRF token like any other), never static assets.
 */
function sessionPath(url: string): boolean {
	return url.startsWith("/api/") || url.includes("/resolve/") || url.includes(".git/info/lfs/objects/");
}

/** POST URLs that only read: paths-info of a repository of any hosted type. */
const PATHS_INFO = new RegExp(
	`^(${hostedRepoUrls()
		.map((urls) => urls.api.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
		.join("|")}).+/paths-info/`,
);

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

/**
 * `Basic base64(user:password)` → the password, "malformed" otherwise: git (and `git credential`) sends
 * a username and the access token as its password; the username is not checked.
 */
export function basicPassword(header: string | string[] | undefined): string | "malformed" {
	if (typeof header !== "string") return "malformed";
	const match = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header);
	if (!match) return "malformed";
	const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
	const colon = decoded.indexOf(":");
	const password = colon < 0 ? "" : decoded.slice(colon + 1);
	return password === "" || /\s/.test(password) ? "malformed" : password;
}

/** The refusal of a request that needs a token and came without one. */
export function authenticationRequired(): RefusedError {
	return new RefusedError({ status: 401, message: AUTH_REQUIRED });
}

/** 429 for a credential, or an address, that failed to authenticate too often. */
export function tooManyFailures(block: AuthBlock): HubError {
	return tooManyRequests(
		block.by === "credential"
			? `Too many failed authentication attempts with this token: retry in ${block.seconds} seconds`
			: `Too many failed authentication attempts from this address: retry in ${block.seconds} seconds`,
		block.seconds,
	);
}

/**
 * Resolves every request's viewer from its `Authorization` header before routing continues: the admin
 * token, a user's access token, or nobody. A token the hub does not know is a 401 (the public hub's
 * message), counted against the token tried and the client's address (see AuthFailureLimits); guesses
 * at the admin token count too, on every route. Requests without a header cost nothing (no promise, no
 * query).
 *
 * Requests the hub reads as anonymous (another service's token on a read) are never refused for
 * failures, theirs or anyone's: once their token or address is blocked they are simply not compared
 * with the admin token any more (so guessing it through reads stops working), and served as anonymous.
 * Every other credential attempt that is blocked gets 429 with Retry-After; from a blocked address,
 * this hub's own access tokens are still looked up (256 random bits: not guessable), so a colleague's
 * valid token works behind the same NAT as a script that fails.
 */
export function authRoutes(app: FastifyInstance, options: AuthOptions): void {
	const { adminToken, limiter } = options;
	const touched = new Map<string, number>();

	// Set on every request by the hook below (Fastify 5 decorates requests with primitives only).
	app.decorateRequest<Viewer | null>("viewer", null);
	app.decorateRequest<string | null>("sessionSecret", null);
	const sessionsTouched = new Map<string, number>();

	function touchSession(id: string): void {
		const now = Date.now();
		const last = sessionsTouched.get(id);
		if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
		if (sessionsTouched.size >= MAX_TOUCHED) sessionsTouched.clear();
		sessionsTouched.set(id, now);
		recordSessionUse(options, [id]).catch(() => sessionsTouched.delete(id));
	}

	/**
	 * A request without an Authorization header that carries the session cookie acts as the session's
	 * user while the session lives (an ended or unknown one is simply anonymous: its 256-bit secret is not
	 * guessable, so nothing is counted). Its writes must carry the session's CSRF token and, when the
	 * browser names one, this hub's Origin; token-authenticated calls (huggingface_hub) never need either.
	 */
	async function resolveSession(request: FastifyRequest, secret: string): Promise<void> {
		const viewer = await viewerOfSession(options, secret);
		if (!viewer || viewer.kind !== "user") return;
		if (!SAFE_METHODS.has(request.method) && request.routeOptions.config?.signIn !== true) {
			const given = request.headers[CSRF_HEADER];
			if (
				typeof given !== "string" ||
				given !== csrfTokenOf(secret) ||
				!sameOrigin(request, options.publicUrl)
			) {
				throw new HubError("Forbidden", CSRF_REFUSED);
			}
		}
		request.viewer = viewer;
		touchSession(viewer.token.id);
	}

	function touch(tokenId: string): void {
		const now = Date.now();
		const last = touched.get(tokenId);
		if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
		if (touched.size >= MAX_TOUCHED) touched.clear();
		touched.set(tokenId, now);
		recordTokenUse(options, [tokenId]).catch(() => touched.delete(tokenId));
	}

	async function resolve(
		request: FastifyRequest,
		header: string,
		token: string | "malformed",
	): Promise<void> {
		// What is counted: the token, or the whole header when it is not `Bearer <token>`.
		const credential = token === "malformed" ? header : token;
		const mode = request.routeOptions.config?.auth;
		// A token of another service on a read (HF_TOKEN in a user's environment goes to whatever
		// HF_ENDPOINT names; the inference client sends its provider key) is read as anonymous when the
		// hub does not know it. Tokens that look like this hub's own, and any token on a write, are refused.
		const anonymousIfUnknown =
			mode !== "admin" &&
			isRead(request) &&
			(token === "malformed" || !token.startsWith(ACCESS_TOKEN_PREFIX));
		const block = limiter.blocked(request.ip, credential);
		if (block?.by === "credential") {
			if (anonymousIfUnknown) return;
			throw tooManyFailures(block);
		}
		// The admin token is never compared from a blocked address: guessing it stops there.
		if (
			block === undefined &&
			token !== "malformed" &&
			adminToken !== undefined &&
			adminTokenMatches(token, adminToken)
		) {
			request.viewer = ADMIN;
			return;
		}
		if (token !== "malformed" && plausibleToken(token)) {
			const viewer = await viewerOfToken(options, token);
			if (viewer) {
				request.viewer = viewer;
				if (viewer.kind === "user") touch(viewer.token.id);
				return;
			}
		}
		if (block !== undefined) {
			if (anonymousIfUnknown) return;
			throw tooManyFailures(block);
		}
		limiter.fail(request.ip, credential);
		if (anonymousIfUnknown) return;
		// Admin routes keep their own answers (403 for a wrong admin token).
		if (mode === "admin") return;
		throw new HubError(
			"Unauthorized",
			token === "malformed"
				? "malformed Authorization header: expected 'Bearer <token>'"
				: token.startsWith("hf_")
					? FOREIGN_TOKEN
					: INVALID_CREDENTIALS,
			{ challenge: `${BEARER_CHALLENGE}, error="invalid_token"`, messageHeader: INVALID_CREDENTIALS },
		);
	}

	// A callback hook: requests without credentials (the hot path) allocate no promise.
	app.addHook("onRequest", (request, reply, done) => {
		request.viewer = ANONYMOUS;
		const header = request.headers.authorization;
		const bearer = bearerToken(header);
		const token = bearer === "malformed" ? basicPassword(header) : bearer;
		if (token === undefined) {
			const cookies = request.headers.cookie;
			const secret = cookies === undefined ? undefined : cookieValue(cookies, SESSION_COOKIE);
			if (secret === undefined || !sessionPath(request.url) || !plausibleToken(secret)) {
				done();
				return;
			}
			request.sessionSecret = secret;
			resolveSession(request, secret).then(() => done(), done);
			return;
		}
		// Only looked up with a token: Fastify builds `routeOptions` anew (a 12-field object) on each
		// access, a cost every anonymous read would otherwise pay.
		const mode = request.routeOptions.config?.auth;
		if (mode === "xet" || mode === "signed") {
			done();
			return;
		}
		// A refusal (401, 429) ends the request in the error handler.
		resolve(request, typeof header === "string" ? header : "", token).then(() => done(), done);
	});

	app.get("/api/whoami-v2", async (request, reply) => {
		const viewer = request.viewer;
		if (viewer.kind === "anonymous") throw authenticationRequired();
		return reply.header("cache-control", "no-store").type(JSON_TYPE).send(whoamiJson(viewer));
	});
}

/** Who acts through the services for a request: its viewer, named with the token's id and the address. */
export function actorOf(request: FastifyRequest): Actor {
	return actorFor(request.viewer, request.ip);
}

/**
 * An onRequest hook for admin-only routes: 401 without a bearer token, 403 with a wrong one or when
 * MODELHUB_ADMIN_TOKEN is not set (checked before the body is read).
 */
export function adminOnly(adminToken: string | undefined) {
	return async (request: FastifyRequest): Promise<void> => {
		const result = checkAdmin(request.headers.authorization, adminToken);
		if (result.ok) return;
		throw new HubError(kindOfStatus(result.status), result.error, {
			...(result.status === 401 ? { challenge: BEARER_CHALLENGE } : {}),
		});
	};
}
