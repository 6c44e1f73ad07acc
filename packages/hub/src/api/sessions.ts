/**
 * Self-service accounts (ModelHub's own API, for the web app): sign-up, sign-in with a password,
 * browser sessions, and the signed-in user's own access tokens. Cookie-authenticated writes must send
 * `X-CSRF-Token` (the `modelhub_csrf` cookie's value).
 */
import type { TokenRole } from "../vocabulary.js";

export type SignupMode = "open" | "invite" | "closed";

/** `GET /api/auth/config`: how people may join and sign in here. */
export interface AuthConfig {
	signup: SignupMode;
	passwordMinLength: number;
	passwordMaxLength: number;
	/** Single sign-on, when configured: the provider's name and where the browser starts signing in. */
	sso?: SsoConfig;
}

export interface SsoConfig {
	/** What the sign-in button names ("Sign in with …"). */
	name: string;
	/** `GET` this path (a page navigation) with `next` (a path here) and, from an invite link, `invite`. */
	startPath: string;
}

/**
 * Why a single sign-on did not sign anyone in: the callback sends the browser to
 * `/login?sso_error=<kind>` (the details are in the hub's log, never in the URL).
 */
export type SsoErrorKind =
	/** No sign-in in progress in this browser (it expired, was finished already, or started elsewhere). */
	| "flow"
	/** The `state` the provider sent back is not the one this sign-in started with. */
	| "state"
	/** The provider refused the authorization code (used already, or not issued for this sign-in). */
	| "code"
	/** The provider answered with an error (the person declined, or the provider refused the client). */
	| "denied"
	/** The answer or its ID token names another issuer than MODELHUB_OIDC_ISSUER. */
	| "issuer"
	/** The ID token's signature is not the provider's. */
	| "signature"
	/** The ID token has expired (or is not valid yet). */
	| "expired"
	/** The ID token's nonce is not this sign-in's. */
	| "nonce"
	/** Another check of the ID token failed. */
	| "token"
	/** The provider could not be reached or answered what OpenID Connect does not allow. */
	| "provider"
	/** No account is linked to this person and sign-up is closed. */
	| "closed"
	/** No account is linked to this person and sign-up needs an invite link (none, or not valid). */
	| "invite"
	/** The linked account is disabled. */
	| "disabled"
	/** Too many new accounts from this address lately (MODELHUB_SIGNUPS_PER_HOUR). */
	| "limit"
	/**
	 * No account is linked to this person, and an account here has the verified e-mail address the
	 * provider gave: nobody is signed in (never into that account); its owner may link it from `/account`.
	 */
	| "email"
	/** Linking only (back at `/account`): this person at the provider is linked to another account here. */
	| "taken"
	/** Linking only: this account is linked to another person at the provider already (unlink first). */
	| "linked"
	/** Linking only: the browser is no longer signed in to the account that started linking. */
	| "session";

/** `POST /api/auth/join`. */
export interface JoinRequest {
	username: string;
	password: string;
	email?: string;
	/** The invite code of an invite link (required when sign-up is by invitation). */
	invite?: string;
}

/** `POST /api/auth/login`. */
export interface LoginRequest {
	username: string;
	password: string;
}

/** The answer of join, login and password change: who is signed in, and the new session's CSRF token. */
export interface SignedIn {
	name: string;
	csrfToken: string;
}

/**
 * `POST /api/auth/password`: ends every other session of the account. `currentPassword` is left out to set
 * a first password on an account that has none (`GET /api/settings/sign-in` says `password: false`),
 * which needs a recent sign-in.
 */
export interface PasswordChangeRequest {
	currentPassword?: string;
	newPassword: string;
}

/** `POST /api/settings/tokens`. */
export interface NewTokenRequest {
	name: string;
	/** `read` or `write`. */
	scope: TokenRole;
}

/** One of the signed-in user's tokens (`GET /api/settings/tokens`); the secret only when just created. */
export interface OwnToken {
	id: string;
	name: string;
	scope: TokenRole;
	createdAt: string;
	lastUsedAt: string | null;
	token?: string;
}

/** `GET /api/settings/sign-in`: how the signed-in user can sign in here. */
export interface SignInMethods {
	/** The account has a password (`POST /api/auth/login`). */
	password: boolean;
	/** Single sign-on, when this hub has it: the provider's name and this account's link to it. */
	sso?: { name: string; linked: LinkedIdentity | null };
}

/** This account's link to the provider (one per provider): its subject there, when linked, when last used. */
export interface LinkedIdentity {
	subject: string;
	linkedAt: string;
	lastUsedAt: string;
}

/**
 * `POST /api/settings/sign-in/sso`: the provider's authorization URL to send the browser to (the answer
 * also sets the flow cookie); back at the callback, the person who signs in there is linked to this
 * account, and the browser goes to `/account?sso=linked` (or `/account?sso_error=<kind>`).
 */
export interface SsoLinkStart {
	url: string;
}

/** `POST /api/admin/invites`. */
export interface CreateInviteRequest {
	/** Hours the link stays valid (default 168, at most 720). */
	expiresInHours?: number;
}

/** A new invite link (single use; the code is shown once). */
export interface CreatedInvite {
	code: string;
	url: string;
	expiresAt: string;
}

/** `POST /api/admin/users/{name}/disable`, `/enable`, `DELETE /api/admin/users/{name}`. */
export interface AccountStateChange {
	name: string;
	disabled?: boolean;
	deleted?: boolean;
}

/** One invite of `GET /api/admin/invites` (newest first; the code itself is never shown again). */
export interface AdminInvite {
	id: string;
	/** Who made it: an account, or `@admin` for the admin token. */
	createdBy: string;
	createdAt: string;
	expiresAt: string;
	/** The account it made, once used. */
	usedBy: string | null;
	usedAt: string | null;
}

/** The answer of `DELETE /api/admin/invites/{id}`. */
export interface RevokedInvite {
	id: string;
	revoked: true;
}

/** One user of `GET /api/admin/accounts` (by name; the next page is in `Link`). */
export interface AdminAccount {
	name: string;
	fullname: string;
	email: string | null;
	createdAt: string;
	disabled: boolean;
	siteAdmin: boolean;
}

/** The query parameters of `GET /api/admin/accounts` and `GET /api/admin/invites`. */
export interface AdminListParameters {
	limit?: number;
	/** Accounts only: the name after which the page starts. */
	cursor?: string;
}

/** The body of `PUT /api/admin/users/{name}/site-admin` (the hub admin token only). */
export interface SetSiteAdminRequest {
	siteAdmin: boolean;
}

/** The answer of `PUT /api/admin/users/{name}/site-admin`. */
export interface SiteAdminChange {
	name: string;
	siteAdmin: boolean;
}
