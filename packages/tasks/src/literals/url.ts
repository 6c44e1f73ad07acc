/**
 * URL builders. A model id or file name enters a deep link only through these, so it can never add a
 * query parameter, a fragment, or a path step of its own.
 */

/** Percent-encoded UTF-8; a lone surrogate has no UTF-8 form, so it becomes U+FFFD first. */
function encode(value: string): string {
	return encodeURIComponent(value.toWellFormed());
}

/**
 * A query-parameter value. Everything that could end the value (`&`, `#`, `=`, `+`, spaces, ...) is
 * percent-encoded; `/` is left as is, since a query may hold it (RFC 3986 §3.4) and the apps that
 * receive repository ids read them with or without decoding.
 */
export function urlQueryValue(value: string): string {
	return encode(value).replaceAll("%2F", "/");
}

const DOT_SEGMENT = /^\.{1,2}$/;

/**
 * A repository id (`owner/name`) as URL path segments, each percent-encoded. A `.` or `..` segment
 * would be resolved away by every URL parser (WHATWG URL §4.4 treats `%2e` the same), so an id with
 * one keeps its slashes encoded and becomes a single segment; an id that is nothing but dots cannot be
 * a path at all and is refused.
 */
export function urlPath(value: string): string {
	const segments = value.split("/");
	if (!segments.some((segment) => DOT_SEGMENT.test(segment))) return segments.map(encode).join("/");
	if (segments.length === 1) throw new TypeError(`Cannot write ${JSON.stringify(value)} as a URL path`);
	return encode(value);
}
