/**
 * What the join, sign-in and token forms check before sending (the hub checks the same again and its
 * message wins): plain functions, tested in auth-forms.test.ts.
 */
import type { SsoErrorKind } from "@modelhub/hub/api";
import { idPartProblem } from "@modelhub/tasks/repositories";

/** The hub's password bounds (GET /api/auth/config answers the same). */
export const PASSWORD_BOUNDS = { min: 8, max: 256 } as const;

export interface JoinInput {
	username: string;
	password: string;
	confirm: string;
	email: string;
}

export type JoinField = keyof JoinInput;

/** Each field's problem, in the form's order; empty when the form can be sent. */
export function joinProblems(
	input: JoinInput,
	bounds: { min: number; max: number } = PASSWORD_BOUNDS,
): Partial<Record<JoinField, string>> {
	const problems: Partial<Record<JoinField, string>> = {};
	const name = input.username.trim();
	if (!name) problems.username = "Choose a user name.";
	else {
		const problem = idPartProblem(name, "user name");
		if (problem) problems.username = `${problem[0]?.toUpperCase()}${problem.slice(1)}.`;
	}
	const length = [...input.password].length;
	if (length < bounds.min) problems.password = `Use at least ${bounds.min} characters.`;
	else if (length > bounds.max) problems.password = `Use at most ${bounds.max} characters.`;
	if (!problems.password && input.confirm !== input.password) problems.confirm = "The passwords differ.";
	const email = input.email.trim();
	if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
		problems.email = "Enter an address such as ada@example.org, or nothing.";
	return problems;
}

/**
 * What to say when someone pastes a token that cannot be this hub's: huggingface.co tokens start with
 * `hf_`, this hub's with `mh_` (packages/hub/src/accounts/tokens.ts).
 */
export function pastedTokenProblem(token: string): string | undefined {
	const value = token.trim();
	if (!value) return "Paste an access token first.";
	if (value.startsWith("hf_")) {
		return "This is a huggingface.co token (hf_…): this hub only accepts tokens it issued itself (mh_…). Sign in with your password, then create one under Settings → Access tokens.";
	}
	return undefined;
}

/** The token name problem, or undefined. */
export function tokenNameProblem(name: string): string | undefined {
	const value = name.trim();
	if (!value) return "Give the token a name, such as the machine it is for.";
	if (value.length > 100) return "Use at most 100 characters.";
	return undefined;
}

/** Where to go after signing in: a path of this app from `?next=`, never another site. */
export function nextPath(search: string, fallback = "/account"): string {
	const next = new URLSearchParams(search).get("next");
	return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : fallback;
}

/** What the sign-in page says when single sign-on came back without signing anyone in (`?sso_error=`). */
export const SSO_ERROR_MESSAGES: Readonly<Record<SsoErrorKind, string>> = {
	flow: "No sign-in was in progress in this browser: it took too long, was finished already, or started in another browser. Start again.",
	state:
		"The sign-in provider's answer does not belong to the sign-in this browser started (its state differs). Start again.",
	code: "The sign-in provider refused the sign-in code: it was used already or is not this sign-in's. Start again.",
	denied: "The sign-in provider did not sign you in (you may have declined, or it refused this hub).",
	issuer: "The answer came from another issuer than the sign-in provider this hub trusts.",
	signature: "The sign-in provider's ID token has no valid signature: it was not accepted.",
	expired: "The sign-in provider's ID token has expired (check that the clocks agree). Start again.",
	nonce: "The sign-in provider's ID token was not issued for this sign-in (its nonce differs). Start again.",
	token: "The sign-in provider's ID token failed a check: it was not accepted.",
	provider: "The sign-in provider could not be reached, or did not answer as OpenID Connect requires.",
	closed: "No account on this hub is linked to you, and sign-up is closed: ask the hub admin for an account.",
	invite:
		"No account on this hub is linked to you: this hub admits new accounts by invitation. Open the invite link the hub admin sent you and sign up from there.",
	disabled: "Your account on this hub is disabled: ask the hub admin.",
	limit: "Too many new accounts were created from your address in the last hour: try again later.",
	email:
		"No account on this hub is linked to you, and an account here already has your e-mail address: nobody was signed in. If it is yours, sign in to it with its password, then link the provider from your account page.",
	taken:
		"This person at the sign-in provider is linked to another account on this hub: unlink it there first. Nothing was linked.",
	linked:
		"Your account is linked to another person at the sign-in provider already: unlink it first. Nothing was linked.",
	session:
		"This browser is no longer signed in to the account that started linking: sign in and start again. Nothing was linked.",
};

/** The message for `?sso_error=`, or undefined when there is none (or it is not one the hub sends). */
export function ssoErrorMessage(search: string): string | undefined {
	const kind = new URLSearchParams(search).get("sso_error");
	return kind !== null && Object.hasOwn(SSO_ERROR_MESSAGES, kind)
		? SSO_ERROR_MESSAGES[kind as SsoErrorKind]
		: undefined;
}

/** Where the browser starts single sign-on: the hub's start path with where to come back to and the invite. */
export function ssoStartHref(startPath: string, next: string, invite?: string): string {
	const query = new URLSearchParams({ next });
	if (invite) query.set("invite", invite);
	return `${startPath}?${query.toString()}`;
}
