import {
	namespaceRefusal,
	namespaceRole,
	REPO_MISSING,
	type Refusal,
	RefusedError,
	repoRefusal,
	type RepoRef,
	type Viewer,
} from "../accounts/viewer.js";
import { ConflictError, HubError, revisionNotFound } from "../errors.js";
import type { ModelRecord } from "../models/input.js";
import type { ModelInfo } from "../api/models.js";
import { deleteModel, getModel, type InfoOptions } from "../models/store.js";
import {
	bareNameProblem,
	repoId,
	reservedRepoNameProblem,
	type RepoKey,
	type RepoType,
} from "../repo-identity.js";
import { findRepo, refKinds, resolveRevision, type GatedMode } from "../repos/read.js";
import { writeCommits } from "../repos/commits.js";
import { rootTrees } from "../repos/trees.js";
import { setGated } from "../gated/store.js";
import {
	createRef,
	createRepo,
	deleteRef,
	deleteRepo,
	lockBranch,
	setLastModified,
	setPrivate,
} from "../repos/write.js";
import { GITATTRIBUTES } from "../repos/lfs.js";
import { moveRepo } from "../repos/redirects.js";
import { renameWatchedRepo } from "../webhooks/store.js";
import { PG_UNIQUE_VIOLATION, pgErrorCode } from "../db/types.js";
import { chunksOf } from "../storage/digest.js";
import { requireBlobs, storeBlob } from "./blobs.js";
import type { BlobStore } from "../storage/types.js";
import type { AccountLimits } from "../config.js";
import { checkCreationRate } from "./quota.js";
import { COMMIT_ID, type Role } from "../vocabulary.js";
import { commitAuthor, requireAdmin, type Actor } from "./actor.js";
import type { ChangedRepo } from "./changes.js";
import { saveModels } from "./import.js";
import { write, type WriteContext } from "./write.js";

/** Repository writes also store files. */
export interface RepoContext extends WriteContext {
	storage: BlobStore;
}

/** A repository that exists already (in any letter case): `repo.id` is its stored spelling. */
export class RepoExistsError extends ConflictError {
	override name = "RepoExistsError";
	constructor(readonly repo: RepoKey) {
		super(`You already created this ${repo.type} repo`);
	}
}

/** The models the admin API writes from records. */
const MODEL: RepoType = "model";

function changed(repo: RepoKey): ChangedRepo {
	return { type: repo.type, id: repo.id };
}

function check(refusal: ReturnType<typeof repoRefusal>): void {
	if (refusal) throw new RefusedError(refusal);
}

/**
 * The repository of a type whose id `target` names (case-insensitively) when the viewer holds `need` on
 * it; otherwise a RefusedError (a missing repository and a private one the viewer may not read are
 * refused alike).
 */
export async function authorizeRepo(
	context: Pick<WriteContext, "db">,
	viewer: Viewer,
	target: RepoKey,
	need: Role,
): Promise<RepoRef> {
	const repo = await findRepo(context.db, target.type, target.id);
	if (!repo) throw new RefusedError(REPO_MISSING);
	check(repoRefusal(viewer, repo, need));
	return repo;
}

export interface NewRepository {
	type: RepoType;
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
	context: RepoContext & { settings?: { accountLimits?: AccountLimits | undefined } },
	actor: Actor,
	input: NewRepository,
): Promise<{ id: string }> {
	const repo = repoId(
		input.type,
		input.namespace === undefined ? input.name : `${input.namespace}/${input.name}`,
	);
	if (input.namespace !== undefined) check(namespaceRefusal(actor.viewer, input.namespace, "write"));
	else requireAdmin(actor);
	const reserved =
		reservedRepoNameProblem(input.name) ??
		(input.namespace === undefined ? bareNameProblem(input.type, input.name) : undefined);
	if (reserved) throw new HubError("Invalid", reserved);
	const existing = await findRepo(context.db, repo.type, repo.id);
	if (existing) throw new RepoExistsError(existing);
	const gitattributes = await storeBlob(context, chunksOf(GITATTRIBUTES));
	const created = await write(context, async (tx) => {
		await checkCreationRate(tx, context.settings?.accountLimits, actor);
		await requireBlobs(tx, [gitattributes.sha256]);
		const made = await createRepo(
			tx,
			{ repo, private: input.private, ...commitAuthor(actor) },
			gitattributes,
		);
		if (!made) return { value: false };
		return {
			value: true,
			audit: { ...actor.audit, action: "repo.create", repo, details: { private: input.private } },
			change: { type: "repo.created", repo: changed(repo), private: input.private },
		};
	});
	if (!created) {
		// Created by someone else since the look above.
		const other = await findRepo(context.db, repo.type, repo.id);
		throw new RepoExistsError(other ?? repo);
	}
	return { id: repo.id };
}

