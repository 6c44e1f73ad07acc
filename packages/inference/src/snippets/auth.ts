/**
 * Credentials in snippets: a token the caller gave is written as a literal (they asked for it);
 * otherwise each language reads it from the environment in its own idiom.
 */
import * as literals from "@modelhub/tasks/literals";
import { jsConcat, pyConcat, shConcatEnv } from "./code.js";
import type { AuthorizationValue, TokenSource } from "./request-preview.js";

/** Whether the snippet reads an environment variable (python then needs `import os`). */
export function readsEnv(token: TokenSource): boolean {
	return token.kind === "env";
}

const JS_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function pyEnv(name: string): string {
	return `os.environ[${literals.pyString(name)}]`;
}

function jsEnv(name: string): string {
	return JS_IDENTIFIER.test(name) ? `process.env.${name}` : `process.env[${literals.jsString(name)}]`;
}

export function pyToken(token: TokenSource): string {
	return token.kind === "literal" ? literals.pyString(token.value) : pyEnv(token.name);
}

export function jsToken(token: TokenSource): string {
	return token.kind === "literal" ? literals.jsString(token.value) : jsEnv(token.name);
}

/** The Authorization header value as a Python expression. */
export function pyAuthorization(auth: AuthorizationValue): string {
	const { prefix, token, suffix } = auth;
	if (token.kind === "literal") return literals.pyString(prefix + token.value + suffix);
	// Inside a double-quoted f-string the lookup uses single quotes (valid before Python 3.12 too).
	return pyConcat(prefix, `os.environ['${token.name}']`, suffix);
}

/** The Authorization header value as a JS expression. */
export function jsAuthorization(auth: AuthorizationValue): string {
	const { prefix, token, suffix } = auth;
	if (token.kind === "literal") return literals.jsString(prefix + token.value + suffix);
	return jsConcat(prefix, jsEnv(token.name), suffix);
}

/** The whole `Authorization: ...` header as one shell word. */
export function shAuthorizationHeader(auth: AuthorizationValue): string {
	const { prefix, token, suffix } = auth;
	if (token.kind === "literal") return literals.shQuote(`Authorization: ${prefix}${token.value}${suffix}`);
	return shConcatEnv(`Authorization: ${prefix}`, token.name, suffix);
}
