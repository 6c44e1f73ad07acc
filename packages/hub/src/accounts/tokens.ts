import { createHash, randomBytes } from "node:crypto";

/**
 * Access tokens: `mh_` and 43 base62 characters (256 random bits). Not `hf_`: tools such as the
 * inference client route `hf_` tokens to the public hub, and a ModelHub token must never leave its hub.
 */
export const ACCESS_TOKEN_PREFIX = "mh_";
/** Short-lived Xet CAS tokens (see src/xet/). */
export const XET_TOKEN_PREFIX = "mhx_";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function base62(bytes: Uint8Array): string {
	let value = BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
	let out = "";
	while (value > 0n) {
		out = BASE62[Number(value % 62n)] + out;
		value /= 62n;
	}
	return out.padStart(Math.ceil((bytes.length * 8) / Math.log2(62)), "0");
}

/** A new secret token with the given prefix. */
export function newToken(prefix: string): string {
	return `${prefix}${base62(randomBytes(32))}`;
}

/**
 * What the database keeps of a token. Tokens carry 256 random bits, so a plain SHA-256 is enough: no
 * dictionary or brute force can invert it, and equal tokens are found through an index.
 */
export function tokenHash(token: string): string {
	return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Whether a string can be a token at all (printable ASCII, bounded): anything else is refused unread. */
export function plausibleToken(token: string): boolean {
	return token.length >= 8 && token.length <= 256 && /^[\x21-\x7e]+$/.test(token);
}