/** Deletes a repository (its files, refs and commits with it): the namespace's admin role is needed. */
export async function deleteRepository(
	context: WriteContext,
	actor: Actor,
	target: RepoKey,
): Promise<string> {
	const repo = await authorizeRepo(context, actor.viewer, target, "admin");
	await write(context, async (tx) => {
		await deleteRepo(tx, repo);
		return {
			value: undefined,
			audit: { ...actor.audit, action: "repo.delete", repo: changed(repo) },
			change: { type: "repo.deleted", repo: changed(repo) },
		};
	});
	return repo.id;
}

/**
 * Why the viewer may not move `repo` to the namespace `target` (undefined: the hub's own, no namespace),
 * or undefined. As the public hub documents ("Renaming or transferring a repo"): a rename within a
 * namespace needs write there; a transfer needs admin on the source namespace and write on the target;
 * repositories without a namespace, and moves to none, are the hub admin's.
 */
function moveRefusal(viewer: Viewer, repo: RepoRef, target: string | undefined): Refusal | undefined {
	const hidden = repoRefusal(viewer, repo, "read");
	if (hidden) return hidden;
	if (viewer.kind === "admin") return undefined;
	if (viewer.kind === "anonymous") return namespaceRefusal(viewer, "", "write");
	const name = viewer.account.name;
	if (!repo.namespace || target === undefined) {
		return {
			status: 403,
			message: `You (${name}) cannot move ${repo.id} to ${target === undefined ? "an id without a namespace" : target}: repositories without a namespace are the hub admin's`,
		};
	}
	const sameNamespace = repo.namespace.toLowerCase() === target.toLowerCase();
	const need: Role = sameNamespace ? "write" : "admin";
	const source = repoRefusal(viewer, repo, need);
	if (source) {
		if (source.status !== 403 || viewer.token.role === "read") return source;
		const role = namespaceRole(viewer, repo.namespace);
		return {
			status: 403,
			message:
				role === undefined
					? `You (${name}) cannot move ${repo.id}: it belongs to ${repo.namespace}, and you are not a member`
					: `You (${name}) have the '${role}' role in ${repo.namespace}; ${sameNamespace ? "renaming a repository" : "transferring a repository to another namespace"} needs the '${need}' role`,
		};
	}
	if (sameNamespace) return undefined;
	const into = namespaceRefusal(viewer, target, "write");
	if (into && into.status === 403) {
		return {
			status: 403,
			message: `You (${name}) cannot transfer ${repo.id} to ${target}: ${namespaceRole(viewer, target) === undefined ? "it is neither your namespace nor an organisation you belong to" : "that needs the 'write' role there"}`,
		};
	}
	return into;
}

/**
 * Renames or transfers a repository (huggingface_hub's move_repo): in one transaction its id changes,
 * everything that hangs off it follows (files are referenced by id, not copied; discussions, pull
 * requests and their refs, likes, access requests, download counts, webhooks watching it, the audit
 * log), its bytes count in the new namespace's usage, and the former id redirects to the new one (reads
 * only: see the routes). RepoExistsError when the target is taken, in any letter case.
 */
