import { recordAudit, type AuditEntry } from "../audit/log.js";
import { notifyChange } from "../db/changes.js";
import type { Database } from "../db/types.js";
import { writeCommits } from "../repos/commits.js";
import { listFiles } from "../repos/read.js";
import type { BlobStore } from "../storage/types.js";
import { applyMetadataChange, metadataChange } from "./metadata.js";
import { repoObjects } from "./objects.js";
import {
	applyOperations,
	CommitOperationError,
	parentMatches,
	type CommitHeader,
	type CommitOperation,
} from "./operations.js";

export interface CommitRequest {
	modelId: string;
	branch: string;
	header: CommitHeader;
	operations: readonly CommitOperation[];
	authorName: string;
	authorEmail: string;
	/** Who, for the audit log (action and repo are filled in). */
	audit: Omit<AuditEntry, "action" | "repo" | "details">;
}

export interface CommitResult {
	commitId: string;
	/** False when the operations changed nothing (no empty commit is made; the head is returned). */
	changed: boolean;
}

/**
 * Makes one commit on a branch from operations whose bytes are already stored. In one transaction:
 * the branch row is locked (concurrent commits to a branch queue, none is lost), `parentCommit` is
 * checked (412 when the branch has moved, as the public hub answers), LFS objects are checked to be
 * the repository's own, the new snapshot is written, a commit to `main` updates the model's metadata
 * and date, and the audit log records who did it.
 */
export async function commitChanges(
	db: Database,
	storage: BlobStore,
	request: CommitRequest,
): Promise<CommitResult> {
	const lfs = request.operations.flatMap((op) => (op.kind === "lfsFile" ? [op.sha256] : []));
	// README.md and config.json are read before the transaction (the blobs are already stored).
	const known = await repoObjects(db, request.modelId, lfs);
	const metadata =
		request.branch === "main"
			? await metadataChange(storage, request.operations, (sha256) => known.get(sha256)?.size)
			: {};
	return db.transaction(async (tx) => {
		const head = await tx.query<{ commit_id: string }>(
			"SELECT commit_id FROM refs WHERE model_id = $1 AND kind = 'branch' AND name = $2 FOR UPDATE",
			[request.modelId, request.branch],
		);
		const headId = head.rows[0]?.commit_id;
		if (headId === undefined) {
			throw new CommitOperationError(`Invalid rev id: ${request.branch}`, 404, "RevisionNotFound");
		}
		const parent = request.header.parentCommit;
		if (parent !== undefined && !parentMatches(parent, headId)) {
			throw new CommitOperationError(
				`A commit has happened since: ${request.branch} is at ${headId}, not at the parent commit ${parent}. Fetch the latest revision and retry.`,
				412,
			);
		}
		const current = await listFiles(tx, request.modelId, headId);
		const objects = await repoObjects(tx, request.modelId, lfs);
		const files = applyOperations(current, request.operations, objects);
		const now = new Date();
		const [written] = await writeCommits(tx, [
			{
				modelId: request.modelId,
				branch: request.branch,
				files,
				title: request.header.summary,
				...(request.header.description ? { message: request.header.description } : {}),
				authorName: request.authorName,
				authorEmail: request.authorEmail,
				// The branch's head (locked above): an unchanged tree makes no empty commit.
				date: now,
			},
		]);
		const commitId = (written as { commitId: string }).commitId;
		const changed = commitId !== headId;
		if (changed) {
			if (request.branch === "main") {
				await tx.query("UPDATE models SET last_modified = $2, updated_at = now() WHERE id = $1", [
					request.modelId,
					new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString(),
				]);
				await applyMetadataChange(tx, request.modelId, metadata);
			}
			await recordAudit(tx, {
				...request.audit,
				action: "repo.commit",
				repo: request.modelId,
				details: {
					branch: request.branch,
					commit: commitId,
					title: request.header.summary.slice(0, 200),
					added: request.operations.filter((op) => op.kind === "file" || op.kind === "lfsFile").length,
					deleted: request.operations.filter((op) => op.kind === "deletedFile" || op.kind === "deletedFolder")
						.length,
				},
			});
			await notifyChange(tx);
		}
		return { commitId, changed };
	});
}
