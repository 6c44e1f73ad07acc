import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Queryable } from "../db/types.js";
import { getMeta, setMeta } from "../db/meta.js";

const KEY_NAME = "upload_signing_key";

/**
 * The key that signs the upload URLs the hub hands out (LFS uploads carry no Authorization header, so
 * the URL itself must prove what it may upload). Made once and kept in the database, so that every hub
 * sharing a database accepts the URLs any of them signed.
 */
export async function loadSigningKey(db: Queryable): Promise<Buffer> {
	let hex = await getMeta(db, KEY_NAME);
	if (hex === undefined) {
		await db.query("INSERT INTO hub_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", [
			KEY_NAME,
			randomBytes(32).toString("hex"),
		]);
		hex = await getMeta(db, KEY_NAME);
	}
	if (hex === undefined || !/^[0-9a-f]{64}$/.test(hex)) {
		await setMeta(db, KEY_NAME, randomBytes(32).toString("hex"));
		hex = (await getMeta(db, KEY_NAME)) as string;
	}
	return Buffer.from(hex, "hex");
}

/** An HMAC-SHA256 over the fields, in order (each length-prefixed, so no two lists sign alike). */
export function sign(key: Buffer, fields: readonly string[]): string {
	const hmac = createHmac("sha256", key);
	for (const field of fields) hmac.update(`${Buffer.byteLength(field)}:${field}`);
	return hmac.digest("base64url");
}

/**
 * What an upload grant issued under the admin token carries instead of an access token's id: an HMAC of
 * the admin token under the signing key (128 bits, base64url). A grant is checked at use against the
 * fingerprint of the admin token the hub has now, so changing MODELHUB_ADMIN_TOKEN ends every upload URL
 * and Xet token the old one was given. Keyed, so that a URL (which travels in logs and proxies) cannot
 * be used to test guesses at an admin token chosen by a person.
 */
export function adminTokenFingerprint(key: Buffer, adminToken: string): string {
	return sign(key, ["admin-token", adminToken]).slice(0, 22);
}

export function verify(key: Buffer, fields: readonly string[], signature: string): boolean {
	return verifyText(signature, sign(key, fields));
}

/** Whether `given` is `expected`, compared in constant time for strings of its length. */
export function verifyText(given: string, expected: string): boolean {
	const a = Buffer.from(given, "utf8");
	const b = Buffer.from(expected, "utf8");
	return a.length === b.length && timingSafeEqual(a, b);
}
