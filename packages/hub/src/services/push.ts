import type { RepoRef } from "../accounts/viewer.js";
import { HubError } from "../errors.js";
import { GitCommandError, type Quarantine } from "../git/receive-objects.js";
import { ZERO_ID, type PushCommand, type RefOutcome } from "../git/receive.js";
import { pullRequestNumber } from "../discussions/store.js";
import { lfsPointer, parseCommitObject } from "../repos/git.js";
import { writablePathProblem } from "../repos/paths.js";
import type { CommitOperation } from "../uploads/operations.js";
import type { Actor } from "./actor.js";
import type { PushedCommit } from "./commits.js";
import type { ServiceContext } from "./context.js";
import { createBranch, createTag, deleteBranchOrTag } from "./repos.js";
import { startCommit, type CommitUpload } from "./uploads.js";

/**
 * git push, after git has checked the pack (git/receive-objects.ts): each ref update becomes hub
 * commits through the one commit path (services/commits.ts commitChanges): the same rights, path rules,
 * size limits, quota, LFS objects that must be the repository's own, and the branch's head that must
 * still be the commit the client built on (else "fetch first"). Each pushed commit keeps its git id.
 */

export interface PushSettings {
	/** Most commits one ref update may bring (MODELHUB_GIT_MAX_PUSH_COMMITS). */
	maxCommits: number;
}

/** A refusal of one ref update, its reason shown by git as `! [remote rejected] <ref> (<reason>)`. */
class RefRefused extends Error {}

/** Largest blob read as a possible LFS pointer (a pointer of git-lfs spec v1 is about 130 bytes). */
const POINTER_MAX = 200;
/**
 * Files up to this size are read whole from git (many small files stay one read each); larger ones
 * stream to storage, so a push's memory does not grow with its files' sizes.
 */
const WHOLE_FILE_MAX = 1024 * 1024;

const POINTER =
	/^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:([0-9a-f]{64})\nsize (\d{1,16})\n$/;

/** The LFS object a blob points to, when it is exactly the pointer the hub would write for it. */
function lfsObjectOf(bytes: Buffer): { sha256: string; size: number } | undefined {
	if (bytes.byteLength > POINTER_MAX) return undefined;
	const match = POINTER.exec(bytes.toString("latin1"));
	if (!match) return undefined;
	const object = { sha256: match[1] as string, size: Number(match[2]) };
	// Only the canonical text: the hub writes its pointers back byte for byte (repos/git.ts lfsPointer).
	return lfsPointer(object.sha256, object.size) === bytes.toString("latin1") ? object : undefined;
}

interface Change {
	status: string;
	mode: string;
	blob: string;
	path: string;
}

/**
 * `git diff-tree --stdin --always -r -z --no-renames` output for several commits: each commit's id
 * (NUL-terminated), then its changes as `:<old mode> <new mode> <old id> <new id> <status>\0<path>\0`.
 * Read in order, so a path that looks like an id is still read as the path after its `:` field.
 */
function parseDiffs(output: Buffer): Map<string, Change[]> {
	const fields = output.toString("latin1").split("\0");
	const byCommit = new Map<string, Change[]>();
	let current: Change[] | undefined;
	const utf8 = new TextDecoder("utf-8", { fatal: true });
	for (let index = 0; index < fields.length; index++) {
		const field = fields[index] as string;
		if (field === "") continue;
		if (!field.startsWith(":")) {
			current = [];
			byCommit.set(field, current);
			continue;
		}
		const rawPath = fields[++index];
		if (current === undefined || rawPath === undefined) throw new Error("unexpected git diff-tree output");
		const meta = field.slice(1).split(" ");
		let path: string;
		try {
			path = utf8.decode(Buffer.from(rawPath, "latin1"));
		} catch {
			throw new RefRefused("a path is not UTF-8");
		}
		current.push({ mode: meta[1] as string, blob: meta[3] as string, status: meta[4] as string, path });
	}
	return byCommit;
}

