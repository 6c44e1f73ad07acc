import { RefusedError, repoRefusal, type RepoRef } from "../accounts/viewer.js";
import { HubError, revisionNotFound } from "../errors.js";
import { writeCommits } from "../repos/commits.js";
import type { ParsedCommitObject } from "../repos/git.js";
import { writablePathProblem } from "../repos/paths.js";
import { refKinds } from "../repos/read.js";
import { lockBranch, setLastModified } from "../repos/write.js";
import { applyMetadataChange, metadataChange } from "../uploads/metadata.js";
import { accountUploads, recordUploadObject, repoObjects } from "../uploads/objects.js";
import type { Queryable } from "../db/types.js";
import {
	CommitOperationError,
	operationEdits,
	parentMatches,
	type CommitHeader,
	type CommitOperation,
} from "../uploads/operations.js";
import { COMMIT_ID } from "../vocabulary.js";
import { commitAuthor, type Actor } from "./actor.js";
import type { RepoContext } from "./repos.js";
import { write } from "./write.js";
import type { ChangeEvent } from "./changes.js";
import { pullRequestNumber, type DiscussionRow } from "../discussions/store.js";
import {
	checkPullRequestCommit,
	openDiscussion,
	openedAudit,
	openedChanges,
	recordPullRequestCommit,
	requirePullRequestOpener,
	TITLE_MAX,
	TITLE_MIN,
	type DiscussionContext,
	type OpenedPullRequest,
} from "./discussions.js";
import { readBlob, requireBlobs } from "./blobs.js";
import { PullRequestUploadCapError } from "./quota.js";

export interface CommitRequest {
	/** The branch committed to, or with `createPr` the branch a new pull request targets. */
	branch: string;
	/** Open a pull request (`refs/pr/N`) on `branch` and commit to it (huggingface_hub's `create_pr=1`). */
	createPr?: boolean;
	header: CommitHeader;
	operations: readonly CommitOperation[];
	/**
	 * Commits received by git push, oldest first, each with its own operations (then `operations` is
	 * unused): written in this one transaction, each keeping its id, the first on `parentCommit`.
	 */
	pushed?: readonly PushedCommit[];
	/**
	 * Set for someone who may only open pull requests: the cap on the bytes they upload to the repository
	 * (MODELHUB_PR_UPLOAD_MAX_BYTES). The files sent with the commit are recorded as their uploads, as
	 * their LFS and Xet objects are, and the commit is refused when they take the account past it.
	 */
	pullRequestUploadCap?: number;
}

/** A commit a git client made: its object's bytes (kept verbatim), what they say, its changes. */
export interface PushedCommit {
	bytes: Buffer;
	parsed: ParsedCommitObject;
	operations: readonly CommitOperation[];
}

export interface CommitResult {
	commitId: string;
	/** False when the operations changed nothing (no empty commit is made; the head is returned). */
	changed: boolean;
	/** The pull request the commit opened (`createPr`) or went to (`refs/pr/N`). */
	pullRequest?: number;
}

/**
 * Records the files a commit sent (inline, multipart, pushed) as uploads of an account that may only
 * open pull requests, each object once per repository as accountUploads counts them; refuses
 * (PullRequestUploadCapError, the transaction undone) when that takes the account past `cap`.
 */
async function recordProposedFiles(
	tx: Queryable,
	actor: Actor,
	repo: RepoRef,
	operations: readonly CommitOperation[],
	cap: number,
): Promise<void> {
	const files = operations.filter((op) => op.kind === "file");
	if (files.length === 0) return;
	const key = { type: repo.type, id: repo.id };
	const account = actor.audit.actor;
	const before = await accountUploads(tx, key, account);
	for (const file of files) await recordUploadObject(tx, key, file, account);
	const after = await accountUploads(tx, key, account);
	if (after > cap && after > before) {
		throw new PullRequestUploadCapError(account, repo.id, before, cap, after - before);
	}
}

/**
 * Who may commit: writers to branches; anyone who may take part in the repository's discussions to a
 * new pull request or (the pull request's author, checked in the commit's transaction) to `refs/pr/N`.
 */