export async function moveRepository(
	context: WriteContext,
	actor: Actor,
	source: RepoKey,
	input: { type: RepoType; namespace: string | undefined; name: string },
): Promise<{ from: string; id: string }> {
	const to = repoId(
		input.type,
		input.namespace === undefined ? input.name : `${input.namespace}/${input.name}`,
	);
	const repo = await findRepo(context.db, source.type, source.id);
	if (!repo) throw new RefusedError(REPO_MISSING);
	check(moveRefusal(actor.viewer, repo, input.namespace));
	const reserved =
		reservedRepoNameProblem(input.name) ??
		(input.namespace === undefined ? bareNameProblem(input.type, input.name) : undefined);
	if (reserved) throw new HubError("Invalid", reserved);
	if (repo.id === to.id)
		throw new HubError("Invalid", `${repo.id} is already named ${to.id}: nothing to move`);
	const existing = await findRepo(context.db, to.type, to.id);
	if (existing && existing.id.toLowerCase() !== repo.id.toLowerCase()) throw new RepoExistsError(existing);
	const moved = await write(context, async (tx) => {
		const outcome = await moveRepo(tx, repo, to);
		if (outcome === "missing") throw new RefusedError(REPO_MISSING);
		if (repo.type === "model" || repo.type === "dataset") {
			await renameWatchedRepo(tx, repo.type, repo.id, to.id);
		}
		return {
			value: true,
			audit: { ...actor.audit, action: "repo.move", repo: changed(to), details: { from: repo.id } },
			change: { type: "repo.moved", repo: changed(to), from: repo.id, private: repo.private },
		};
	}).catch((error: unknown) => {
		// Taken since the look above (a concurrent move or create): the unique index refused this one.
		if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) throw new RepoExistsError(to);
		throw error;
	});
	return { from: repo.id, id: moved ? to.id : repo.id };
}

/** Changes a repository's settings (visibility, gated access); nothing is written when nothing changes. */
export async function updateRepoSettings(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	settings: { private?: boolean | undefined; gated?: GatedMode | false | undefined },
): Promise<{ id: string; private: boolean; gated: GatedMode | false }> {
	check(repoRefusal(actor.viewer, repo, "admin"));
	const isPrivate = settings.private !== repo.private ? settings.private : undefined;
	const gated =
		settings.gated !== undefined && settings.gated !== (repo.gated ?? false) ? settings.gated : undefined;
	if (isPrivate !== undefined || gated !== undefined) {
		await write(context, async (tx) => {
			// Deleted since its rights were checked (a DELETE racing this PUT): nothing to change.
			if (isPrivate !== undefined && !(await setPrivate(tx, repo, isPrivate)))
				throw new RefusedError(REPO_MISSING);
			if (gated !== undefined && !(await setGated(tx, repo, gated === false ? null : gated))) {
				throw new RefusedError(REPO_MISSING);
			}
			const changedSettings = {
				...(isPrivate !== undefined ? { private: isPrivate } : {}),
				...(gated !== undefined ? { gated } : {}),
			};
			return {
				value: undefined,
				audit: { ...actor.audit, action: "repo.settings", repo: changed(repo), details: changedSettings },
				change: { type: "repo.updated", repo: changed(repo), settings: changedSettings },
			};
		});
	}
	return { id: repo.id, private: isPrivate ?? repo.private, gated: gated ?? repo.gated ?? false };
}

/** The commit a revision names (RevisionNotFound otherwise). */
async function commitOf(context: WriteContext, repo: RepoRef, revision: string): Promise<string> {
	const resolved = await resolveRevision(context.db, repo.type, repo.id, revision);
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
		await createRef(tx, { repo, kind: "branch", name: branch, commitId });
		return {
			value: undefined,
			audit: {
				...actor.audit,
				action: "branch.create",
				repo: changed(repo),
				details: { branch, commit: commitId },
			},
			change: {
				type: "repo.committed",
				repo: changed(repo),
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
			repo,
			kind: "tag",
			name: tag,
			commitId,
			...(message !== undefined ? { message } : {}),
		});
		return {
			value: undefined,
			audit: {
				...actor.audit,
				action: "tag.create",
				repo: changed(repo),
				details: { tag, commit: commitId },
			},
			change: {
				type: "repo.committed",
				repo: changed(repo),
				refs: [{ kind: "tag", name: tag, from: null, to: commitId }],
			},
		};
	});
	return { name: tag, commitId };
}

/** The longest squash message kept (as a tag's message). */
const SQUASH_MESSAGE_MAX = 10_000;

