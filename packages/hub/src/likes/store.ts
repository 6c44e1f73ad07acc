import type { Queryable } from "../db/types.js";
import type { RepoKey, RepoType } from "../repo-identity.js";

/**
 * Likes (table `repo_likes`; a trigger keeps `repos.likes` in step, imported counts included). SQL
 * only: services/likes.ts decides who may like and what a viewer sees.
 */

/** Adds the like (once); the repository's count after it. */
export async function addLike(tx: Queryable, repo: RepoKey, account: string): Promise<number> {
	await tx.query(
		`INSERT INTO repo_likes (repo_type, repo_id, account) VALUES ($1, $2, $3)
		ON CONFLICT (repo_type, repo_id, account) DO NOTHING`,
		[repo.type, repo.id, account],
	);
	return likesOf(tx, repo);
}

/** Removes the like (if any); the repository's count after it. */
export async function removeLike(tx: Queryable, repo: RepoKey, account: string): Promise<number> {
	await tx.query("DELETE FROM repo_likes WHERE repo_type = $1 AND repo_id = $2 AND account = $3", [
		repo.type,
		repo.id,
		account,
	]);
	return likesOf(tx, repo);
}

async function likesOf(db: Queryable, repo: RepoKey): Promise<number> {
	const result = await db.query<{ likes: number | string }>(
		"SELECT likes FROM repos WHERE type = $1 AND id = $2",
		[repo.type, repo.id],
	);
	return Number(result.rows[0]?.likes ?? 0);
}

/** A page of a repository's likers, by account name, after `after`. */
export async function likersOf(
	db: Queryable,
	repo: RepoKey,
	page: { limit: number; after?: string | undefined },
): Promise<Array<{ name: string; fullname: string }>> {
	const params: unknown[] = [repo.type, repo.id, page.limit];
	if (page.after !== undefined) params.push(page.after);
	const result = await db.query<{ name: string; fullname: string }>(
		`SELECT a.name, a.fullname FROM repo_likes l JOIN accounts a ON a.name = l.account
		WHERE l.repo_type = $1 AND l.repo_id = $2${page.after !== undefined ? " AND l.account > $4" : ""}
		ORDER BY l.account LIMIT $3`,
		params,
	);
	return result.rows;
}

export interface LikedRow {
	type: RepoType;
	id: string;
	likedAt: string;
}

/**
 * A page of what an account liked, most recent first, keeping only repositories a viewer may read:
 * `readable` is readableCondition's parameters (see repos/read.ts), so a private repository outside them
 * is skipped in the query itself.
 */
export async function likedBy(
	db: Queryable,
	account: string,
	readable: [boolean, string[]],
	page: { limit: number; after?: LikedRow | undefined },
): Promise<LikedRow[]> {
	const params: unknown[] = [account, ...readable, page.limit];
	let after = "";
	if (page.after) {
		params.push(page.after.likedAt, page.after.type, page.after.id);
		after = " AND (l.liked_at, l.repo_type, l.repo_id) < ($5::timestamptz, $6::text, $7::text)";
	}
	const result = await db.query<{ repo_type: RepoType; repo_id: string; liked_at: Date | string }>(
		`SELECT l.repo_type, l.repo_id, l.liked_at FROM repo_likes l
		JOIN repos m ON m.type = l.repo_type AND m.id = l.repo_id
		WHERE l.account = $1 AND (NOT m.private OR $2::boolean OR lower(m.namespace) = ANY($3::text[]))${after}
		ORDER BY l.liked_at DESC, l.repo_type DESC, l.repo_id DESC LIMIT $4`,
		params,
	);
	return result.rows.map((row) => ({
		type: row.repo_type,
		id: row.repo_id,
		likedAt: (row.liked_at instanceof Date ? row.liked_at : new Date(row.liked_at)).toISOString(),
	}));
}