/** The new commits of a fast-forward from `oldId` to `newId`, oldest first; refused when not one. */
async function newCommits(
	quarantine: Quarantine,
	command: PushCommand,
	settings: PushSettings,
): Promise<string[]> {
	const listed = (
		await quarantine.output([
			"rev-list",
			"--parents",
			`--max-count=${settings.maxCommits + 1}`,
			command.newId,
			`^${command.oldId}`,
			"--",
		])
	)
		.toString("latin1")
		.split("\n")
		.filter(Boolean)
		.reverse();
	if (listed.length > settings.maxCommits) {
		throw new RefRefused(
			`a push may bring at most ${settings.maxCommits} commits per branch (MODELHUB_GIT_MAX_PUSH_COMMITS): push in parts`,
		);
	}
	let previous = command.oldId;
	const ids: string[] = [];
	for (const line of listed) {
		const [id, ...parents] = line.split(" ");
		if (parents.length > 1)
			throw new RefRefused(`commit ${id?.slice(0, 12)} is a merge: push a linear history (rebase)`);
		if (parents[0] !== previous) {
			throw new RefRefused(
				"non-fast-forward: the branch has commits the push does not build on; fetch, rebase and push again",
			);
		}
		ids.push(id as string);
		previous = id as string;
	}
	if (previous !== command.newId) {
		throw new RefRefused(
			"non-fast-forward: the branch has commits the push does not build on; fetch, rebase and push again",
		);
	}
	return ids;
}

/**
 * What a ref names: a branch or a tag (its short name), a pull request's ref (`refs/pr/N`, named in
 * full as the hub's commits name it), or a refusal for anything else.
 */
function refTarget(ref: string): { kind: "branch" | "tag" | "pr"; name: string } {
	if (ref.startsWith("refs/heads/")) return { kind: "branch", name: ref.slice("refs/heads/".length) };
	if (ref.startsWith("refs/tags/")) return { kind: "tag", name: ref.slice("refs/tags/".length) };
	if (pullRequestNumber(ref) !== undefined) return { kind: "pr", name: ref };
	throw new RefRefused(
		"only branches (refs/heads/…), tags (refs/tags/…) and pull requests' refs (refs/pr/N) can be pushed",
	);
}

/**
 * Applies one ref update through the hub's services: a deletion (deleteBranchOrTag), a new tag at a
 * commit the hub holds (createTag; annotated tags are refused, the hub keeps lightweight ones), a new
 * branch (createBranch at the commit the pushed ones build on, then its commits), or new commits on a
 * branch.
 */
async function pushRef(
	context: ServiceContext,
	actor: Actor,
	repo: RepoRef,
	quarantine: Quarantine,
	command: PushCommand,
	settings: PushSettings,
): Promise<void> {
	const { kind, name } = refTarget(command.ref);
	if (kind === "pr") {
		// Commits go to an open pull request's ref as API commits with revision=refs/pr/N do (its
		// author or a writer); the ref itself belongs to the pull request.
		if (command.newId === ZERO_ID)
			throw new RefRefused(`${name} belongs to its pull request: close the pull request instead`);
		if (command.oldId === ZERO_ID) {
			throw new RefRefused(
				`${name} is not a pull request of this repository: open one first (on its web page, or huggingface_hub's create_pr=True), then push to its refs/pr/N`,
			);
		}
		await pushCommits(context, actor, repo, quarantine, command, name, settings);
		return;
	}
	if (command.newId === ZERO_ID) {
		// Only if it is still where the client saw it (git's old id): a stale deletion is refused.
		await deleteBranchOrTag(context, actor, repo, kind, name, command.oldId);
		return;
	}
	if (kind === "tag") {
		if (command.oldId !== ZERO_ID) throw new RefRefused("tags cannot be moved: delete it first");
		const type = (await quarantine.output(["cat-file", "-t", command.newId])).toString("latin1").trim();
		if (type !== "commit") {
			throw new RefRefused(
				"annotated tags are not kept: push a lightweight tag (git tag <name>, without -a or -m)",
			);
		}
		await createTag(context, actor, repo, name, command.newId, undefined);
		return;
	}
	if (command.oldId === ZERO_ID) {
		await pushNewBranch(context, actor, repo, quarantine, command, name, settings);
		return;
	}
	await pushCommits(context, actor, repo, quarantine, command, name, settings);
}

