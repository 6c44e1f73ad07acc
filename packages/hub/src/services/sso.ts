import * as oidc from "openid-client";
import {
	emailInUse,
	firstFreeName,
	identitiesOf,
	linkIdentity,
	linkedAccount,
	touchIdentity,
	unlinkIdentity,
} from "../accounts/identities.js";
import {
	candidateNames,
	inviteOf,
	openFlow,
	safeNextPath,
	sealFlow,
	ssoErrorKindOf,
	type OidcFlow,
	type OidcSettings,
} from "../accounts/oidc.js";
import {
	deleteExpiredSessionsOf,
	deleteSessionBySecret,
	insertSession,
	setEmail,
	spendInvite,
} from "../accounts/sessions.js";
import { credentialsOf } from "../accounts/sessions.js";
import { createUser } from "../accounts/store.js";
import type { LinkedIdentity, SignInMethods, SsoErrorKind } from "../api/sessions.js";
import { ConflictError } from "../errors.js";
import type { Actor } from "./actor.js";
import { requireFreshSession, requireSession, type SelfServiceContext, type SignIn } from "./sessions.js";
import { write } from "./write.js";

/**
 * Single sign-on with an OpenID Connect provider: the authorization code flow with PKCE (S256), state
 * and nonce (OpenID Connect Core 1.0 section 3.1; RFC 7636), the ID token verified by openid-client
 * (signature by the provider's published keys, issuer, audience, expiry, nonce). People are found by
 * (issuer, subject); someone the hub does not know yet gets a new account as MODELHUB_SIGNUP allows, or
 * is linked to the signed-in account that asked for it (from `/account`). Never by e-mail: a provider's
 * e-mail that an account here has refuses the new account and signs nobody in.
 */

/** A sign-in that did not happen, with its kind (shown to the person) and a detail for the log. */
export class SsoError extends Error {
	override name = "SsoError";
	/** The page that says so: `/account` when the flow was linking an account. */
	page: "/login" | "/account" = "/login";
	constructor(
		readonly kind: SsoErrorKind,
		detail: string,
	) {
		super(detail);
	}
}

/** Where a finished linking sends the browser. */
const LINKED_PAGE = "/account?sso=linked";

/** Seconds the provider may take to answer one request (discovery, keys, the token endpoint). */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** After a failed discovery, the next sign-in tries again no sooner than this. */
const RETRY_DISCOVERY_MS = 5_000;

export interface SsoStart {
	/** The provider's authorization URL the browser goes to. */
	url: string;
	/** The flow's checks, sealed, for the browser's short-lived cookie. */
	sealed: string;
}

/** What a callback did: signed someone in (maybe into a new account), or linked the signed-in account. */
export type SsoFinish =
	| { kind: "signed-in"; signIn: SignIn; next: string; created: boolean }
	| { kind: "linked"; account: string; next: string };

export class SingleSignOn {
	private configuration: Promise<oidc.Configuration> | undefined;
	private failedAt = 0;

	constructor(readonly settings: OidcSettings) {}

	/** The provider's metadata (its discovery document), fetched once and kept; refetched after a failure. */
	private async provider(): Promise<oidc.Configuration> {
		if (this.configuration === undefined) {
			if (Date.now() - this.failedAt < RETRY_DISCOVERY_MS) {
				throw new SsoError("provider", "the provider's discovery failed moments ago");
			}
			const { issuer, clientId, clientSecret, allowHttp } = this.settings;
			this.configuration = oidc.discovery(new URL(issuer), clientId, clientSecret, undefined, {
				// Also verifies the signature of ID tokens from the token endpoint, which OpenID Connect Core
				// (section 3.1.3.7) lets a client skip over TLS: a hub must not trust its network that much.
				execute: allowHttp
					? [oidc.enableNonRepudiationChecks, oidc.allowInsecureRequests]
					: [oidc.enableNonRepudiationChecks],
				timeout: PROVIDER_TIMEOUT_SECONDS,
			});
			this.configuration.catch(() => {
				this.configuration = undefined;
				this.failedAt = Date.now();
			});
		}
		try {
			return await this.configuration;
		} catch (error) {
			throw new SsoError(ssoErrorKindOf(error), `discovery of ${this.settings.issuer}: ${describe(error)}`);
		}
	}

