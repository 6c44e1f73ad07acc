import type { Readable } from "node:stream";
import type { RefKind } from "../repos/read.js";
import { ANONYMOUS, canRead, readableNamespaces, type Viewer } from "../accounts/viewer.js";
import type { RepoTreeEntry } from "../api/repos.js";
import { HubError, repoNotFound, revisionNotFound } from "../errors.js";
import type { RepoKey } from "../repo-identity.js";
import { commitChanges, type CommitRecord, type FileChange } from "../repos/changes.js";
import { fileOid } from "../repos/git.js";
import { recipesAmong } from "../xet/files.js";
import type { BlobLocation } from "../blobs/small.js";
import { blobDownloadUrl, blobLocation, readBlob } from "./blobs.js";
import {
	commitHistory,
	getFile,
	isFolder,
	lastCommits,
	listRefs,
	pathsInfo,
	resolveRevision,
	treeEntryJson,
	treePage,
	type FileEntry,
	type HistoryEntry,
	type FoundRepo,
	type TreeEntry,
} from "../repos/read.js";
import type { ReadContext } from "./models.js";
import type { RepoContext } from "./repos.js";
import { hasControlCharacter } from "@modelhub/tasks/literals";

/**
 * Reading what a repository holds at a revision: its tree, files, refs and history. Every read starts
 * from `readableRevision`, which checks that the viewer may read the repository; the others take its
 * answer. Trees and paths are answered in the API's shape; files are the stored entries (routes stream
 * their bytes).
 */

export type { FileEntry };

/** A revision of a repository the viewer may read (the repository's id as stored). */
export interface ReadableRevision extends FoundRepo {
	commitId: string;
	/** The library whose rule counts its downloads (src/services/downloads.ts). */
	libraryName?: string | null;
}

const MAX_REVISION_LENGTH = 256;

/** A revision as a client may name it (1 to 256 printable characters), else the 400 to answer. */
export function checkRevisionName(revision: string): void {
	if (
		revision.length === 0 ||
		revision.length > MAX_REVISION_LENGTH ||
		hasControlCharacter(revision) ||
		!revision.isWellFormed()
	) {
		throw new HubError(
			"Invalid",
			`invalid revision: must be 1 to ${MAX_REVISION_LENGTH} printable characters`,
		);
	}
}

/**
 * The repository (of `target.type`) and commit `target.id` and `revision` (a branch, a tag or a commit id) name, when the viewer
 * may read it; else the error huggingface_hub expects (RepoNotFound, RevisionNotFound with
 * `Invalid rev id: …`). A private repository the viewer may not read is answered as a missing one.
 */
export async function readableRevision(
	context: ReadContext,
	viewer: Viewer,
	target: RepoKey,
	revision: string,
): Promise<ReadableRevision> {
	checkRevisionName(revision);
	// Hidden repositories are filtered in the query itself: same work as for a missing one (issue 21).
	const readable = readableNamespaces(viewer);
	const resolved = await resolveRevision(context.db, target.type, target.id, revision, readable);
	if (resolved.status === "no-repo" || !canRead(viewer, resolved)) throw repoNotFound();
	if (resolved.status === "no-revision") throw revisionNotFound(revision);
	return resolved;
}

/** Whether `path` is a folder at the revision ("" is the root, always one). */
export function folderExists(context: ReadContext, at: ReadableRevision, path: string): Promise<boolean> {
	return isFolder(context.db, at, at.commitId, path);
}

/**
 * A page of a folder's entries (with its sub-folders' when `recursive`, after the path `after` when
 * given) as the API shows them, each with its last commit when `withLastCommits`; `more` when another
 * page follows.
 */
export async function treeListing(
	context: ReadContext,
	at: ReadableRevision,
	query: { path: string; recursive: boolean; limit: number; after?: string; withLastCommits: boolean },
): Promise<{ entries: RepoTreeEntry[]; more: boolean }> {
	const { withLastCommits, ...page } = query;
	const found = await treePage(context.db, { repo: at, commitId: at.commitId, ...page });
	const entries = found.slice(0, query.limit);
	return {
		entries: await answerEntries(context, at, entries, withLastCommits),
		more: found.length > query.limit,
	};
}

/** The entries at these paths (files and folders; missing paths are left out). */
export function entriesAt(
	context: ReadContext,
	at: ReadableRevision,
	paths: readonly string[],
): Promise<TreeEntry[]> {
	return pathsInfo(context.db, at, at.commitId, paths);
}

/** The entries at these paths as the API shows them (missing paths are left out), with their last commits when asked. */
export async function pathsInfoOf(
	context: ReadContext,
	at: ReadableRevision,
	paths: readonly string[],
	withLastCommits: boolean,
): Promise<RepoTreeEntry[]> {
	return answerEntries(context, at, await entriesAt(context, at, paths), withLastCommits);
}

