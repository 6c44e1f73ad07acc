/** The hub's self-service account API (packages/hub/README.md, "Self-service accounts"). */
import type {
	AuthConfig,
	NewTokenRequest,
	OwnToken,
	PasswordChangeRequest,
	SignedIn,
	SignInMethods,
	SsoLinkStart,
} from "@modelhub/hub/api";
import { csrfHeaders } from "../account/csrf";
import { apiUrl, requestJson, type ApiOptions } from "./http";

export type { AuthConfig, OwnToken, SignInMethods };

/** How people may join and sign in on the hub. */
export async function authConfig(options: ApiOptions): Promise<AuthConfig> {
	return (await requestJson<AuthConfig>(apiUrl(options.baseUrl, "/api/auth/config"), options)).data;
}

export async function joinHub(
	input: { username: string; password: string; email?: string; invite?: string },
	options: ApiOptions,
): Promise<SignedIn> {
	const body = {
		username: input.username,
		password: input.password,
		...(input.email ? { email: input.email } : {}),
		...(input.invite ? { invite: input.invite } : {}),
	};
	return (
		await requestJson<SignedIn>(apiUrl(options.baseUrl, "/api/auth/join"), {
			...options,
			method: "POST",
			body,
		})
	).data;
}

export async function logIn(
	input: { username: string; password: string },
	options: ApiOptions,
): Promise<SignedIn> {
	return (
		await requestJson<SignedIn>(apiUrl(options.baseUrl, "/api/auth/login"), {
			...options,
			method: "POST",
			body: input,
		})
	).data;
}

/** Ends the browser session (the hub clears its cookies). */
export async function logOut(options: ApiOptions): Promise<void> {
	const response = await fetch(apiUrl(options.baseUrl, "/api/auth/logout"), {
		method: "POST",
		headers: { Accept: "application/json", ...csrfHeaders("POST", options.baseUrl, undefined) },
	});
	if (!response.ok && response.status !== 403) throw new Error(`The hub answered ${response.status}.`);
}

/** Changes the password; without `currentPassword`, sets a first one (an account with none, signed in lately). */
export async function changePassword(input: PasswordChangeRequest, options: ApiOptions): Promise<SignedIn> {
	return (
		await requestJson<SignedIn>(apiUrl(options.baseUrl, "/api/auth/password"), {
			...options,
			method: "POST",
			body: input,
		})
	).data;
}

export async function listOwnTokens(options: ApiOptions): Promise<OwnToken[]> {
	return (await requestJson<OwnToken[]>(apiUrl(options.baseUrl, "/api/settings/tokens"), options)).data;
}

export async function createOwnToken(input: NewTokenRequest, options: ApiOptions): Promise<OwnToken> {
	return (
		await requestJson<OwnToken>(apiUrl(options.baseUrl, "/api/settings/tokens"), {
			...options,
			method: "POST",
			body: input,
		})
	).data;
}

export async function revokeOwnToken(id: string, options: ApiOptions): Promise<void> {
	await requestJson<OwnToken>(apiUrl(options.baseUrl, `/api/settings/tokens/${encodeURIComponent(id)}`), {
		...options,
		method: "DELETE",
	});
}

/** How the signed-in user can sign in: a password, and the single sign-on provider's link. */
export async function signInMethods(options: ApiOptions): Promise<SignInMethods> {
	return (await requestJson<SignInMethods>(apiUrl(options.baseUrl, "/api/settings/sign-in"), options)).data;
}

/** Starts linking the account to the provider: the URL the browser goes to next (the flow cookie is set). */
export async function startSsoLink(options: ApiOptions): Promise<string> {
	return (
		await requestJson<SsoLinkStart>(apiUrl(options.baseUrl, "/api/settings/sign-in/sso"), {
			...options,
			method: "POST",
		})
	).data.url;
}

/** Unlinks the account from the provider (the hub refuses when it would leave no way to sign in). */
export async function unlinkSso(options: ApiOptions): Promise<SignInMethods> {
	return (
		await requestJson<SignInMethods>(apiUrl(options.baseUrl, "/api/settings/sign-in/sso"), {
			...options,
			method: "DELETE",
		})
	).data;
}