	/** Starts a sign-in: the provider's URL to go to, and the checks to find again at the callback. */
	async start(input: { next: unknown; invite: unknown }, now = Date.now()): Promise<SsoStart> {
		const invite = inviteOf(input.invite);
		return this.startFlow(
			{ next: safeNextPath(input.next), ...(invite !== undefined ? { invite } : {}) },
			now,
		);
	}

	/**
	 * Starts linking the signed-in user's account (a browser session that signed in lately, as for a
	 * first password: a link is a lasting way in; the callback must find the same account signed in) to
	 * whoever signs in at the provider next. An account linked at this provider already is told at once
	 * (409), not after a round trip to the provider.
	 */
	async startLink(context: SelfServiceContext, actor: Actor, now = Date.now()): Promise<SsoStart> {
		const viewer = requireFreshSession(actor, `linking ${this.settings.displayName}`, now);
		const issuer = await this.issuer();
		const own = (await identitiesOf(context.db, viewer.account.name)).some(
			(entry) => entry.issuer === issuer,
		);
		if (own)
			throw new ConflictError(
				`Your account is linked to ${this.settings.displayName} already: unlink it first`,
			);
		return this.startFlow({ next: LINKED_PAGE, link: viewer.account.name }, now);
	}

	private async startFlow(
		purpose: Pick<OidcFlow, "next" | "invite" | "link">,
		now: number,
	): Promise<SsoStart> {
		const configuration = await this.provider();
		const flow: OidcFlow = {
			state: oidc.randomState(),
			nonce: oidc.randomNonce(),
			verifier: oidc.randomPKCECodeVerifier(),
			...purpose,
			expiresAt: now + this.settings.flowSeconds * 1000,
		};
		const url = oidc.buildAuthorizationUrl(configuration, {
			redirect_uri: this.settings.redirectUri,
			scope: this.settings.scopes,
			response_type: "code",
			code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
			code_challenge_method: "S256",
			state: flow.state,
			nonce: flow.nonce,
		});
		return { url: url.href, sealed: sealFlow(flow, this.settings.clientSecret) };
	}

	/**
	 * Finishes a sign-in at the callback: the flow cookie's checks, the code exchanged (with the PKCE
	 * verifier) for an ID token that openid-client verifies, then the linked account signed in, or a new
	 * one created and linked. `previous` is the browser's earlier session, ended (fixation).
	 */
	async finish(context: SelfServiceContext, input: FinishInput): Promise<SsoFinish> {
		const flow = input.sealed === undefined ? undefined : openFlow(input.sealed, this.settings.clientSecret);
		if (flow === undefined) throw new SsoError("flow", "no sign-in in progress in this browser");
		try {
			return await this.finishFlow(context, flow, input);
		} catch (error) {
			if (flow.link !== undefined && error instanceof SsoError) error.page = "/account";
			throw error;
		}
	}

	private async finishFlow(
		context: SelfServiceContext,
		flow: OidcFlow,
		input: FinishInput,
	): Promise<SsoFinish> {
		const callback = new URL(this.settings.redirectUri);
		callback.search = input.query;
		if (callback.searchParams.get("state") !== flow.state) {
			throw new SsoError("state", "the state sent back is not this sign-in's");
		}
		const configuration = await this.provider();
		let claims: oidc.IDToken;
		let accessToken: string;
		try {
			const tokens = await oidc.authorizationCodeGrant(configuration, callback, {
				pkceCodeVerifier: flow.verifier,
				expectedState: flow.state,
				expectedNonce: flow.nonce,
				idTokenExpected: true,
			});
			claims = tokens.claims() as oidc.IDToken;
			accessToken = tokens.access_token;
		} catch (error) {
			throw new SsoError(ssoErrorKindOf(error), describe(error));
		}
		const issuer = configuration.serverMetadata().issuer;
		const subject = claims.sub;
		if (typeof subject !== "string" || subject.length === 0 || subject.length > 255) {
			throw new SsoError("token", "the ID token's subject is empty or longer than 255 characters");
		}
		if (flow.link !== undefined) return this.link(context, flow.link, { issuer, subject }, input.actor);
		const linked = await linkedAccount(context.db, issuer, subject);
		if (linked?.disabled) throw new SsoError("disabled", `the account ${linked.name} is disabled`);
		if (linked) {
			const signIn = await write(context, async (tx) => {
				if (input.previous !== undefined) await deleteSessionBySecret(tx, input.previous);
				await deleteExpiredSessionsOf(tx, linked.name, context.selfService.session);
				await touchIdentity(tx, issuer, subject);
				const session = await insertSession(tx, linked.name);
				return {
					value: { name: linked.name, session },
					audit: {
						actor: linked.name,
						tokenId: session.id,
						...(input.ip ? { ip: input.ip } : {}),
						action: "session.login",
						details: { user: linked.name, via: "oidc" },
					},
				};
			});
			return { kind: "signed-in", signIn, next: flow.next, created: false };
		}
		const profile = await this.profileOf(configuration, claims, accessToken);
		const signIn = await this.join(context, flow, { issuer, subject, claims: profile }, input);
		return { kind: "signed-in", signIn, next: flow.next, created: true };
	}

