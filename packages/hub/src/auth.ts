import { createHash, timingSafeEqual } from "node:crypto";

export type AuthResult = { ok: true } | { ok: false; status: 401 | 403; error: string };

function digest(text: string): Buffer {
	return createHash("sha256").update(text, "utf8").digest();
}

/** Whether `given` is the admin token, compared in constant time (both sides hashed first). */
export function adminTokenMatches(given: string, adminToken: string): boolean {
	return timingSafeEqual(digest(given), digest(adminToken));
}

/**
 * Checks an `Authorization: Bearer <token>` header against the admin token. Both sides are hashed to
 * fixed-length SHA-256 digests and compared with timingSafeEqual, so the time taken tells nothing about
 * the token (not even its length). Without a configured token every write is refused.
 */
export function checkAdmin(
	header: string | string[] | undefined,
	adminToken: string | undefined,
): AuthResult {
	if (adminToken === undefined) {
		return {
			ok: false,
			status: 403,
			error: "admin writes are disabled: set MODELHUB_ADMIN_TOKEN to enable them",
		};
	}
	if (typeof header !== "string") {
		return { ok: false, status: 401, error: "admin token required: send 'Authorization: Bearer <token>'" };
	}
	const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
	if (!match)
		return { ok: false, status: 401, error: "malformed Authorization header: expected 'Bearer <token>'" };
	const given = match[1] as string;
	if (!timingSafeEqual(digest(given), digest(adminToken))) {
		return { ok: false, status: 403, error: "invalid admin token" };
	}
	return { ok: true };
}
