import {
	namespaceRefusal,
	REPO_MISSING,
	RefusedError,
	repoRefusal,
	type RepoRef,
	type Viewer,
} from "../accounts/viewer.js";
import { ConflictError, revisionNotFound } from "../errors.js";
import type { ModelRecord } from "../models/input.js";
import { deleteModel } from "../models/store.js";
import { findRepo, resolveRevision } from "../repos/read.js";
import { createRef, createRepo, deleteRef, setPrivate, storeGitattributes } from "../repos/write.js";
import type { BlobStore } from "../storage/types.js";
import type { Role } from "../vocabulary.js";
import { commitAuthor, requireAdmin, type Actor } from "./actor.js";
import type { ChangedRepo } from "./changes.js";
import { saveModels } from "./import.js";
import { write, type WriteContext } from "./write.js";

/** Repository writes also store files. */
export interface RepoContext extends WriteContext {
	storage: BlobStore;
}

/** A repository that exists already (in any letter case): `id` is its stored spelling. */
export class RepoExistsError extends ConflictError {
	override name = "RepoExistsError";
	constructor(readonly id: string) {
		super("You already created this model repo");
	}
}

function changed(id: string): ChangedRepo {
	return { type: "model", id };
}

function check(refusal: ReturnType<typeof repoRefusal>): void {
	if (refusal) throw new RefusedError(refusal);
}

/**
 * The repository `id` names (case-insensitively) when the viewer holds `need` on it; otherwise a
 * RefusedError (a missing repository and a private one the viewer may not read are refused alike).
 */
export async function authorizeRepo(
	context: Pick<WriteContext, "db">,
	viewer: Viewer,
	id: string,
	need: Role,
): Promise<RepoRef> {
	const repo = await findRepo(context.db, id);
	if (!repo) throw new RefusedError(REPO_MISSING);
	check(repoRefusal(viewer, repo, need));
	return repo;
}

export interface NewRepository {
	/** The namespace (a user or an organisation); only the hub admin may create a repository without one. */
	namespace: string | undefined;
	name: string;
	private: boolean;
}

/**
 * Creates an empty repository (its first commit holds `.gitattributes`). RepoExistsError when one with
 * this id exists in any letter case.
 */
export async function createRepository(
	context: RepoContext,
	actor: Actor,
	input: NewRepository,
): Promise<{ id: string }> {
	const id = input.namespace === undefined ? input.name : `${input.namespace}/${input.name}`;
	if (input.namespace !== undefined) check(namespaceRefusal(actor.viewer, input.namespace, "write"));
	else requireAdmin(actor);
	const existing = await findRepo(context.db, id);
	if (existing) throw new RepoExistsError(existing.id);
	const gitattributes = await storeGitattributes(context.storage);
	const created = await write(context, async (tx) => {
		const made = await createRepo(
			tx,
			{ id, author: input.namespace, name: input.name, private: input.private, ...commitAuthor(actor) },
			gitattributes,
		);
		if (!made) return { value: false };
		return {
			value: true,
			audit: { ...actor.audit, action: "repo.create", repo: id, details: { private: input.private } },
			change: { type: "repo.created", repo: changed(id), private: input.private },
		};
	});
	if (!created) {
		// Created by someone else since the look above.
		const other = await findRepo(context.db, id);
		throw new RepoExistsError(other?.id ?? id);
	}
	return { id };
}

/** Deletes a repository (its files, refs and commits with it): the namespace's admin role is needed. */
export async function deleteRepository(context: WriteContext, actor: Actor, id: string): Promise<string> {
	const repo = await authorizeRepo(context, actor.viewer, id, "admin");
	await write(context, async (tx) => {
		await deleteModel(tx, repo.id);
		return {
			value: undefined,
			audit: { ...actor.audit, action: "repo.delete", repo: repo.id },
			change: { type: "repo.deleted", repo: changed(repo.id) },
		};
	});
	return repo.id;
}

