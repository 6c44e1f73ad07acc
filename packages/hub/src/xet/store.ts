import { newToken, tokenHash, XET_TOKEN_PREFIX } from "../accounts/tokens.js";
import type { Queryable } from "../db/types.js";
import type { RepoKey } from "../repo-identity.js";
import type { UploadRight } from "../uploads/objects.js";
import { packU32, unpackU32, type XorbLayout } from "./xorb.js";

/** How long a Xet CAS token lives (hf_xet asks for a new one before it expires). */
export const XET_TOKEN_TTL_SECONDS = 3600;

export interface XetGrant {
	/** Whose xorbs: the uploading account (`@admin` for the admin token). */
	account: string;
	repo: RepoKey;
	accessTokenId: string | null;
	/** For the admin token: its fingerprint when the token was issued (checked at use); null otherwise. */
	issuer: string | null;
	/** A writer's token, or one for a pull request (checked at use). */
	right: UploadRight;
}

/** Issues a CAS token for uploads to one repository. Expired tokens are swept at the same time. */
export async function issueXetToken(
	db: Queryable,
	grant: XetGrant,
): Promise<{ token: string; expiresAt: number }> {
	const token = newToken(XET_TOKEN_PREFIX);
	const expiresAt = Math.floor(Date.now() / 1000) + XET_TOKEN_TTL_SECONDS;
	await db.query("DELETE FROM xet_tokens WHERE expires_at < now() - interval '1 hour'");
	await db.query(
		`INSERT INTO xet_tokens (token_hash, access_token_id, issuer, account, repo_type, repo_id, expires_at, upload_right)
		VALUES ($1, $2, $3, $4, $5, $6, to_timestamp($7), $8)`,
		[
			tokenHash(token),
			grant.accessTokenId,
			grant.issuer,
			grant.account,
			grant.repo.type,
			grant.repo.id,
			expiresAt,
			grant.right,
		],
	);
	return { token, expiresAt };
}

/** What a live CAS token grants (its access token not revoked), or undefined. */
export async function xetGrant(db: Queryable, token: string): Promise<XetGrant | undefined> {
	const result = await db.query<{
		account: string;
		repo_type: RepoKey["type"];
		repo_id: string;
		access_token_id: string | null;
		issuer: string | null;
		upload_right: UploadRight;
	}>(
		`SELECT x.account, x.repo_type, x.repo_id, x.access_token_id, x.issuer, x.upload_right FROM xet_tokens x
		LEFT JOIN access_tokens t ON t.id = x.access_token_id
		WHERE x.token_hash = $1 AND x.expires_at > now()
			AND (x.access_token_id IS NULL OR (t.id IS NOT NULL AND t.revoked_at IS NULL))`,
		[tokenHash(token)],
	);
	const row = result.rows[0];
	return row
		? {
				account: row.account,
				repo: { type: row.repo_type, id: row.repo_id },
				accessTokenId: row.access_token_id,
				issuer: row.issuer,
				right: row.upload_right,
			}
		: undefined;
}

/** Records an uploaded xorb; false when the account had already uploaded one with this hash. */
export async function recordXorb(
	db: Queryable,
	xorb: { account: string; hash: string; blobSha256: string; size: number; layout: XorbLayout },
): Promise<boolean> {
	const result = await db.query(
		`INSERT INTO xet_xorbs (account, hash, blob_sha256, size, num_chunks, chunk_offsets, chunk_sizes)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account, hash) DO NOTHING RETURNING hash`,
		[
			xorb.account,
			xorb.hash,
			xorb.blobSha256,
			xorb.size,
			xorb.layout.chunkSizes.length,
			packU32(xorb.layout.chunkOffsets),
			packU32(xorb.layout.chunkSizes),
		],
	);
	return result.rows.length > 0;
}

export interface StoredXorb {
	blobSha256: string;
	chunkOffsets: number[];
	chunkSizes: number[];
}

/** The account's own xorbs among `hashes` (a file is rebuilt from its uploader's xorbs only). */
export async function accountXorbs(
	db: Queryable,
	account: string,
	hashes: readonly string[],
): Promise<Map<string, StoredXorb>> {
	const result = await db.query<{
		hash: string;
		blob_sha256: string;
		chunk_offsets: Uint8Array;
		chunk_sizes: Uint8Array;
	}>(
		"SELECT hash, blob_sha256, chunk_offsets, chunk_sizes FROM xet_xorbs WHERE account = $1 AND hash = ANY($2::text[])",
		[account, [...new Set(hashes)]],
	);
	return new Map(
		result.rows.map((row) => [
			row.hash,
			{
				blobSha256: row.blob_sha256,
				chunkOffsets: unpackU32(row.chunk_offsets),
				chunkSizes: unpackU32(row.chunk_sizes),
			},
		]),
	);
}

/** How many of these stored xorbs (by their blob's SHA-256) some account still has recorded. */
export async function recordedXorbCount(db: Queryable, blobSha256s: readonly string[]): Promise<number> {
	const result = await db.query<{ count: string | number }>(
		"SELECT count(DISTINCT blob_sha256) AS count FROM xet_xorbs WHERE blob_sha256 = ANY($1::text[])",
		[[...new Set(blobSha256s)]],
	);
	return Number(result.rows[0]?.count ?? 0);
}

/** Bytes of the xorbs an account has stored and not yet collected (MODELHUB_GC_XORB_MAX_AGE_SECONDS). */
export async function accountXorbBytes(db: Queryable, account: string): Promise<number> {
	const result = await db.query<{ used: string | number | null }>(
		"SELECT COALESCE(sum(size), 0) AS used FROM xet_xorbs WHERE account = $1",
		[account],
	);
	return Number(result.rows[0]?.used ?? 0);
}