	/**
	 * Links the account that started linking to this subject, when the same account is still signed in
	 * in this browser (a flow cookie carried to another browser, or outliving its session, links
	 * nothing), the subject is nobody else's here, and the account has no other subject at this issuer.
	 */
	private async link(
		context: SelfServiceContext,
		account: string,
		person: { issuer: string; subject: string },
		actor: Actor,
	): Promise<SsoFinish> {
		const viewer = actor.viewer;
		if (viewer.kind !== "user" || viewer.session !== true || viewer.account.name !== account) {
			throw new SsoError("session", `linking started by ${account} ended in a browser not signed in as them`);
		}
		const { issuer, subject } = person;
		await write(context, async (tx) => {
			const holder = await linkedAccount(tx, issuer, subject);
			if (holder !== undefined && holder.name !== account) {
				throw new SsoError("taken", `the provider's subject is linked to ${holder.name} already`);
			}
			if (holder === undefined) {
				const own = (await identitiesOf(tx, account)).find((identity) => identity.issuer === issuer);
				if (own !== undefined)
					throw new SsoError("linked", `${account} is linked to another subject already`);
				await linkIdentity(tx, issuer, subject, account);
			}
			return {
				value: undefined,
				audit: { ...actor.audit, action: "user.sso-link", details: { user: account, issuer } },
			};
		});
		return { kind: "linked", account, next: LINKED_PAGE };
	}

	/** How the signed-in user can sign in: a password, and this provider's link. */
	async methods(context: SelfServiceContext, actor: Actor): Promise<SignInMethods> {
		const viewer = requireSession(actor);
		return signInMethods(context, viewer.account.name, this);
	}

	/**
	 * Unlinks the signed-in user's account from this provider, unless that would leave it no way to sign
	 * in: no password and no other provider's link (a token signs in the API, not a person).
	 */
	async unlink(context: SelfServiceContext, actor: Actor): Promise<SignInMethods> {
		const viewer = requireSession(actor);
		const account = viewer.account.name;
		const issuer = await this.issuer();
		await write(context, async (tx) => {
			const identities = await identitiesOf(tx, account);
			if (!identities.some((identity) => identity.issuer === issuer)) {
				throw new ConflictError(`Your account is not linked to ${this.settings.displayName}`);
			}
			const others = identities.filter((identity) => identity.issuer !== issuer).length;
			const password = (await credentialsOf(tx, account))?.passwordHash != null;
			if (!password && others === 0) {
				throw new ConflictError(
					`Unlinking ${this.settings.displayName} would leave your account no way to sign in: it has no password`,
				);
			}
			await unlinkIdentity(tx, issuer, account);
			return {
				value: undefined,
				audit: { ...actor.audit, action: "user.sso-unlink", details: { user: account, issuer } },
			};
		});
		return signInMethods(context, account, this);
	}

	/**
	 * The issuer accounts are linked under: the discovery document's, which must equal the setting
	 * (openid-client checks it), so the setting stands in when the provider cannot be reached.
	 */
	async issuer(): Promise<string> {
		try {
			return (await this.provider()).serverMetadata().issuer;
		} catch {
			return this.settings.issuer;
		}
	}