/** Changes a repository's settings (its visibility); nothing is written when nothing changes. */
export async function updateRepoSettings(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	settings: { private?: boolean | undefined },
): Promise<{ id: string; private: boolean }> {
	check(repoRefusal(actor.viewer, repo, "admin"));
	const isPrivate = settings.private;
	if (isPrivate !== undefined && isPrivate !== repo.private) {
		await write(context, async (tx) => {
			await setPrivate(tx, repo.id, isPrivate);
			return {
				value: undefined,
				audit: { ...actor.audit, action: "repo.settings", repo: repo.id, details: { private: isPrivate } },
				change: { type: "repo.updated", repo: changed(repo.id), settings: { private: isPrivate } },
			};
		});
	}
	return { id: repo.id, private: isPrivate ?? repo.private };
}

/** The commit a revision names (RevisionNotFound otherwise). */
async function commitOf(context: WriteContext, repo: RepoRef, revision: string): Promise<string> {
	const resolved = await resolveRevision(context.db, repo.id, revision);
	if (resolved.status !== "ok") throw revisionNotFound(revision);
	return resolved.commitId;
}

/** A new branch or tag, and the commit it points to. */
export interface RefCreated {
	name: string;
	commitId: string;
}

/** Creates a branch at the commit `startingPoint` names (a branch, a tag or a commit id). */
export async function createBranch(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	branch: string,
	startingPoint: string,
): Promise<RefCreated> {
	check(repoRefusal(actor.viewer, repo, "write"));
	const commitId = await commitOf(context, repo, startingPoint);
	await write(context, async (tx) => {
		await createRef(tx, { modelId: repo.id, kind: "branch", name: branch, commitId });
		return {
			value: undefined,
			audit: {
				...actor.audit,
				action: "branch.create",
				repo: repo.id,
				details: { branch, commit: commitId },
			},
			change: {
				type: "repo.committed",
				repo: changed(repo.id),
				refs: [{ kind: "branch", name: branch, from: null, to: commitId }],
			},
		};
	});
	return { name: branch, commitId };
}

/** Creates a tag (with an optional message) at the commit `revision` names. */
export async function createTag(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	tag: string,
	revision: string,
	message: string | undefined,
): Promise<RefCreated> {
	check(repoRefusal(actor.viewer, repo, "write"));
	const commitId = await commitOf(context, repo, revision);
	await write(context, async (tx) => {
		await createRef(tx, {
			modelId: repo.id,
			kind: "tag",
			name: tag,
			commitId,
			...(message !== undefined ? { message } : {}),
		});
		return {
			value: undefined,
			audit: { ...actor.audit, action: "tag.create", repo: repo.id, details: { tag, commit: commitId } },
			change: {
				type: "repo.committed",
				repo: changed(repo.id),
				refs: [{ kind: "tag", name: tag, from: null, to: commitId }],
			},
		};
	});
	return { name: tag, commitId };
}

/** Deletes a branch (never `main`) or a tag. */
export async function deleteBranchOrTag(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	kind: "branch" | "tag",
	name: string,
): Promise<void> {
	check(repoRefusal(actor.viewer, repo, "write"));
	await write(context, async (tx) => {
		const commit = await deleteRef(tx, { modelId: repo.id, kind, name });
		return {
			value: undefined,
			audit: { ...actor.audit, action: `${kind}.delete`, repo: repo.id, details: { [kind]: name, commit } },
			change: {
				type: "repo.committed",
				repo: changed(repo.id),
				refs: [{ kind, name, from: commit, to: null }],
			},
		};
	});
}

/**
 * Creates or replaces one model from its record (the admin API's `PUT /api/models/{id}`). True when
 * it was new.
 */
export async function putModelRecord(
	context: RepoContext,
	actor: Actor,
	record: ModelRecord,
): Promise<boolean> {
	requireAdmin(actor);
	const result = await saveModels(context.db, context.storage, [record], {
		audit: [{ ...actor.audit, action: "model.put", repo: record.id }],
		changes: context.changes,
	});
	return result.created === 1;
}

/**
 * Deletes a model (the admin API's `DELETE /api/models/{id}`). Its stored id, or undefined when there
 * is no such model.
 */
export async function deleteModelRecord(
	context: WriteContext,
	actor: Actor,
	id: string,
): Promise<string | undefined> {
	requireAdmin(actor);
	return write(context, async (tx) => {
		const deleted = await deleteModel(tx, id);
		if (deleted === undefined) return { value: undefined };
		return {
			value: deleted,
			audit: { ...actor.audit, action: "model.delete", repo: deleted },
			change: { type: "repo.deleted", repo: changed(deleted) },
		};
	});
}
