/**
 * Token scrubbing. Every error a call throws passes through `scrubError` on its way out, so the
 * caller's token (in any header form: `Bearer …`, `Key …`, `X-Key …`, or URL-encoded in a URL a
 * server echoed) and any hub token (`hf_…`) never reach a message, a stack, `toJSON`, a `cause`
 * or a field such as `request.url`.
 */
const HUB_TOKEN = /hf_[A-Za-z0-9]{20,}/g;
/** Shorter tokens are not real credentials and scrubbing them would mangle ordinary words. */
const MIN_SECRET_LENGTH = 8;
/** Nested objects are walked this deep (error → cause → request → headers, attempts → error …). */
const MAX_DEPTH = 6;

const REDACTED = "[redacted]";

/** The strings to hide for a token: the token itself and its URL-encoded form. */
export function secretsOf(token: string | undefined): string[] {
	if (!token || token.length < MIN_SECRET_LENGTH) return [];
	const encoded = encodeURIComponent(token);
	return encoded === token ? [token] : [token, encoded];
}

function scrubText(text: string, secrets: readonly string[]): string {
	for (const secret of secrets) text = text.split(secret).join(REDACTED);
	return text.replace(HUB_TOKEN, REDACTED);
}

function scrubValue(value: unknown, secrets: readonly string[], depth: number, seen: Set<object>): unknown {
	if (typeof value === "string") return scrubText(value, secrets);
	if (typeof value !== "object" || value === null || depth > MAX_DEPTH || seen.has(value)) return value;
	seen.add(value);
	const record = value as Record<string, unknown>;
	const keys = Object.keys(record);
	if (value instanceof Error) keys.push("message", "stack", "cause");
	for (const key of keys) {
		let current: unknown;
		try {
			current = record[key];
		} catch {
			continue;
		}
		const clean = scrubValue(current, secrets, depth + 1, seen);
		if (clean === current) continue;
		try {
			// An own data property also covers fields that are getters on the prototype (DOMException#message).
			Object.defineProperty(record, key, { value: clean, writable: true, configurable: true });
		} catch {
			// A frozen or non-configurable field stays as it is.
		}
	}
	return value;
}

/** Scrubs an error (in place) and everything it carries; returns it. */
export function scrubError<T>(error: T, secrets: readonly string[]): T {
	return scrubValue(error, secrets, 0, new Set()) as T;
}