export function requireCommitRight(actor: Actor, repo: RepoRef, branch: string, createPr: boolean): void {
	if (createPr || pullRequestNumber(branch) !== undefined) {
		requirePullRequestOpener(actor, repo);
		return;
	}
	const refusal = repoRefusal(actor.viewer, repo, "write");
	if (refusal) throw new RefusedError(refusal);
}

/**
 * Checks, before a commit's body is read, that it targets a branch of the repository: a tag or a commit
 * id is refused (400), an unknown name is RevisionNotFound.
 */
export async function checkCommitBranch(
	context: Pick<RepoContext, "db">,
	repo: RepoRef,
	branch: string,
): Promise<void> {
	const kinds = await refKinds(context.db, repo, branch);
	if (kinds.includes("branch") || kinds.includes("pr")) return;
	if (kinds.length > 0 || COMMIT_ID.test(branch)) {
		throw new HubError(
			"Invalid",
			`Commits can only be made on a branch: ${branch} is not a branch of ${repo.id}`,
		);
	}
	throw revisionNotFound(branch);
}

/**
 * Makes one commit on a branch from operations whose bytes are already stored. In one transaction:
 * the branch row is locked (concurrent commits to a branch queue, none is lost), `parentCommit` is
 * checked (412 when the branch has moved, as the public hub answers), LFS objects are checked to be
 * the repository's own, the new snapshot is written, a commit to `main` updates the model's metadata
 * and date, and the audit log records who did it.
 */
