import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AuthBlock, AuthFailureLimits } from "../accounts/auth-limits.js";
import { FailureLimiter } from "../accounts/rate-limit.js";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../accounts/passwords.js";
import { OIDC_START_PATH } from "../accounts/oidc.js";
import { csrfTokenOf } from "../accounts/sessions.js";
import type { TokenInfo } from "../accounts/store.js";
import type {
	AccountStateChange,
	AuthConfig,
	CreatedInvite,
	CreateInviteRequest,
	JoinRequest,
	LoginRequest,
	NewTokenRequest,
	OwnToken,
	PasswordChangeRequest,
	SignedIn,
} from "../api/sessions.js";
import { HubError, tooManyRequests } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import {
	changePassword,
	createInvite,
	createOwnToken,
	deleteUser,
	join,
	login,
	logout,
	ownTokens,
	revokeOwnToken,
	setUserDisabled,
	WrongCredentialsError,
	type SelfServiceContext,
	type SignIn,
} from "../services/sessions.js";
import { actorOf, sameOrigin } from "./auth.js";
import { CSRF_COOKIE, SESSION_COOKIE, setCookie } from "./cookies.js";
import { originOf } from "./models/context.js";
import { objectBody } from "./body.js";

export interface SessionRoutesOptions extends SelfServiceContext {
	adminToken: string | undefined;
	limiter: AuthFailureLimits;
	publicUrl: string | undefined;
}

const MAX_INVITE_HOURS = 720;

function ownToken(token: TokenInfo, secret?: string): OwnToken {
	return {
		id: token.id,
		name: token.displayName,
		scope: token.role,
		createdAt: token.createdAt,
		lastUsedAt: token.lastUsedAt,
		...(secret !== undefined ? { token: secret } : {}),
	};
}

/** Cookies are Secure when the hub is reached over https (MODELHUB_PUBLIC_URL, or the proxy says so). */
export function cookiesSecure(request: FastifyRequest, publicUrl: string | undefined): boolean {
	return publicUrl !== undefined ? publicUrl.startsWith("https:") : request.protocol === "https";
}

/** The `Set-Cookie` values of a new browser session: its secret (HttpOnly) and its CSRF token. */
export function sessionCookies(secret: string, secure: boolean, maxAge: number): string[] {
	return [
		setCookie(SESSION_COOKIE, secret, { secure, maxAge, httpOnly: true }),
		setCookie(CSRF_COOKIE, csrfTokenOf(secret), { secure, maxAge, httpOnly: false }),
	];
}

/**
 * Sign-up, sign-in, sign-out and password change for browsers (cookie sessions), the signed-in user's
 * own access tokens (`/api/settings/tokens`), and the admin's invites and account states.
 */