/**
 * Squashes a branch's history into one commit (huggingface_hub's super_squash_history): a new commit
 * without a parent, with the head's tree (the same files), the actor as author and `message` (its first
 * line the title), becomes the branch's head. Write access; only a branch (a tag, a pull request's ref or
 * a commit id is a 400, an unknown name RevisionNotFound). The branch row is locked, so a commit landing
 * meanwhile is either squashed with the rest or made on the squashed commit. Old commits stay readable
 * by id while other refs point into them.
 */
export async function squashBranch(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	branch: string,
	message: string | undefined,
): Promise<{ commitId: string }> {
	check(repoRefusal(actor.viewer, repo, "write"));
	const kinds = await refKinds(context.db, repo, branch);
	if (!kinds.includes("branch")) {
		if (kinds.length > 0 || COMMIT_ID.test(branch))
			throw new HubError(
				"Invalid",
				`Only a branch's history can be squashed: ${branch} is not a branch of ${repo.id}`,
			);
		throw revisionNotFound(branch);
	}
	const text = (message ?? "").trim() || `Super-squash branch '${branch}'`;
	const [title = "", ...rest] = [...text].slice(0, SQUASH_MESSAGE_MAX).join("").split("\n");
	return write(context, async (tx) => {
		const headId = await lockBranch(tx, repo, branch);
		if (headId === undefined) throw revisionNotFound(branch);
		const tree = (await rootTrees(tx, repo, [headId])).get(headId);
		if (tree === undefined) throw new HubError("Invalid", `the head of ${branch} has no tree in ${repo.id}`);
		const now = new Date();
		const body = rest.join("\n").trim();
		const [written] = await writeCommits(tx, [
			{
				repo: { type: repo.type, id: repo.id },
				branch,
				tree,
				parent: null,
				title: title.trim(),
				...(body ? { message: body } : {}),
				...commitAuthor(actor),
				date: now,
			},
		]);
		const commitId = (written as { commitId: string }).commitId;
		if (branch === "main") await setLastModified(tx, repo, now);
		return {
			value: { commitId },
			audit: {
				...actor.audit,
				action: "branch.squash",
				repo: changed(repo),
				details: { branch, from: headId, commit: commitId },
			},
			change: {
				type: "repo.committed",
				repo: changed(repo),
				refs: [{ kind: "branch", name: branch, from: headId, to: commitId }],
			},
		};
	});
}

/** Deletes a branch (never `main`) or a tag. */
export async function deleteBranchOrTag(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	kind: "branch" | "tag",
	name: string,
	/** The commit the caller saw it at (git push's old id): refused (412) when it has moved since. */
	expected?: string,
): Promise<void> {
	check(repoRefusal(actor.viewer, repo, "write"));
	await write(context, async (tx) => {
		const commit = await deleteRef(tx, { repo, kind, name, ...(expected === undefined ? {} : { expected }) });
		return {
			value: undefined,
			audit: {
				...actor.audit,
				action: `${kind}.delete`,
				repo: changed(repo),
				details: { [kind]: name, commit },
			},
			change: {
				type: "repo.committed",
				repo: changed(repo),
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
	answer: InfoOptions,
): Promise<{ created: boolean; info: ModelInfo }> {
	requireAdmin(actor);
	let info: ModelInfo | undefined;
	const result = await saveModels(context.db, context.storage, [record], {
		audit: [{ ...actor.audit, action: "model.put", repo: { type: MODEL, id: record.id } }],
		changes: context.changes,
		// Read in the write's transaction: a DELETE racing this PUT on PostgreSQL committed between the
		// write and a later read, and the PUT answered 201 with an empty body (seen 2 in 300 races).
		readBack: async (tx) => {
			info = await getModel(tx, record.id, answer);
		},
	});
	// The model was just written in the same transaction, so it is there (and the admin sees it).
	if (info === undefined) throw new Error(`${record.id} is missing right after it was written`);
	return { created: result.created === 1, info };
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
			audit: { ...actor.audit, action: "model.delete", repo: { type: MODEL, id: deleted } },
			change: { type: "repo.deleted", repo: { type: MODEL, id: deleted } },
		};
	});
}
