import type { Queryable } from "../db/types.js";
import type { RepoKey } from "../repo-identity.js";
import type { StoredBlob } from "../storage/types.js";

/**
 * What an upload grant (a signed LFS upload URL, a Xet token) lets its holder do, checked again at each
 * use: `write`, a writer's uploads for any branch; `pull-request`, the uploads of someone who may only
 * open pull requests (anyone who reads the repository, signed in with a token that may write), whose
 * commits may then go only to a pull request's ref.
 */
export type UploadRight = "write" | "pull-request";

/**
 * Large files uploaded to a repository (through LFS or Xet) before the commit that uses them. A
 * commit may refer by SHA-256 only to objects its repository holds: uploaded to it, or already in
 * one of its commits. Knowing a digest is never enough to reach another repository's bytes.
 */
export async function recordUploadObject(
	tx: Queryable,
	repo: RepoKey,
	blob: Pick<StoredBlob, "sha256" | "size" | "gitOid">,
	uploadedBy: string,
): Promise<void> {
	await tx.query(
		`INSERT INTO blobs (sha256, size, git_oid) VALUES ($1, $2, $3)
		ON CONFLICT (sha256) DO UPDATE SET git_oid = EXCLUDED.git_oid
			WHERE blobs.git_oid IS NULL AND EXCLUDED.git_oid IS NOT NULL`,
		[blob.sha256, blob.size, blob.gitOid ?? null],
	);
	await tx.query(
		`INSERT INTO upload_objects (repo_type, repo_id, sha256, uploaded_by) VALUES ($1, $2, $3, $4)
		ON CONFLICT (repo_type, repo_id, sha256) DO NOTHING`,
		[repo.type, repo.id, blob.sha256, uploadedBy],
	);
}

/** The objects among `sha256s` this repository holds, with their sizes and git ids. */
export async function repoObjects(
	db: Queryable,
	repo: RepoKey,
	sha256s: readonly string[],
): Promise<Map<string, { size: number; gitOid: string | null }>> {
	if (sha256s.length === 0) return new Map();
	const result = await db.query<{ sha256: string; size: number | string; git_oid: string | null }>(
		`SELECT b.sha256, b.size, b.git_oid FROM blobs b
		WHERE b.sha256 = ANY($3::text[]) AND (
			EXISTS (SELECT 1 FROM upload_objects o WHERE o.repo_type = $1 AND o.repo_id = $2 AND o.sha256 = b.sha256)
			OR EXISTS (SELECT 1 FROM repo_blobs h WHERE h.repo_type = $1 AND h.repo_id = $2 AND h.sha256 = b.sha256))`,
		[repo.type, repo.id, [...new Set(sha256s)]],
	);
	return new Map(result.rows.map((row) => [row.sha256, { size: Number(row.size), gitOid: row.git_oid }]));
}

/**
 * Whether the repository exists, holding it (FOR SHARE) until the transaction ends, so that it is not
 * deleted under an upload being registered.
 */
export async function holdRepo(tx: Queryable, repo: RepoKey): Promise<boolean> {
	const exists = await tx.query("SELECT 1 FROM repos WHERE type = $1 AND id = $2 FOR SHARE", [
		repo.type,
		repo.id,
	]);
	return exists.rows.length > 0;
}

/** Bytes of the objects one account uploaded to a repository (each counted once). */
export async function accountUploads(db: Queryable, repo: RepoKey, account: string): Promise<number> {
	const result = await db.query<{ used: string | number | null }>(
		`SELECT COALESCE(sum(b.size), 0) AS used FROM upload_objects o JOIN blobs b ON b.sha256 = o.sha256
		WHERE o.repo_type = $1 AND o.repo_id = $2 AND o.uploaded_by = $3`,
		[repo.type, repo.id, account],
	);
	return Number(result.rows[0]?.used ?? 0);
}
