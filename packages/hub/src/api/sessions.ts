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
}

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

/** `POST /api/auth/password`: ends every other session of the account. */
export interface PasswordChangeRequest {
	currentPassword: string;
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
