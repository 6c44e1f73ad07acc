import type { CommitsParameters, RepoCommit } from "../../api/repos.js";
import type { Queryable } from "../../db/types.js";
import { COMMIT_ID } from "../../repos/paths.js";
import { invalidParameter, many, one, type RawQuery } from "../query.js";
import { encodeId } from "./context.js";

/** Commits per page of `GET /api/models/{id}/commits/{rev}` (followed through `Link`). */
export const COMMITS_PAGE = 50;

/** `Name <email>` → `Name`: the account (or the hub) that made the commit. */
export function commitAuthor(author: string): string {
	const open = author.lastIndexOf(" <");
	return open > 0 ? author.slice(0, open) : author;
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * A page of the history of a revision, newest first along the first-parent chain, in the public
 * hub's shape: `{ id, title, message, authors: [{ user }], date }` (huggingface_hub's
 * `list_repo_commits`), `formatted: { title, message }` with `expand[]=formatted`. The cursor is the
 * id of the last commit of the previous page.
 */
export async function commitsPage(
	db: Queryable,
	resolved: { modelId: string; commitId: string },
	revision: string,
	q: RawQuery<keyof CommitsParameters>,
): Promise<{ body: RepoCommit[]; next?: string }> {
	const cursor = one(q, "cursor");
	if (cursor !== undefined && !COMMIT_ID.test(cursor)) {
		throw invalidParameter("cursor", "cursor is not one this hub issued");
	}
	const formatted = many(q, "expand", 10).includes("formatted");
	const rows = await db.query<{
		id: string;
		title: string;
		message: string;
		author: string;
		created_at: Date | string;
	}>(
		`WITH RECURSIVE chain(id, parent_id, title, message, author, created_at, depth) AS (
			SELECT c.id, c.parent_id, c.title, c.message, c.author, c.created_at, 0 FROM commits c
			WHERE c.model_id = $1 AND c.id = COALESCE(
				(SELECT parent_id FROM commits WHERE model_id = $1 AND id = $2::text), $3)
			UNION ALL
			SELECT c.id, c.parent_id, c.title, c.message, c.author, c.created_at, chain.depth + 1
			FROM commits c JOIN chain ON c.model_id = $1 AND c.id = chain.parent_id
			WHERE chain.depth < $4
		) SELECT id, title, message, author, created_at FROM chain ORDER BY depth`,
		[resolved.modelId, cursor ?? null, cursor === undefined ? resolved.commitId : null, COMMITS_PAGE],
	);
	const page = rows.rows.slice(0, COMMITS_PAGE);
	const body = page.map((row): RepoCommit => ({
		id: row.id,
		title: row.title,
		message: row.message,
		authors: [{ user: commitAuthor(row.author) }],
		date: (row.created_at instanceof Date ? row.created_at : new Date(row.created_at)).toISOString(),
		...(formatted ? { formatted: { title: escapeHtml(row.title), message: escapeHtml(row.message) } } : {}),
	}));
	const last = page[page.length - 1];
	if (rows.rows.length > COMMITS_PAGE && last) {
		const params = new URLSearchParams({ cursor: last.id });
		if (formatted) params.set("expand[]", "formatted");
		return {
			body,
			next: `/api/models/${encodeId(resolved.modelId)}/commits/${encodeURIComponent(revision)}?${params.toString()}`,
		};
	}
	return { body };
}