/**
 * A new branch: created at the hub's commit the pushed commits start from (the tip itself when the
 * hub has it), then the commits go on it; when they are refused, the branch is removed again.
 */
async function pushNewBranch(
	context: ServiceContext,
	actor: Actor,
	repo: RepoRef,
	quarantine: Quarantine,
	command: PushCommand,
	branch: string,
	settings: PushSettings,
): Promise<void> {
	// The commits no ref of the hub reaches (the cache's refs are the hub's, synced for this push).
	const oldest = (
		await quarantine.output(["rev-list", "--parents", "--reverse", command.newId, "--not", "--all", "--"])
	)
		.toString("latin1")
		.split("\n")
		.find(Boolean);
	if (oldest === undefined) {
		await createBranch(context, actor, repo, branch, command.newId);
		return;
	}
	const [, base, ...more] = oldest.split(" ");
	if (base === undefined || more.length > 0) {
		throw new RefRefused("a new branch must start from a commit of this repository (fetch it first)");
	}
	await createBranch(context, actor, repo, branch, base);
	try {
		await pushCommits(context, actor, repo, quarantine, { ...command, oldId: base }, branch, settings);
	} catch (error) {
		// Only the branch made here: not if someone has moved it since.
		await deleteBranchOrTag(context, actor, repo, "branch", branch, base).catch(() => undefined);
		throw error;
	}
}

/** New commits on a branch or a pull request's ref: their files stored, then all committed in one transaction. */
async function pushCommits(
	context: ServiceContext,
	actor: Actor,
	repo: RepoRef,
	quarantine: Quarantine,
	command: PushCommand,
	branch: string,
	settings: PushSettings,
): Promise<void> {
	// Rights and the branch are checked before anything is read (a read token stops here).
	const upload = await startCommit(context, actor, repo, branch);
	try {
		await commitPush(context, upload, quarantine, command, settings);
	} catch (error) {
		await upload.abandon();
		throw error;
	}
}