export async function commitChanges(
	context: DiscussionContext,
	actor: Actor,
	repo: RepoRef,
	request: CommitRequest,
): Promise<CommitResult> {
	const createPr = request.createPr === true;
	requireCommitRight(actor, repo, request.branch, createPr);
	if (createPr && pullRequestNumber(request.branch) !== undefined) {
		throw new HubError("Invalid", "A pull request targets a branch: create_pr cannot be used with refs/pr/N");
	}
	const prNumber = pullRequestNumber(request.branch);
	const pushed = request.pushed;
	if (pushed !== undefined && (createPr || request.header.parentCommit === undefined)) {
		throw new HubError(
			"Invalid",
			"pushed commits go to a branch or a pull request's ref, on the commit the client saw",
		);
	}
	const operations = pushed ? pushed.flatMap((commit) => commit.operations) : request.operations;
	// Every way in (NDJSON and multipart commits, LFS and Xet files, the web's uploads) ends here: the
	// routes check paths as they parse, and this check stands whatever a route does.
	for (const op of operations) {
		if (op.kind !== "file" && op.kind !== "lfsFile") continue;
		const problem = writablePathProblem(op.path);
		if (problem)
			throw new CommitOperationError(`invalid path ${JSON.stringify(op.path.slice(0, 200))}: ${problem}`);
	}
	const lfs = operations.flatMap((op) => (op.kind === "lfsFile" ? [op.sha256] : []));
	// README.md and config.json are read before the transaction (the blobs are already stored).
	const known = await repoObjects(context.db, repo, lfs);
	const metadata =
		request.branch === "main" && !createPr
			? await metadataChange(
					{ parsing: context.parsing, read: (blob, range) => readBlob(context, blob, range) },
					operations,
					(sha256) => known.get(sha256)?.size,
					repo,
				)
			: {};
	const stored = operations.flatMap((op) => (op.kind === "file" ? [op.sha256] : []));
	return write<CommitResult>(context, async (tx) => {
		// The collector cannot run between this check and the commit (src/gc/collect.ts).
		await requireBlobs(tx, stored);
		if (request.pullRequestUploadCap !== undefined) {
			await recordProposedFiles(tx, actor, repo, operations, request.pullRequestUploadCap);
		}
		let branch = request.branch;
		let pullRequest: DiscussionRow | undefined;
		const changes: ChangeEvent[] = [];
		if (createPr) {
			const summary = request.header.summary.trim();
			const opened = await openDiscussion(context, tx, actor, repo, {
				title: [...(summary.length >= TITLE_MIN ? summary : `Commit: ${summary}`)]
					.slice(0, TITLE_MAX)
					.join(""),
				description: request.header.description,
				pullRequest: true,
				status: "open",
				target: request.branch,
				...(request.header.parentCommit !== undefined ? { base: request.header.parentCommit } : {}),
			});
			branch = (opened.opened as OpenedPullRequest).ref;
			pullRequest = opened.row;
			changes.push(...openedChanges(repo, actor, opened));
		} else if (prNumber !== undefined) {
			pullRequest = await checkPullRequestCommit(tx, actor, repo, prNumber);
		}
		const headId = await lockBranch(tx, repo, branch);
		if (headId === undefined) throw revisionNotFound(branch);
		const parent = createPr ? undefined : request.header.parentCommit;
		if (parent !== undefined && !parentMatches(parent, headId)) {
			throw new CommitOperationError(
				`A commit has happened since: ${branch} is at ${headId}, not at the parent commit ${parent}. Fetch the latest revision and retry.`,
				"PreconditionFailed",
			);
		}
		const objects = await repoObjects(tx, repo, lfs);
		const now = new Date();
		let commitId: string;
		/** The commits made, with their titles (a pull request's timeline shows each). */
		const made: Array<{ oid: string; subject: string }> = [];
		if (pushed !== undefined) {
			// Each pushed commit on the one before (the first on the head checked above), kept as sent.
			let parent = headId;
			for (const commit of pushed) {
				const { parsed } = commit;
				const [written] = await writeCommits(tx, [
					{
						repo: { type: repo.type, id: repo.id },
						branch,
						edits: operationEdits(commit.operations, objects),
						title: parsed.title,
						...(parsed.message ? { message: parsed.message } : {}),
						authorName: parsed.authorName,
						authorEmail: parsed.authorEmail,
						date: parsed.date,
						parent,
						gitObject: { bytes: commit.bytes, tree: parsed.tree, parents: parsed.parents },
					},
				]);
				parent = (written as { commitId: string }).commitId;
				made.push({ oid: parent, subject: parsed.title });
			}
			commitId = parent;
		} else {
			// Edits to the head's tree: only the trees on the changed paths are rebuilt and written.
			const [written] = await writeCommits(tx, [
				{
					repo: { type: repo.type, id: repo.id },
					branch,
					edits: operationEdits(operations, objects),
					title: request.header.summary,
					...(request.header.description ? { message: request.header.description } : {}),
					...commitAuthor(actor),
					// The branch's head (locked above): an unchanged tree makes no empty commit.
					date: now,
				},
			]);
			commitId = (written as { commitId: string }).commitId;
			made.push({ oid: commitId, subject: request.header.summary });
		}
		const changed = commitId !== headId;
		const pr = pullRequest ? { pullRequest: pullRequest.num } : {};
		if (!changed) return { value: { commitId, changed, ...pr }, change: changes };
		if (pullRequest) {
			let recorded: ChangeEvent | undefined;
			for (const commit of made)
				recorded = await recordPullRequestCommit(tx, actor, repo, pullRequest, commit);
			if (recorded) changes.push(recorded);
		}
		if (branch === "main") {
			await setLastModified(tx, repo, now);
			await applyMetadataChange(tx, repo, metadata);
		}
		return {
			value: { commitId, changed, ...pr },
			audit: [
				...(createPr && pullRequest ? [openedAudit(repo, actor, pullRequest)] : []),
				{
					...actor.audit,
					action: "repo.commit",
					repo: { type: repo.type, id: repo.id },
					details: {
						branch,
						commit: commitId,
						title: request.header.summary.slice(0, 200),
						added: operations.filter((op) => op.kind === "file" || op.kind === "lfsFile").length,
						deleted: operations.filter((op) => op.kind === "deletedFile" || op.kind === "deletedFolder")
							.length,
					},
				},
			],
			change: [
				{
					type: "repo.committed",
					repo: { type: repo.type, id: repo.id },
					refs: [{ kind: pullRequest ? "pr" : "branch", name: branch, from: headId, to: commitId }],
				},
				...changes,
			],
		};
	});
}
