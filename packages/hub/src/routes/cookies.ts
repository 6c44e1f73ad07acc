/**
 * The browser session's cookies (RFC 6265). `modelhub_session` holds the session secret (HttpOnly: no
 * script reads it); `modelhub_csrf` holds the session's CSRF token, which the app's script reads and
 * sends back as `X-CSRF-Token` on every write (a page of another site can neither read it nor set it).
 * Both are SameSite=Lax (not sent with another site's POSTs), and Secure when the hub is reached over https.
 */
export const SESSION_COOKIE = "modelhub_session";
export const CSRF_COOKIE = "modelhub_csrf";
export const CSRF_HEADER = "x-csrf-token";
/** One single sign-on in progress: its state, nonce and PKCE verifier, sealed (src/accounts/oidc.ts). */
export const OIDC_FLOW_COOKIE = "modelhub_oidc";

/** Cookies read from one header at most (a larger header is cut, never parsed whole). */
const MAX_COOKIE_HEADER = 8192;

/** The value of one cookie in a `Cookie` header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
	if (header === undefined) return undefined;
	for (const part of header.slice(0, MAX_COOKIE_HEADER).split(";")) {
		const equals = part.indexOf("=");
		if (equals < 0) continue;
		if (part.slice(0, equals).trim() !== name) continue;
		const value = part.slice(equals + 1).trim();
		return value === "" ? undefined : value;
	}
	return undefined;
}

export interface CookieOptions {
	secure: boolean;
	/** Seconds it lives; 0 deletes it. */
	maxAge: number;
	httpOnly: boolean;
	/** The path it is sent to (default `/`). */
	path?: string;
}

/** A `Set-Cookie` value; the values set here are base62 or base64url, which need no quoting. */
export function setCookie(name: string, value: string, options: CookieOptions): string {
	return [
		`${name}=${value}`,
		`Path=${options.path ?? "/"}`,
		`Max-Age=${options.maxAge}`,
		"SameSite=Lax",
		...(options.httpOnly ? ["HttpOnly"] : []),
		...(options.secure ? ["Secure"] : []),
	].join("; ");
}
