import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { OIDC_CALLBACK_PATH, OIDC_START_PATH } from "../accounts/oidc.js";
import { FailureLimiter } from "../accounts/rate-limit.js";
import type { SignInMethods, SsoErrorKind, SsoLinkStart } from "../api/sessions.js";
import { HubError } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import { requireSession, type SelfServiceContext } from "../services/sessions.js";
import { signInMethods, SingleSignOn, SsoError } from "../services/sso.js";
import { actorOf } from "./auth.js";
import { OIDC_FLOW_COOKIE, cookieValue, setCookie } from "./cookies.js";
import { cookiesSecure, sessionCookies } from "./sessions.js";

export interface SsoRoutesOptions extends SelfServiceContext {
	publicUrl: string | undefined;
}

/** Where the flow cookie is sent: the callback only (the start sets it). */
const FLOW_COOKIE_PATH = "/api/auth/oidc";
const SIGN_IN_METHODS_PATH = "/api/settings/sign-in";
const SSO_LINK_PATH = "/api/settings/sign-in/sso";

/**
 * Single sign-on (when MODELHUB_OIDC_ISSUER is set): `GET /api/auth/oidc/start` sends the browser to
 * the provider with a sealed, HttpOnly cookie holding this sign-in's state, nonce and PKCE verifier;
 * `GET /api/auth/oidc/callback` checks them, exchanges the code, starts a session like a password
 * sign-in and sends the browser on. A failure sends it to `/login?sso_error=<kind>`: the URL names what
 * went wrong, never a token; the details go to the log (the code and state are redacted there too).
 *
 * A signed-in user links their account from `/account`: `POST /api/settings/sign-in/sso` (a session
 * write: the CSRF token is checked) answers the provider's URL and sets the flow cookie, naming the
 * account; the callback links whoever signs in there and goes back to `/account?sso=linked` (or
 * `/account?sso_error=<kind>`). `DELETE` of the same path unlinks; `GET /api/settings/sign-in` says how
 * the account can sign in.
 */
export function ssoRoutes(app: FastifyInstance, options: SsoRoutesOptions): void {
	const settings = options.selfService.oidc;
	const sso = settings === undefined ? undefined : new SingleSignOn(settings);

	app.get(SIGN_IN_METHODS_PATH, async (request, reply) => {
		const methods = sso
			? await sso.methods(options, actorOf(request))
			: await signInMethods(options, requireSession(actorOf(request)).account.name, undefined);
		return reply
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(methods satisfies SignInMethods);
	});

	if (settings === undefined || sso === undefined) {
		const notConfigured = async () => {
			throw new HubError("NotFound", "Single sign-on is not configured on this hub (MODELHUB_OIDC_ISSUER)");
		};
		app.get(OIDC_START_PATH, notConfigured);
		app.get(OIDC_CALLBACK_PATH, notConfigured);
		app.post(SSO_LINK_PATH, notConfigured);
		app.delete(SSO_LINK_PATH, notConfigured);
		return;
	}
	// New accounts per address and hour, as for /api/auth/join (each stores an account).
	const signups = new FailureLimiter({
		maxFailures: options.selfService.signupsPerHour,
		windowMs: 3_600_000,
	});

	function flowCookie(request: FastifyRequest, value: string, maxAge: number): string {
		return setCookie(OIDC_FLOW_COOKIE, value, {
			secure: cookiesSecure(request, options.publicUrl),
			maxAge,
			httpOnly: true,
			path: FLOW_COOKIE_PATH,
		});
	}

	function failed(request: FastifyRequest, reply: FastifyReply, error: unknown, cookies: string[]) {
		if (!(error instanceof SsoError)) throw error;
		request.log.warn({ sso: error.kind, detail: error.message }, "single sign-on refused");
		const kind: SsoErrorKind = error.kind;
		return reply
			.header("set-cookie", cookies)
			.header("cache-control", "no-store")
			.redirect(`${error.page}?sso_error=${kind}`, 303);
	}

	app.post(SSO_LINK_PATH, async (request, reply) => {
		const started = await sso.startLink(options, actorOf(request)).catch((error: unknown) => {
			// The provider could not be reached: an error answer, since this is a fetch, not a page.
			if (error instanceof SsoError)
				throw new HubError("BadGateway", `${settings.displayName}: ${error.message}`);
			throw error;
		});
		return reply
			.header("set-cookie", flowCookie(request, started.sealed, settings.flowSeconds))
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send({ url: started.url } satisfies SsoLinkStart);
	});

	app.delete(SSO_LINK_PATH, async (request, reply) => {
		const methods = await sso.unlink(options, actorOf(request));
		return reply
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(methods satisfies SignInMethods);
	});

	app.get<{ Querystring: { next?: unknown; invite?: unknown } }>(OIDC_START_PATH, async (request, reply) => {
		try {
			const started = await sso.start({ next: request.query.next, invite: request.query.invite });
			return reply
				.header("set-cookie", flowCookie(request, started.sealed, settings.flowSeconds))
				.header("cache-control", "no-store")
				.redirect(started.url, 303);
		} catch (error) {
			return failed(request, reply, error, []);
		}
	});

	app.get(OIDC_CALLBACK_PATH, async (request, reply) => {
		// The flow is spent whatever happens: a callback URL replayed in this browser finds none.
		const clear = flowCookie(request, "", 0);
		const wait = signups.blockedFor(request.ip);
		try {
			const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
			const finished = await sso.finish(options, {
				query,
				sealed: cookieValue(request.headers.cookie, OIDC_FLOW_COOKIE),
				previous: request.sessionSecret ?? undefined,
				ip: request.ip,
				mayCreate: wait === 0,
				actor: actorOf(request),
			});
			if (finished.kind === "linked") {
				return reply
					.header("set-cookie", clear)
					.header("cache-control", "no-store")
					.redirect(finished.next, 303);
			}
			if (finished.created) signups.fail(request.ip);
			const secure = cookiesSecure(request, options.publicUrl);
			const { secret } = finished.signIn.session;
			return reply
				.header("set-cookie", [
					clear,
					...sessionCookies(secret, secure, options.selfService.session.maxSeconds),
				])
				.header("cache-control", "no-store")
				.redirect(finished.next, 303);
		} catch (error) {
			return failed(request, reply, error, [clear]);
		}
	});
}