async function commitPush(
	context: ServiceContext,
	upload: CommitUpload,
	quarantine: Quarantine,
	command: PushCommand,
	settings: PushSettings,
): Promise<void> {
	const ids = await newCommits(quarantine, command, settings);
	if (ids.length === 0) return;
	const commits: Array<{ bytes: Buffer; changes: Change[] }> = [];
	for await (const object of quarantine.objects(ids)) {
		if (object.type !== "commit") throw new RefRefused(`${object.id} is not a commit`);
		// Without a bound, objects() answers every object whole.
		commits.push({ bytes: object.bytes as Buffer, changes: [] });
	}
	// One git process for every commit's changes (a line `<commit> <parent>` each): a spawn from the hub
	// costs tens of milliseconds of its main thread (fork of a large process), one per commit made a
	// 200-commit push spend most of its CPU there. `--always` lists a commit that changes nothing too.
	const pairs = ids.map((id, index) => `${id} ${index === 0 ? command.oldId : ids[index - 1]}\n`).join("");
	const diffs = parseDiffs(
		await quarantine.output(["diff-tree", "--stdin", "--always", "-r", "-z", "--no-renames"], pairs),
	);
	for (const [index, id] of ids.entries()) {
		const changes = diffs.get(id);
		if (changes === undefined) throw new Error(`git diff-tree did not list commit ${id}`);
		(commits[index] as { changes: Change[] }).changes = changes;
	}
	// Every path and mode is checked before a byte is stored.
	const blobs = new Map<string, string>();
	for (const change of commits.flatMap((commit) => commit.changes)) {
		if (change.status === "D") continue;
		const problem = writablePathProblem(change.path);
		if (problem)
			throw new RefRefused(`invalid path ${JSON.stringify(change.path.slice(0, 200))}: ${problem}`);
		if (change.mode !== "100644") {
			const what =
				change.mode === "100755"
					? "an executable file"
					: change.mode === "120000"
						? "a symbolic link"
						: change.mode === "160000"
							? "a submodule"
							: `mode ${change.mode}`;
			throw new RefRefused(`${change.path} is ${what}: the hub keeps regular files (mode 100644) only`);
		}
		if (!blobs.has(change.blob)) blobs.set(change.blob, change.path);
	}
	const sizes = new Map<string, number>();
	const checked = (
		await quarantine.output(["cat-file", "--batch-check"], `${[...blobs.keys()].join("\n")}\n`)
	)
		.toString("latin1")
		.split("\n")
		.filter(Boolean);
	for (const line of checked) {
		const [id, type, size] = line.split(" ");
		if (type !== "blob") throw new RefRefused(`object ${id} is not a file`);
		sizes.set(id as string, Number(size));
	}
	const maxRegular = context.settings.uploads.maxRegularFileBytes;
	for (const [blob, path] of blobs) {
		const size = sizes.get(blob) ?? 0;
		if (size > maxRegular && size > POINTER_MAX) {
			throw new RefRefused(
				`${path} is ${size} bytes, over the ${maxRegular}-byte limit of files kept in git (MODELHUB_MAX_REGULAR_FILE_BYTES): track it with git-lfs (git lfs track)`,
			);
		}
	}
	// Each file's bytes once: an LFS pointer names an object uploaded before the push (the LFS batch
	// API), anything else is stored as a regular file (its git id checked against git's).
	const operationOf = new Map<string, (path: string) => CommitOperation>();
	for await (const object of quarantine.objects([...blobs.keys()], WHOLE_FILE_MAX)) {
		const lfs = object.bytes && lfsObjectOf(object.bytes);
		if (lfs) {
			operationOf.set(object.id, (path) => ({ kind: "lfsFile", path, sha256: lfs.sha256, size: lfs.size }));
			continue;
		}
		const stored = await upload.storeFile(
			blobs.get(object.id) as string,
			object.bytes ?? object.body,
			true,
			object.size,
		);
		if (stored.gitOid !== object.id)
			throw new HubError("Internal", `file ${object.id} was stored with another git id`);
		operationOf.set(object.id, (path) => ({ ...stored, path, lfs: false }));
	}
	const pushed: PushedCommit[] = commits.map((commit, index) => {
		const parsed = parseCommitObject(commit.bytes);
		if (typeof parsed === "string") throw new RefRefused(`commit ${ids[index]?.slice(0, 12)}: ${parsed}`);
		return {
			bytes: commit.bytes,
			parsed,
			operations: commit.changes.map((change): CommitOperation =>
				change.status === "D"
					? { kind: "deletedFile", path: change.path }
					: (operationOf.get(change.blob) as (path: string) => CommitOperation)(change.path),
			),
		};
	});
	const last = (pushed[pushed.length - 1] as PushedCommit).parsed;
	await upload.commit(
		{ summary: last.title || "(no message)", description: last.message, parentCommit: command.oldId },
		[],
		pushed,
	);
}

/**
 * Applies a push's ref updates in order; each succeeds or is refused on its own (git reports each),
 * with the reason the hub gives.
 */
export async function applyPush(
	context: ServiceContext,
	actor: Actor,
	repo: RepoRef,
	quarantine: Quarantine,
	commands: readonly PushCommand[],
	settings: PushSettings,
): Promise<RefOutcome[]> {
	const outcomes: RefOutcome[] = [];
	for (const command of commands) {
		try {
			await pushRef(context, actor, repo, quarantine, command, settings);
			outcomes.push({ ref: command.ref, ok: true });
		} catch (error) {
			// The hub's refusals (rights, checks, quota, a moved branch) and git's (a missing object) are
			// the client's to read; anything else is the hub's fault and answered as such.
			if (error instanceof RefRefused || error instanceof HubError || error instanceof GitCommandError) {
				outcomes.push({ ref: command.ref, ok: false, reason: error.message });
			} else throw error;
		}
	}
	return outcomes;
}
