import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable } from "../db/types.js";
import { ConflictError, HubError, revisionNotFound } from "../errors.js";
import { newObjectId } from "../ids.js";
import type { RepoId, RepoKey } from "../repo-identity.js";
import { COMMIT_ID } from "../vocabulary.js";
import { writeCommits } from "./commits.js";
import { refNameProblem } from "./paths.js";

export interface NewRepo {
	repo: RepoId;
	private: boolean;
	authorName: string;
	authorEmail: string;
}

/**
 * Creates an empty repository (a first commit with `.gitattributes` on `main`, as the public hub
 * does) inside the caller's transaction. False when a repository of this type and id (in any letter
 * case) exists.
 */
export async function createRepo(
	tx: Queryable,
	repo: NewRepo,
	gitattributes: { sha256: string; size: number; gitOid: string | undefined },
): Promise<boolean> {
	const now = new Date(Math.floor(Date.now() / 1000) * 1000);
	const inserted = await tx.query(
		`INSERT INTO repos (type, id, object_id, namespace, name, private, last_modified, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT DO NOTHING RETURNING id`,
		[
			repo.repo.type,
			repo.repo.id,
			newObjectId(),
			repo.repo.namespace,
			repo.repo.name,
			repo.private,
			now.toISOString(),
		],
	);
	if (inserted.rows.length === 0) return false;
	await writeCommits(tx, [
		{
			repo: repo.repo,
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

/**
 * The commit a branch (or a pull request's ref) points to, locked until the transaction ends (commits to
 * a branch queue).
 */
export async function lockBranch(tx: Queryable, repo: RepoKey, branch: string): Promise<string | undefined> {
	const head = await tx.query<{ commit_id: string }>(
		"SELECT commit_id FROM refs WHERE repo_type = $1 AND repo_id = $2 AND kind IN ('branch', 'pr') AND name = $3 FOR UPDATE",
		[repo.type, repo.id, branch],
	);
	return head.rows[0]?.commit_id;
}

/** Dates a repository's last change (in whole seconds, as the public hub shows it). */
export async function setLastModified(tx: Queryable, repo: RepoKey, date: Date): Promise<void> {
	await tx.query("UPDATE repos SET last_modified = $3, updated_at = now() WHERE type = $1 AND id = $2", [
		repo.type,
		repo.id,
		new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString(),
	]);
}

/** Sets a repository's visibility; false when there is no such repository (any more). */
export async function setPrivate(tx: Queryable, repo: RepoKey, isPrivate: boolean): Promise<boolean> {
	const result = await tx.query(
		"UPDATE repos SET private = $3, updated_at = now() WHERE type = $1 AND id = $2",
		[repo.type, repo.id, isPrivate],
	);
	return result.rowCount > 0;
}

/** Deletes a repository and, by cascade, every row that hangs off it (its files' blobs are kept). */
export async function deleteRepo(tx: Queryable, repo: RepoKey): Promise<void> {
	await tx.query("DELETE FROM repos WHERE type = $1 AND id = $2", [repo.type, repo.id]);
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
	input: { repo: RepoKey; kind: "branch" | "tag"; name: string; commitId: string; message?: string },
): Promise<void> {
	const problem = newRefProblem(input.name);
	if (problem)
		throw new HubError(
			"Invalid",
			`invalid ${input.kind} name ${JSON.stringify(input.name.slice(0, 100))}: ${problem}`,
		);
	// Branches and tags share one namespace of names for revisions (`revision=` resolves either).
	const clash = await tx.query<{ kind: string }>(
		"SELECT kind FROM refs WHERE repo_type = $1 AND repo_id = $2 AND name = $3",
		[input.repo.type, input.repo.id, input.name],
	);
	if (clash.rows[0]) {
		throw new ConflictError(`A ${clash.rows[0].kind} named ${input.name} already exists in ${input.repo.id}`);
	}
	try {
		await tx.query(
			`INSERT INTO refs (repo_type, repo_id, kind, name, commit_id, message)
			VALUES ($1, $2, $3, $4, $5, $6)`,
			[input.repo.type, input.repo.id, input.kind, input.name, input.commitId, input.message ?? null],
		);
	} catch (error) {
		if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
			throw new ConflictError(`A ${input.kind} named ${input.name} already exists in ${input.repo.id}`);
		}
		throw error;
	}
}

/** Points a pull request's ref (`refs/pr/N`, named by the hub, never by a client) at a commit. */
export async function createPullRequestRef(
	tx: Queryable,
	repo: RepoKey,
	name: string,
	commitId: string,
): Promise<void> {
	await tx.query(
		"INSERT INTO refs (repo_type, repo_id, kind, name, commit_id) VALUES ($1, $2, 'pr', $3, $4)",
		[repo.type, repo.id, name, commitId],
	);
}

/** Moves a branch that exists to a commit (a merged pull request's fast-forward). */
export async function moveBranch(
	tx: Queryable,
	repo: RepoKey,
	branch: string,
	commitId: string,
): Promise<void> {
	await tx.query(
		"UPDATE refs SET commit_id = $4 WHERE repo_type = $1 AND repo_id = $2 AND kind = 'branch' AND name = $3",
		[repo.type, repo.id, branch, commitId],
	);
}

/** Deletes a branch (never `main`) or a tag; the commit it pointed to is returned. */
export async function deleteRef(
	tx: Queryable,
	input: {
		repo: RepoKey;
		kind: "branch" | "tag";
		name: string;
		/** The commit the caller saw the ref at (git push's old id): refused when it has moved since. */
		expected?: string;
	},
): Promise<string> {
	if (input.kind === "branch" && input.name === "main") {
		throw new HubError("Invalid", "The main branch cannot be deleted");
	}
	const key = [input.repo.type, input.repo.id, input.kind, input.name];
	const result =
		input.expected === undefined
			? await tx.query<{ commit_id: string }>(
					"DELETE FROM refs WHERE repo_type = $1 AND repo_id = $2 AND kind = $3 AND name = $4 RETURNING commit_id",
					key,
				)
			: await tx.query<{ commit_id: string }>(
					"DELETE FROM refs WHERE repo_type = $1 AND repo_id = $2 AND kind = $3 AND name = $4 AND commit_id = $5 RETURNING commit_id",
					[...key, input.expected],
				);
	const row = result.rows[0];
	if (row) return row.commit_id;
	if (input.expected !== undefined) {
		const current = await tx.query<{ commit_id: string }>(
			"SELECT commit_id FROM refs WHERE repo_type = $1 AND repo_id = $2 AND kind = $3 AND name = $4",
			key,
		);
		const at = current.rows[0]?.commit_id;
		if (at !== undefined) {
			throw new HubError(
				"PreconditionFailed",
				`stale: ${input.name} has moved since it was fetched (it is at ${at}, not at ${input.expected}); fetch and try again`,
			);
		}
	}
	throw revisionNotFound(input.name);
}