	/**
	 * What a new account is named after: the ID token's claims, or, when it carries no name or e-mail,
	 * the UserInfo endpoint's (where OpenID Connect Core section 5.4 puts the `profile` and `email`
	 * scopes' claims when an access token is issued; openid-client checks its subject is the token's).
	 * A provider that answers nothing more still gets its person an account, named `user…`.
	 */
	private async profileOf(
		configuration: oidc.Configuration,
		claims: oidc.IDToken,
		accessToken: string,
	): Promise<Record<string, unknown>> {
		if (claims.preferred_username !== undefined || claims.email !== undefined || claims.name !== undefined) {
			return claims;
		}
		if (configuration.serverMetadata().userinfo_endpoint === undefined) return claims;
		try {
			return { ...(await oidc.fetchUserInfo(configuration, accessToken, claims.sub)), ...claims };
		} catch {
			return claims;
		}
	}

	/** A new account for someone the provider vouches for, as MODELHUB_SIGNUP allows. */
	private async join(
		context: SelfServiceContext,
		flow: OidcFlow,
		person: { issuer: string; subject: string; claims: Record<string, unknown> },
		input: FinishInput,
	): Promise<SignIn> {
		const mode = context.selfService.signup;
		if (mode === "closed") throw new SsoError("closed", "no linked account, and sign-up is closed");
		if (mode === "invite" && flow.invite === undefined) {
			throw new SsoError("invite", "no linked account, and the sign-in did not start from an invite link");
		}
		const { claims } = person;
		const email =
			typeof claims.email === "string" &&
			claims.email_verified === true &&
			claims.email.length <= 254 &&
			/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(claims.email)
				? claims.email
				: undefined;
		// Someone with a local account who signs in at the provider before linking: a second account with
		// their address would split their work, and signing into theirs would let whoever controls an
		// address at the provider take it over. Neither: the owner signs in and links from /account.
		if (email !== undefined && (await emailInUse(context.db, email))) {
			throw new SsoError("email", "no linked account, and an account here has the provider's e-mail address");
		}
		if (!input.mayCreate) throw new SsoError("limit", "too many new accounts from this address this hour");
		const fullname =
			typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 200) : undefined;
		return write(context, async (tx) => {
			const name = await firstFreeName(tx, candidateNames(claims));
			if (name === undefined) throw new SsoError("provider", "no free user name for the new account");
			if (mode === "invite" && !(await spendInvite(tx, flow.invite as string, name))) {
				throw new SsoError("invite", "the invite was used already or has expired");
			}
			if (input.previous !== undefined) await deleteSessionBySecret(tx, input.previous);
			const user = await createUser(tx, { name, fullname });
			await setEmail(tx, user.name, email);
			await linkIdentity(tx, person.issuer, person.subject, user.name);
			const session = await insertSession(tx, user.name);
			return {
				value: { name: user.name, session },
				audit: {
					actor: user.name,
					tokenId: session.id,
					...(input.ip ? { ip: input.ip } : {}),
					action: "user.join",
					details: { user: user.name, mode, via: "oidc" },
				},
				change: { type: "account.changed", account: user.name, what: "user.created" },
			};
		});
	}
}

interface FinishInput {
	/** The callback's query string (`?code=…&state=…`). */
	query: string;
	/** The flow cookie's value. */
	sealed: string | undefined;
	/** The browser's session before this sign-in: ended (fixation). */
	previous: string | undefined;
	ip: string | undefined;
	/** False when this address made too many accounts lately. */
	mayCreate: boolean;
	/** Who the request is signed in as (linking needs the account that started it). */
	actor: Actor;
}

/** A user's ways to sign in (the provider's part only when this hub has single sign-on). */
export async function signInMethods(
	context: SelfServiceContext,
	account: string,
	sso: SingleSignOn | undefined,
): Promise<SignInMethods> {
	const password = (await credentialsOf(context.db, account))?.passwordHash != null;
	if (sso === undefined) return { password };
	const issuer = await sso.issuer();
	const identity = (await identitiesOf(context.db, account)).find((entry) => entry.issuer === issuer);
	const linked: LinkedIdentity | null = identity
		? { subject: identity.subject, linkedAt: identity.createdAt, lastUsedAt: identity.lastLoginAt }
		: null;
	return { password, sso: { name: sso.settings.displayName, linked } };
}

/** An error's message and its causes' (oauth4webapi's say which check failed), never a token. */
function describe(error: unknown): string {
	const parts: string[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
		parts.push(current.message);
		current = current.cause;
	}
	return parts.join(": ").slice(0, 500) || String(error).slice(0, 200);
}
