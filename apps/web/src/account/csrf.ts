/**
 * The browser session's CSRF token: the hub sets it in the `modelhub_csrf` cookie (readable by this
 * page's script, unlike the HttpOnly session cookie) and wants it back in `X-CSRF-Token` on every write
 * the session cookie authenticates (packages/hub/README.md, "Self-service accounts").
 */
export const CSRF_COOKIE = "modelhub_csrf";
export const CSRF_HEADER = "X-CSRF-Token";

/** The value of a cookie in a `document.cookie` string, or undefined. */
export function cookieIn(cookies: string, name: string): string | undefined {
	for (const part of cookies.split(";")) {
		const equals = part.indexOf("=");
		if (equals < 0 || part.slice(0, equals).trim() !== name) continue;
		const value = part.slice(equals + 1).trim();
		return value === "" ? undefined : value;
	}
	return undefined;
}

/** This page's CSRF token, when a browser session is signed in to the page's own hub. */
export function csrfToken(): string | undefined {
	return typeof document === "undefined" ? undefined : cookieIn(document.cookie, CSRF_COOKIE);
}

/**
 * The CSRF header for a request, when it needs one: a write (not GET/HEAD) to the page's own hub
 * (`baseUrl` "") that no access token authenticates, sent while a browser session is signed in.
 */
export function csrfHeaders(
	method: string,
	baseUrl: string | undefined,
	token: string | undefined,
): Record<string, string> {
	if (token || (baseUrl ?? "").trim() !== "" || method === "GET" || method === "HEAD") return {};
	const csrf = csrfToken();
	return csrf ? { [CSRF_HEADER]: csrf } : {};
}
