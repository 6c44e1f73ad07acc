import type {
	CommitsParameters,
	RepoChangedBlob,
	RepoCommit,
	RepoCommitChange,
	RepoCommitDetail,
} from "../../api/repos.js";
import { treeFileOid, type TreeFile } from "../../repos/trees.js";
import { commitDetail, historyOf, type ReadableRevision } from "../../services/contents.js";
import type { ReadContext } from "../../services/models.js";
import { COMMIT_ID } from "../../vocabulary.js";
import { MAX_PATH_LENGTH } from "../../repos/paths.js";
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

/**
 * Files listed by a commit's page at most: a commit of a whole snapshot may change many more, paged
 * with `?cursor={last path}` (`Link: rel="next"`, as the history's pages).
 */
export const COMMIT_FILES_PAGE = 1000;

function changedBlob(file: TreeFile): RepoChangedBlob {
	return {
		oid: treeFileOid(file),
		size: file.size,
		...(file.lfs ? { lfs: { oid: file.sha256, size: file.size } } : {}),
	};
}

/** The commit a revision names, with the files it changed from its first parent. */
export async function commitAnswer(
	context: ReadContext,
	urls: RepoUrls,
	resolved: ReadableRevision,
	revision: string,
	q: RawQuery<"cursor">,
): Promise<{ body: RepoCommitDetail; next?: string }> {
	// The cursor is the last path of the previous page (any path: the files after it in path order).
	const cursor = one(q, "cursor");
	if (cursor !== undefined && (cursor === "" || cursor.length > MAX_PATH_LENGTH)) {
		throw invalidParameter("cursor", `cursor must be a path of 1 to ${MAX_PATH_LENGTH} characters`);
	}
	const { commit, changes, more } = await commitDetail(context, resolved, COMMIT_FILES_PAGE, cursor);
	const last = changes[changes.length - 1];
	const next =
		more && last
			? repoApiUrl(
					urls,
					resolved.id,
					`commit/${encodeURIComponent(revision)}?${new URLSearchParams({ cursor: last.path }).toString()}`,
				)
			: undefined;
	const body: RepoCommitDetail = {
		id: commit.id,
		title: commit.title,
		message: commit.message,
		authors: [{ user: commitAuthor(commit.author) }],
		date: (commit.createdAt instanceof Date ? commit.createdAt : new Date(commit.createdAt)).toISOString(),
		parents: commit.parentId ? [commit.parentId] : [],
		files: changes.map((change): RepoCommitChange => ({
			path: change.path,
			status: change.status,
			...(change.before ? { before: changedBlob(change.before) } : {}),
			...(change.after ? { after: changedBlob(change.after) } : {}),
		})),
		filesTruncated: more,
	};
	return next ? { body, next } : { body };
}