export function sessionRoutes(app: FastifyInstance, options: SessionRoutesOptions): void {
	const { limiter } = options;
	const lifetime = options.selfService.session;
	// Sign-ups per address and hour: each stores an account and costs a password hash.
	const signups = new FailureLimiter({
		maxFailures: options.selfService.signupsPerHour,
		windowMs: 3_600_000,
	});

	function secure(request: FastifyRequest): boolean {
		return cookiesSecure(request, options.publicUrl);
	}

	function startSession(request: FastifyRequest, reply: FastifyReply, signedIn: SignIn, status: number) {
		const { secret } = signedIn.session;
		const csrfToken = csrfTokenOf(secret);
		reply.header("set-cookie", sessionCookies(secret, secure(request), lifetime.maxSeconds));
		return reply
			.code(status)
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send({ name: signedIn.name, csrfToken } satisfies SignedIn);
	}

	function endSession(request: FastifyRequest, reply: FastifyReply): void {
		reply.header("set-cookie", [
			setCookie(SESSION_COOKIE, "", { secure: secure(request), maxAge: 0, httpOnly: true }),
			setCookie(CSRF_COOKIE, "", { secure: secure(request), maxAge: 0, httpOnly: false }),
		]);
	}

	/**
	 * Sign-in and sign-up take no CSRF token (there is no session yet to derive it from): they accept
	 * JSON only, which a form of another site cannot send without a CORS preflight this hub refuses, and
	 * refuse another site's Origin.
	 */
	function requireJsonFromHere(request: FastifyRequest): void {
		const type = request.headers["content-type"] ?? "";
		if (!/^application\/json\b/i.test(type)) {
			throw new HubError("UnsupportedMediaType", "send the request body as application/json");
		}
		if (!sameOrigin(request, options.publicUrl)) {
			throw new HubError("Forbidden", "sign-in from another site's page is refused");
		}
	}

	function tooManyLogins(block: AuthBlock): HubError {
		return tooManyRequests(
			block.by === "credential"
				? `Too many failed sign-ins to this account: retry in ${block.seconds} seconds`
				: `Too many failed sign-ins from this address: retry in ${block.seconds} seconds`,
			block.seconds,
		);
	}

	const signInRoute = { config: { signIn: true } };

	const oidc = options.selfService.oidc;
	app.get("/api/auth/config", async (_request, reply) =>
		reply.type(JSON_TYPE).send({
			signup: options.selfService.signup,
			passwordMinLength: PASSWORD_MIN_LENGTH,
			passwordMaxLength: PASSWORD_MAX_LENGTH,
			...(oidc ? { sso: { name: oidc.displayName, startPath: OIDC_START_PATH } } : {}),
		} satisfies AuthConfig),
	);

	app.post("/api/auth/join", signInRoute, async (request, reply) => {
		requireJsonFromHere(request);
		const input = objectBody<JoinRequest>(request);
		const wait = signups.blockedFor(request.ip);
		if (wait > 0) {
			throw tooManyRequests(`Too many sign-ups from this address: retry in ${wait} seconds`, wait);
		}
		signups.fail(request.ip);
		const signedIn = await join(options, input, request.ip);
		return startSession(request, reply, signedIn, 201);
	});

	app.post("/api/auth/login", signInRoute, async (request, reply) => {
		requireJsonFromHere(request);
		const input = objectBody<LoginRequest>(request);
		const credential = `login:${typeof input.username === "string" ? input.username.toLowerCase().slice(0, 200) : ""}`;
		const block = limiter.blocked(request.ip, credential);
		if (block) throw tooManyLogins(block);
		try {
			const signedIn = await login(options, input, request.sessionSecret ?? undefined, request.ip);
			return startSession(request, reply, signedIn, 200);
		} catch (error) {
			if (error instanceof WrongCredentialsError) limiter.fail(request.ip, credential);
			throw error;
		}
	});

	app.post("/api/auth/logout", async (request, reply) => {
		// The hook checked the CSRF token of a live session; an ended one only loses its cookies.
		if (request.sessionSecret !== null && request.viewer.kind === "user") {
			await logout(options, request.sessionSecret);
		}
		endSession(request, reply);
		return reply.code(204).header("cache-control", "no-store").send();
	});

	app.post("/api/auth/password", async (request, reply) => {
		const input = objectBody<PasswordChangeRequest>(request);
		const signedIn = await changePassword(options, actorOf(request), input);
		return startSession(request, reply, signedIn, 200);
	});

	app.get("/api/settings/tokens", async (request, reply) => {
		const tokens = await ownTokens(options, actorOf(request));
		return reply
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(tokens.map((token) => ownToken(token)) satisfies OwnToken[]);
	});

	app.post("/api/settings/tokens", async (request, reply) => {
		const input = objectBody<NewTokenRequest>(request);
		const issued = await createOwnToken(options, actorOf(request), { name: input.name, scope: input.scope });
		return reply
			.code(201)
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(ownToken({ ...issued, lastUsedAt: null, revokedAt: null }, issued.token) satisfies OwnToken);
	});

	app.delete<{ Params: { id: string } }>("/api/settings/tokens/:id", async (request, reply) => {
		const revoked = await revokeOwnToken(options, actorOf(request), request.params.id);
		return reply.type(JSON_TYPE).send(ownToken(revoked) satisfies OwnToken);
	});

	// The hub admin's token or a site admin's session or write token: services/sessions.ts checks which
	// (requireSiteAdmin), so these routes read the caller as any other route does.
	const admin = {};

	app.post("/api/admin/invites", admin, async (request, reply) => {
		const input = request.body === undefined ? {} : objectBody<CreateInviteRequest>(request);
		const hours = input.expiresInHours;
		if (
			hours !== undefined &&
			(typeof hours !== "number" || !Number.isInteger(hours) || hours < 1 || hours > MAX_INVITE_HOURS)
		) {
			throw new HubError("Invalid", `expiresInHours must be a whole number from 1 to ${MAX_INVITE_HOURS}`);
		}
		const invite = await createInvite(options, actorOf(request), hours);
		return reply
			.code(201)
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send({
				code: invite.code,
				url: `${options.publicUrl ?? originOf(request)}/join?invite=${invite.code}`,
				expiresAt: invite.expiresAt,
			} satisfies CreatedInvite);
	});

	app.post<{ Params: { user: string } }>("/api/admin/users/:user/disable", admin, async (request, reply) => {
		const name = await setUserDisabled(options, actorOf(request), request.params.user, true);
		return reply.type(JSON_TYPE).send({ name, disabled: true } satisfies AccountStateChange);
	});

	app.post<{ Params: { user: string } }>("/api/admin/users/:user/enable", admin, async (request, reply) => {
		const name = await setUserDisabled(options, actorOf(request), request.params.user, false);
		return reply.type(JSON_TYPE).send({ name, disabled: false } satisfies AccountStateChange);
	});

	app.delete<{ Params: { user: string } }>("/api/admin/users/:user", admin, async (request, reply) => {
		const name = await deleteUser(options, actorOf(request), request.params.user);
		return reply.type(JSON_TYPE).send({ name, deleted: true } satisfies AccountStateChange);
	});
}