/** Entries in the API's shape, each with the last commit that changed it up to the revision when asked. */
async function answerEntries(
	context: ReadContext,
	at: ReadableRevision,
	entries: readonly TreeEntry[],
	withLastCommits: boolean,
): Promise<RepoTreeEntry[]> {
	const lfs = entries.flatMap((entry) => (entry.type === "file" && entry.lfs ? [entry.sha256] : []));
	const [commits, xet] = await Promise.all([
		withLastCommits ? lastCommits(context.db, at, at.commitId, entries) : undefined,
		recipesAmong(context.db, lfs),
	]);
	return entries.map((entry) =>
		treeEntryJson(entry, commits?.get(entry.path), entry.type === "file" && xet.has(entry.sha256)),
	);
}

/**
 * What huggingface_hub identifies a file's content by: the SHA-256 of an LFS file, the git blob id of
 * any other (a download's ETag, preupload's `oid`).
 */
export function fileEtag(file: FileEntry): string {
	return file.lfs ? file.sha256 : fileOid(file);
}

/** The file at `path`, or undefined. */
export function fileAt(
	context: ReadContext,
	at: ReadableRevision,
	path: string,
): Promise<FileEntry | undefined> {
	return getFile(context.db, at, at.commitId, path);
}

/** The repository's branches, tags and pull request refs. */
export function refsOf(
	context: ReadContext,
	at: ReadableRevision,
): Promise<Array<{ kind: RefKind; name: string; commitId: string }>> {
	return listRefs(context.db, at);
}

/**
 * A page of the revision's history, newest first along the first-parent chain (after the commit
 * `after`, the last of the previous page, when given), with one more commit when another page follows.
 */
export function historyOf(
	context: ReadContext,
	at: ReadableRevision,
	page: { limit: number; after?: string | undefined },
): Promise<HistoryEntry[]> {
	const from = page.after !== undefined ? { after: page.after } : { commitId: at.commitId };
	return commitHistory(context.db, at, from, page.limit);
}

/**
 * The commit the revision names and the files it changed from its first parent (at most `limit`,
 * `more` when there are others).
 */
export async function commitDetail(
	context: ReadContext,
	at: ReadableRevision,
	limit: number,
	afterPath?: string,
): Promise<{ commit: CommitRecord; changes: FileChange[]; more: boolean }> {
	const detail = await commitChanges(context.db, at, at.commitId, limit, afterPath);
	// readableRevision found the commit in this repository: it is there.
	if (!detail) throw revisionNotFound(at.commitId);
	return detail;
}

/** A browsing page of a repository: a folder, a file, a history or a commit at a revision. */
export type RepoPageTarget =
	| { kind: "tree" | "blob"; revision: string; path: string }
	| { kind: "commits" | "commit"; revision: string };

/**
 * What a browsing page shows, as the public sees it (pages are loaded without a token, so a private
 * repository is missing), or undefined when the repository, revision, folder, file or commit does not
 * exist: the repository's id as stored, and a commit page's commit id and title.
 */
export async function publicRepoPage(
	context: ReadContext,
	repo: RepoKey,
	page: RepoPageTarget,
): Promise<{ id: string; commit?: { id: string; title: string } } | undefined> {
	let at: ReadableRevision;
	try {
		at = await readableRevision(context, ANONYMOUS, repo, page.revision);
	} catch (error) {
		if (error instanceof HubError && (error.status === 404 || error.status === 400)) return undefined;
		throw error;
	}
	switch (page.kind) {
		case "tree":
			return (await folderExists(context, at, page.path)) ? { id: at.id } : undefined;
		case "blob":
			return (await fileAt(context, at, page.path)) ? { id: at.id } : undefined;
		case "commits":
			return { id: at.id };
		case "commit": {
			const [commit] = await commitHistory(context.db, at, { commitId: at.commitId }, 0);
			return commit ? { id: at.id, commit: { id: commit.id, title: commit.title } } : undefined;
		}
	}
}

/**
 * A file as served: its entry, with where its bytes are kept when known (blobLocation, kept in the serving
 * cache so that downloads skip that lookup).
 */
export type LocatedFile = FileEntry & { storedIn?: BlobLocation | undefined };

/** A file's bytes (or the range `start` ≤ byte < `end`). */
export function fileBytes(
	context: Pick<RepoContext, "storage" | "db">,
	file: LocatedFile,
	range?: { start: number; end: number },
): Promise<Readable> {
	return readBlob(context, file, range);
}

/**
 * A URL the client may download a file's bytes from directly for `expiresInSeconds` (a presigned S3
 * URL), or undefined when the bytes come through the hub. Its answer carries `cacheControl`.
 */
export function fileDownloadUrl(
	context: Pick<RepoContext, "storage" | "db">,
	file: LocatedFile,
	expiresInSeconds: number,
	cacheControl: string,
): Promise<string | undefined> {
	return blobDownloadUrl(context, file, {
		filename: file.path.slice(file.path.lastIndexOf("/") + 1),
		expiresInSeconds,
		cacheControl,
	});
}

/** Where a file's bytes are kept (services/blobs.ts: blobLocation). */
export function fileLocation(context: Pick<RepoContext, "db">, file: FileEntry): Promise<BlobLocation> {
	return blobLocation(context.db, file);
}
