/**
 * What the join, sign-in and token forms check before sending (the hub checks the same again and its
 * message wins): plain functions, tested in auth-forms.test.ts.
 */
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
