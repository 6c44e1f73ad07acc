import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable } from "../db/types.js";
import { ConflictError, HubError, revisionNotFound } from "../errors.js";
import { newObjectId } from "../ids.js";
import { chunksOf } from "../storage/digest.js";
import type { BlobStore } from "../storage/types.js";
import { COMMIT_ID } from "../vocabulary.js";
import { writeCommits } from "./commits.js";
import { GITATTRIBUTES } from "./lfs.js";
import { refNameProblem } from "./paths.js";

export interface NewRepo {
	id: string;
	author: string | undefined;
	name: string;
	private: boolean;
	authorName: string;
	authorEmail: string;
}

/** The blob of a new repository's `.gitattributes`, stored before the transaction that refers to it. */
export async function storeGitattributes(storage: BlobStore) {
	return storage.put(chunksOf(GITATTRIBUTES));
}

/**
 * Creates an empty repository (a first commit with `.gitattributes` on `main`, as the public hub
 * does) inside the caller's transaction. False when a model with this id (in any letter case) exists.
 */
export async function createRepo(
	tx: Queryable,
	repo: NewRepo,
	gitattributes: { sha256: string; size: number; gitOid: string | undefined },
): Promise<boolean> {
	const now = new Date(Math.floor(Date.now() / 1000) * 1000);
	const inserted = await tx.query(
		`INSERT INTO models (id, object_id, author, name, private, last_modified, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT DO NOTHING RETURNING id`,
		[repo.id, newObjectId(), repo.author ?? null, repo.name, repo.private, now.toISOString()],
	);
	if (inserted.rows.length === 0) return false;
	await writeCommits(tx, [
		{
			modelId: repo.id,
			files: [{ path: ".gitattributes", ...gitattributes, lfs: false }],
			title: "initial commit",
			authorName: repo.authorName,
			authorEmail: repo.authorEmail,
			date: now,
			parent: null,
		},
	]);
	return true;
}

/** The commit a branch points to, locked until the transaction ends (commits to a branch queue). */
export async function lockBranch(
	tx: Queryable,
	modelId: string,
	branch: string,
): Promise<string | undefined> {
	const head = await tx.query<{ commit_id: string }>(
		"SELECT commit_id FROM refs WHERE model_id = $1 AND kind = 'branch' AND name = $2 FOR UPDATE",
		[modelId, branch],
	);
	return head.rows[0]?.commit_id;
}

/** Dates a model's last change (in whole seconds, as the public hub shows it). */
export async function setLastModified(tx: Queryable, modelId: string, date: Date): Promise<void> {
	await tx.query("UPDATE models SET last_modified = $2, updated_at = now() WHERE id = $1", [
		modelId,
		new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString(),
	]);
}

export async function setPrivate(tx: Queryable, id: string, isPrivate: boolean): Promise<void> {
	await tx.query("UPDATE models SET private = $2, updated_at = now() WHERE id = $1", [id, isPrivate]);
}

/** Why a name cannot be a new branch or tag, or undefined. */
export function newRefProblem(name: string): string | undefined {
	const problem = refNameProblem(name);
	if (problem) return problem;
	if (COMMIT_ID.test(name)) return "must not look like a commit id";
	if (name.startsWith("refs/")) return "must not start with refs/";
	return undefined;
}

/** Points a new branch or tag at a commit. */
export async function createRef(
	tx: Queryable,
	input: { modelId: string; kind: "branch" | "tag"; name: string; commitId: string; message?: string },
): Promise<void> {
	const problem = newRefProblem(input.name);
	if (problem)
		throw new HubError(
			"Invalid",
			`invalid ${input.kind} name ${JSON.stringify(input.name.slice(0, 100))}: ${problem}`,
		);
	// Branches and tags share one namespace of names for revisions (`revision=` resolves either).
	const clash = await tx.query<{ kind: string }>("SELECT kind FROM refs WHERE model_id = $1 AND name = $2", [
		input.modelId,
		input.name,
	]);
	if (clash.rows[0]) {
		throw new ConflictError(`A ${clash.rows[0].kind} named ${input.name} already exists in ${input.modelId}`);
	}
	try {
		await tx.query(
			"INSERT INTO refs (model_id, kind, name, commit_id, message) VALUES ($1, $2, $3, $4, $5)",
			[input.modelId, input.kind, input.name, input.commitId, input.message ?? null],
		);
	} catch (error) {
		if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
			throw new ConflictError(`A ${input.kind} named ${input.name} already exists in ${input.modelId}`);
		}
		throw error;
	}
}

/** Deletes a branch (never `main`) or a tag; the commit it pointed to is returned. */
export async function deleteRef(
	tx: Queryable,
	input: { modelId: string; kind: "branch" | "tag"; name: string },
): Promise<string> {
	if (input.kind === "branch" && input.name === "main") {
		throw new HubError("Invalid", "The main branch cannot be deleted");
	}
	const result = await tx.query<{ commit_id: string }>(
		"DELETE FROM refs WHERE model_id = $1 AND kind = $2 AND name = $3 RETURNING commit_id",
		[input.modelId, input.kind, input.name],
	);
	const row = result.rows[0];
	if (!row) throw revisionNotFound(input.name);
	return row.commit_id;
}
