import type { CommitsParameters, RepoCommit } from "../../api/repos.js";
import { historyOf, type ReadableRevision } from "../../services/contents.js";
import type { ReadContext } from "../../services/models.js";
import { COMMIT_ID } from "../../vocabulary.js";
import { invalidParameter, many, one, type RawQuery } from "../query.js";
import { repoApiUrl, type RepoUrls } from "../repo-paths.js";

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
	context: ReadContext,
	urls: RepoUrls,
	resolved: ReadableRevision,
	revision: string,
	q: RawQuery<keyof CommitsParameters>,
): Promise<{ body: RepoCommit[]; next?: string }> {
	const cursor = one(q, "cursor");
	if (cursor !== undefined && !COMMIT_ID.test(cursor)) {
		throw invalidParameter("cursor", "cursor is not one this hub issued");
	}
	const formatted = many(q, "expand", 10).includes("formatted");
	const commits = await historyOf(context, resolved, { limit: COMMITS_PAGE, after: cursor });
	const page = commits.slice(0, COMMITS_PAGE);
	const body = page.map((commit): RepoCommit => ({
		id: commit.id,
		title: commit.title,
		message: commit.message,
		authors: [{ user: commitAuthor(commit.author) }],
		date: (commit.createdAt instanceof Date ? commit.createdAt : new Date(commit.createdAt)).toISOString(),
		...(formatted
			? { formatted: { title: escapeHtml(commit.title), message: escapeHtml(commit.message) } }
			: {}),
	}));
	const last = page[page.length - 1];
	if (commits.length > COMMITS_PAGE && last) {
		const params = new URLSearchParams({ cursor: last.id });
		if (formatted) params.set("expand[]", "formatted");
		return {
			body,
			next: repoApiUrl(urls, resolved.id, `commits/${encodeURIComponent(revision)}?${params.toString()}`),
		};
	}
	return { body };
}
