import { ADMIN, RefusedError, repoRefusal, type RepoRef, type Viewer } from "../accounts/viewer.js";
import { viewerForTokenId } from "../accounts/store.js";
import { viewerForSessionId } from "../accounts/sessions.js";
import { findRepo } from "../repos/read.js";
import type { UploadMode } from "../api/uploads.js";
import { HubError, reword } from "../errors.js";
import { repoId, repoPathName, type RepoKey } from "../repo-identity.js";
import { isLfsFile } from "../repos/lfs.js";
import type { SmallBlob } from "../blobs/small.js";
import { DigestTracker } from "../storage/digest.js";
import {
	BlobDigestError,
	BlobTooLargeError,
	isSha256,
	type PutOptions,
	type StoredBlob,
} from "../storage/types.js";
import { GitIgnore, MatchBudget, MatchBudgetError } from "../uploads/gitignore.js";
import { holdRepo, recordUploadObject, repoObjects, type UploadRight } from "../uploads/objects.js";
import type { CommitHeader, CommitOperation } from "../uploads/operations.js";
import { pullRequestNumber } from "../discussions/store.js";
import { sign, verify, verifyText } from "../uploads/signing.js";
import { smallOrStream } from "../uploads/small-part.js";
import { uploadMode } from "../uploads/upload-mode.js";
import type { Actor } from "./actor.js";
import { blobKept, keepStored, requireBlobs, storeBlob } from "./blobs.js";
import {
	checkPullRequestUploads,
	checkQuota,
	PullRequestUploadCapError,
	pullRequestUploadsLeft,
	QuotaExceededError,
	remainingQuota,
} from "./quota.js";
import {
	checkCommitBranch,
	commitChanges,
	requireCommitRight,
	type CommitResult,
	type PushedCommit,
} from "./commits.js";
import { checkPullRequestCommit, participantRefusal, requirePullRequestOpener } from "./discussions.js";
import { entriesAt, fileAt, fileBytes, fileEtag, readableRevision } from "./contents.js";
import type { ServiceContext } from "./context.js";
import { hasFileAccess } from "./gated.js";
import { write, type WriteContext } from "./write.js";

/**
 * Uploads: the files of a commit, and the large objects sent before it (LFS here, Xet in xet.ts). The
 * routes parse the protocols and stream request bodies in; these functions check rights, store the
 * bytes (streamed: never a whole file in memory) and make them the repository's through the one write
 * path, with an audit entry and a `repo.uploaded` change.
 */

/**
 * Who an upload grant (a signed LFS upload URL, a Xet CAS token) was issued to: the account (`@admin` for
 * the admin token) and the id of the access token it was asked for with (for the admin token, the admin
 * token's fingerprint). Grants name the token's id, never the token, so the token's state and the
 * account's rights can be read again at each use.
 */
export interface GrantHolder {
	account: string;
	/** The access token's id, or the admin token's fingerprint (ServiceContext.adminGrantIssuer). */
	tokenId: string | null;
}

/** The account upload grants of the admin token are issued to. */
export const ADMIN_GRANT_ACCOUNT = "@admin";

/** What a grant issued now to the actor names as its token: the access token's id, or the admin token's fingerprint. */
export function grantTokenOf(context: Pick<ServiceContext, "adminGrantIssuer">, actor: Actor): string | null {
	if (actor.viewer.kind === "admin") return context.adminGrantIssuer ?? null;
	return actor.viewer.kind === "user" ? actor.viewer.token.id : null;
}

/** Who a grant's use is audited as: its account, and the access token's id (never the admin token's fingerprint). */
export function grantAudit(holder: GrantHolder, ip: string): Actor["audit"] {
	const tokenId = holder.account !== ADMIN_GRANT_ACCOUNT && holder.tokenId ? holder.tokenId : undefined;
	return { actor: holder.account, ...(tokenId ? { tokenId } : {}), ip };
}

/**
 * Which revision an upload is for, as the client says: a branch, a pull request about to be opened, or a
 * pull request's ref. huggingface_hub 2.x names no revision with create_pr (no `ref` in the LFS batch
 * request, `xet-write-token/None?create_pr=1`) so that "users with read permission should still be able
 * to create PRs" (its hf_api.py, preupload_lfs_files).
 */
export type UploadTarget =
	{ kind: "branch" } | { kind: "new-pull-request" } | { kind: "pull-request"; num: number };

/** The target of an upload for `revision` (none named: a new pull request's), or for a new pull request. */
export function uploadTargetOf(revision: string | undefined, createPr: boolean): UploadTarget {
	if (createPr || revision === undefined) return { kind: "new-pull-request" };
	const num = pullRequestNumber(revision);
	return num === undefined ? { kind: "branch" } : { kind: "pull-request", num };
}

/**
 * The right an upload grant is issued with: `write` for a writer; for others, `pull-request` when the
 * upload is for a new pull request (they may open one) or for refs/pr/N they may commit to (its
 * author, while it is not merged); a branch needs write access. The bytes count against the
 * repository's namespace's quota either way, and a commit using them is checked for its own target.
 */
export async function uploadRight(
	context: Pick<ServiceContext, "db">,
	actor: Actor,
	repo: RepoRef,
	target: UploadTarget,
): Promise<UploadRight> {
	const refusal = repoRefusal(actor.viewer, repo, "write");
	if (refusal === undefined) return "write";
	if (target.kind === "branch") throw new RefusedError(refusal);
	requirePullRequestOpener(actor, repo);
	if (target.kind === "pull-request") await checkPullRequestCommit(context.db, actor, repo, target.num);
	return "pull-request";
}

/**
 * Refuses a grant whose holder no longer has its right on the repository: rights are checked when the
 * grant is used, not only when it was issued, so revoking the token, removing the account from the
 * organisation or lowering its role to read ends every upload URL and Xet token handed out before (a
 * `pull-request` grant ends when its holder may no longer open pull requests: the repository made
 * private to them, the token revoked). Two indexed queries: the token by id with the account's
 * memberships, the repository.
 */
export async function requireHolderRight(
	context: Pick<ServiceContext, "db" | "adminGrantIssuer" | "settings">,
	holder: GrantHolder,
	repo: RepoKey,
	what: "upload URL" | "Xet token",
	right: UploadRight,
): Promise<void> {
	let viewer: Viewer | undefined;
	if (holder.account === ADMIN_GRANT_ACCOUNT) {
		// The admin token cannot be revoked, only changed (with a restart): a grant it was given ends then.
		const issuer = context.adminGrantIssuer;
		if (issuer === undefined || !holder.tokenId || !verifyText(holder.tokenId, issuer)) {
			throw new HubError(
				"Unauthorized",
				`the admin token this ${what} was issued with is no longer the hub's admin token: ask for a new ${what} with the current one`,
			);
		}
		viewer = ADMIN;
	} else if (holder.tokenId) {
		// Issued to an access token, or to a browser session (the web page's large-file uploads).
		const sessions = context.settings.sessions;
		viewer =
			(await viewerForTokenId(context.db, holder.tokenId)) ??
			(sessions ? await viewerForSessionId(context.db, holder.tokenId, sessions) : undefined);
		if (viewer?.kind === "user" && viewer.account.name !== holder.account) viewer = undefined;
	}
	if (viewer === undefined) {
		throw new HubError(
			"Unauthorized",
			`the access token this ${what} was issued with has been revoked: ask for a new ${what} with a valid token`,
		);
	}
	const found = await findRepo(context.db, repo.type, repo.id);
	if (!found) throw new HubError("NotFound", `${repo.id} no longer exists: this ${what} grants nothing`);
	const refusal = right === "write" ? repoRefusal(viewer, found, "write") : participantRefusal(viewer, found);
	if (refusal) {
		// Hidden: the repository is private and the holder is no member (removed, or it was made private).
		const why = refusal.hidden
			? `${repo.id} is private, and ${holder.account} may not read it (not a member of ${found.namespace})`
			: refusal.message;
		const lost = right === "write" ? "write access to" : "the right to open pull requests on";
		throw new HubError(
			"Forbidden",
			`this ${what} was issued to ${holder.account}, who no longer has ${lost} ${repo.id}: ${why}`,
		);
	}
}

/** Files of a commit kept from the collector per transaction. */
const KEEP_BATCH = 256;

/** Largest `.gitignore` that preupload reads (sent, or stored at the revision). */
export const MAX_GITIGNORE_BYTES = 1024 * 1024;

/** A file a client means to upload, as preupload describes it (`sample`: its first 512 bytes at most). */
export interface PlannedFile {
	path: string;
	size: number;
	sample: Buffer;
}

/** How each file is to be uploaded, at which commit. */
export interface PreuploadPlan {
	files: Array<{
		path: string;
		mode: UploadMode;
		/** Excluded by `.gitignore`. */
		ignored: boolean;
		/** The file already at that path: its SHA-256 for LFS files, its git blob id otherwise. */
		oid: string | undefined;
	}>;
	commitId: string;
}

/**
 * Preupload: how each file is to be uploaded (`regular` inline in the commit, `lfs` beforehand),
 * whether `.gitignore` (the one sent, else the revision's) excludes it, and the id of the file already
 * at its path, which huggingface_hub compares with its own to leave unchanged files out of the commit.
 */
export async function planPreupload(
	context: ServiceContext,
	actor: Actor,
	repo: RepoRef,
	revision: string,
	request: { files: readonly PlannedFile[]; gitIgnore: string | undefined; createPr?: boolean },
): Promise<PreuploadPlan> {
	requireCommitRight(actor, repo, revision, request.createPr === true);
	// Another's pull request is refused here, before any bytes are uploaded for it (as the commit would be).
	const prNumber = request.createPr === true ? undefined : pullRequestNumber(revision);
	if (prNumber !== undefined) await checkPullRequestCommit(context.db, actor, repo, prNumber);
	const at = await readableRevision(context, actor.viewer, repo, revision);
	let ignore: GitIgnore | undefined;
	if (request.gitIgnore !== undefined) ignore = new GitIgnore(request.gitIgnore);
	// The stored .gitignore is a file of the repository: its rules would tell its contents (`shouldIgnore`),
	// so without access to a gated repository's files there are none (huggingface_hub then keeps files in
	// the pull request that they would have left out: the one difference).
	else if (await hasFileAccess(context, actor.viewer, repo, ".gitignore")) {
		const stored = await fileAt(context, at, ".gitignore");
		if (stored && stored.size <= MAX_GITIGNORE_BYTES) {
			const chunks: Buffer[] = [];
			for await (const chunk of await fileBytes(context, stored)) chunks.push(chunk as Buffer);
			ignore = new GitIgnore(Buffer.concat(chunks).toString("utf8"));
		}
	}
	const existing = await entriesAt(
		context,
		at,
		request.files.map((file) => file.path),
	);
	const oids = new Map<string, string>();
	for (const entry of existing) {
		if (entry.type === "file") oids.set(entry.path, fileEtag(entry));
	}
	// One budget for every rule and path of the request: rules × paths cannot multiply without bound.
	const budget = new MatchBudget(context.settings.uploads.gitignoreMaxSteps);
	try {
		return {
			files: request.files.map((file) => ({
				path: file.path,
				mode: uploadMode(file, context.settings.uploads.maxRegularFileBytes),
				ignored: ignore?.ignores(file.path, budget) ?? false,
				oid: oids.get(file.path),
			})),
			commitId: at.commitId,
		};
	} catch (error) {
		if (!(error instanceof MatchBudgetError)) throw error;
		throw new HubError(
			"Invalid",
			`.gitignore is too costly to match against these paths (more than ${budget.maxSteps} steps, MODELHUB_GITIGNORE_MAX_STEPS): send fewer files per request or simpler patterns`,
		);
	}
}

/** A file of a commit, stored: its operation. */
export type StoredFileOperation = Extract<CommitOperation, { kind: "file" }>;

/** One commit being received: its files are stored as they arrive, then the commit is made. */
export interface CommitUpload {
	/**
	 * Stores one file sent with the commit. `inline` files (NDJSON's base64 content) may have at most
	 * the inline limit and stay regular git files when small text; the others (multipart parts) may have
	 * MODELHUB_MAX_FILE_BYTES and are LFS when large or binary by name.
	 */
	storeFile(
		path: string,
		bytes: Uint8Array | AsyncIterable<Uint8Array>,
		inline: boolean,
		/** The size a stream must have, when known (a pushed file's): its git id is hashed as it passes. */
		size?: number,
	): Promise<StoredFileOperation>;
	/** Makes the commit from the operations (see commitChanges), or writes the commits a git push sent. */
	commit(
		header: CommitHeader,
		operations: readonly CommitOperation[],
		pushed?: readonly PushedCommit[],
	): Promise<CommitResult>;
	/** Removes the bytes of files stored but not yet made durable (the request failed before its commit). */
	abandon(): Promise<void>;
}

/**
 * Starts a commit to `branch`: the actor must hold write on the repository (or, for a new pull request
 * on `branch` or a commit to `refs/pr/N`, take part in its discussions), and `branch` must be one of its
 * branches or pull request refs (a tag or a commit id is refused). Checked before the caller reads a
 * byte of the body.
 */
export async function startCommit(
	context: ServiceContext,
	actor: Actor,
	repo: RepoRef,
	branch: string,
	createPr = false,
): Promise<CommitUpload> {
	requireCommitRight(actor, repo, branch, createPr);
	await checkCommitBranch(context, repo, branch);
	const { maxFileBytes, uploads } = context.settings;
	// The namespace's quota, read once per commit: each file stored is taken from what is left.
	const quota = await remainingQuota(context, repo.namespace);
	let quotaLeft = quota?.left ?? Number.POSITIVE_INFINITY;
	// Someone who may only open pull requests: the files they send count toward their upload cap, read
	// here so a file past it is refused as it arrives, and checked for good in the commit's transaction.
	const proposer = repoRefusal(actor.viewer, repo, "write") !== undefined;
	const cap = proposer ? await pullRequestUploadsLeft(context, repo, actor.audit.actor) : undefined;
	let capLeft = cap?.left ?? Number.POSITIVE_INFINITY;
	const pending: StoredBlob[] = [];
	/** The pending blobs small enough to go into the database with their rows (src/blobs/small.ts). */
	const pendingSmall: SmallBlob[] = [];
	// The files are flushed to disk together, a batch at a time, not one by one (storage/disk.ts).
	const group = context.storage.group();
	/**
	 * Makes the batch stored so far visible (its bytes durable), then keeps it from the collector; the
	 * folders that gained names are flushed once each by the last batch, the commit's (`final`).
	 */
	let stagedSince: number | undefined;
	const settle = async (final: boolean): Promise<void> => {
		stagedSince = undefined;
		await group.publish({ final });
		await keepStored(context, pending.splice(0), pendingSmall.splice(0));
	};
	return {
		async storeFile(path, source, inline, size) {
			const sizeLimit = inline ? uploads.maxRegularFileBytes : maxFileBytes;
			// A streamed part small enough for the database is read whole and joins the batch, as an inline
			// file does: a multipart commit of many small files wrote a file each (issue 21).
			const bytes =
				source instanceof Uint8Array || uploads.smallBlobMaxBytes === 0
					? source
					: await smallOrStream(source, uploads.smallBlobMaxBytes);
			if (quota && bytes instanceof Uint8Array && bytes.byteLength > quotaLeft) {
				throw new QuotaExceededError(quota, quota.limit - quotaLeft, bytes.byteLength);
			}
			if (cap && bytes instanceof Uint8Array && bytes.byteLength > capLeft) {
				const used = cap.limit - capLeft;
				throw new PullRequestUploadCapError(actor.audit.actor, repo.id, used, cap.limit, bytes.byteLength);
			}
			// A streamed part is refused as soon as it passes what the quota or the cap leaves (nothing is kept).
			const maxBytes = Math.min(sizeLimit, quotaLeft, capLeft);
			const small = bytes instanceof Uint8Array && bytes.byteLength <= uploads.smallBlobMaxBytes;
			const stored = await (
				small
					? digestSmall(bytes, { maxBytes })
					: group.put(bytes, {
							maxBytes,
							...(size !== undefined && !(bytes instanceof Uint8Array) ? { expectedSize: size } : {}),
						})
			).catch(
				reword(BlobTooLargeError, (error) =>
					cap && error.limit === capLeft && capLeft < Math.min(sizeLimit, quotaLeft)
						? new PullRequestUploadCapError(
								actor.audit.actor,
								repo.id,
								cap.limit - capLeft,
								cap.limit,
								undefined,
							)
						: quota && error.limit < sizeLimit
							? new QuotaExceededError(quota, quota.limit - quotaLeft, undefined)
							: new HubError(
									"TooLarge",
									`a file is larger than the limit of ${error.limit} bytes (inline files: MODELHUB_MAX_REGULAR_FILE_BYTES; others: MODELHUB_MAX_FILE_BYTES)`,
								),
				),
			);
			quotaLeft -= stored.size;
			capLeft -= stored.size;
			if (small) pendingSmall.push({ sha256: stored.sha256, bytes });
			// Made visible and kept from the collector in batches (one transaction per batch, not per
			// file), and all durable before the commit: see services/gc.ts. A streamed (large) part is
			// published at once, and a batch waits at most MODELHUB_COMMIT_STAGED_MAX_MS: the temporaries sweep
			// (MODELHUB_GC_TEMP_MAX_AGE_SECONDS) takes files left unwritten for long for a crash's.
			pending.push(stored);
			stagedSince ??= Date.now();
			if (
				!(bytes instanceof Uint8Array) ||
				pending.length >= KEEP_BATCH ||
				Date.now() - stagedSince >= uploads.stagedMaxMs
			)
				await settle(false);
			// Small text stays a regular git file; large or binary-by-name files are kept as LFS.
			const lfs = stored.gitOid === undefined || (!inline && isLfsFile(path, stored.size));
			return {
				kind: "file",
				path,
				sha256: stored.sha256,
				size: stored.size,
				gitOid: stored.gitOid,
				lfs,
				storedIn: small ? "database" : "files",
			};
		},
		async commit(header, operations, pushed) {
			await settle(true);
			return commitChanges(context, actor, repo, {
				branch,
				createPr,
				header,
				operations,
				...(pushed ? { pushed } : {}),
				...(cap ? { pullRequestUploadCap: cap.limit } : {}),
			});
		},
		abandon: () => group.discard(),
	};
}

/**
 * A small file's digests, its bytes kept by the caller for the database (src/blobs/small.ts): as a
 * put would check them (size limit), nothing written yet.
 */
async function digestSmall(bytes: Uint8Array, options: PutOptions): Promise<StoredBlob> {
	const tracker = new DigestTracker(options);
	tracker.update(bytes);
	return { ...tracker.finish(), created: true };
}

/**
 * Makes a verified upload (an LFS object, or a file rebuilt from Xet) the repository's, through the one
 * write path: its audit entry, and a `repo.uploaded` change (which readers do not see until a commit
 * uses the object). The rights were checked when the upload was granted (a signed LFS URL, a Xet
 * token) and again when the grant was used (requireHolderRight), so only who it is by comes with it. False when the repository was deleted while the bytes
 * were arriving (nothing is recorded then).
 */
export async function registerUpload(
	context: WriteContext,
	by: Actor["audit"],
	repo: RepoKey,
	blob: Pick<StoredBlob, "sha256" | "size" | "gitOid">,
	upload: { action: "lfs.upload" | "xet.upload"; details: Record<string, unknown> },
): Promise<boolean> {
	const key: RepoKey = { type: repo.type, id: repo.id };
	return write(context, async (tx) => {
		if (!(await holdRepo(tx, key))) return { value: false };
		await requireBlobs(tx, [blob.sha256]);
		await recordUploadObject(tx, key, blob, by.actor);
		return {
			value: true,
			audit: { ...by, ...upload, repo: key },
			change: {
				type: "repo.uploaded",
				repo: key,
				sha256: blob.sha256,
				size: blob.size,
			},
		};
	});
}

// git-LFS: the batch API plans uploads to signed URLs; the upload itself carries no Authorization.

/** How long an upload URL handed out by the batch API stays valid. */
export const UPLOAD_URL_TTL_SECONDS = 3600;

/** What a signed upload URL permits: one object of one size to one repository, until `expires`. */
export interface UploadGrant {
	repo: RepoKey;
	oid: string;
	size: number;
	/** Seconds since the epoch. */
	expires: number;
	/** Who asked for the URL (audited as the uploader), and with which token (its id). */
	actor: string;
	tokenId: string;
	/** A writer's upload, or one for a pull request (see uploadRight). */
	right: UploadRight;
}

function grantFields(grant: UploadGrant): string[] {
	return [
		"lfs-upload",
		// The type's page prefix and the id (`ns/name` for a model, as the URL has it).
		repoPathName(grant.repo),
		grant.oid,
		String(grant.size),
		String(grant.expires),
		grant.actor,
		grant.tokenId,
		grant.right,
	];
}

/** An object the batch API is asked about, as sent. */
export interface LfsObjectRequest {
	oid: unknown;
	size: unknown;
}

/** What the batch API answers for one object. */
export type LfsObjectPlan =
	/** Not a SHA-256 and a whole size (`oid` cut to 64 characters, `size` 0 unless it was valid). */
	| { status: "invalid"; oid: string; size: number }
	/** More than MODELHUB_MAX_FILE_BYTES. */
	| { status: "too-large"; oid: string; size: number }
	/** The repository holds it already: nothing to upload. */
	| { status: "held"; oid: string; size: number }
	/** Past the namespace's storage quota (the message names its usage and limit). */
	| { status: "over-quota"; oid: string; size: number; message: string }
	/** To upload: the signed URL's query (size, expires, actor, token, signature). */
	| { status: "upload"; oid: string; size: number; query: Record<string, string> };

/**
 * The batch API's answer for each object (huggingface_hub sends up to 256): the upload is skipped for
 * objects the repository already holds (re-running an upload resumes it); the others get a signed
 * upload URL for exactly that object and size, valid UPLOAD_URL_TTL_SECONDS.
 */
export async function planLfsUploads(
	context: ServiceContext,
	actor: Actor,
	repo: RepoRef,
	objects: readonly LfsObjectRequest[],
	target: UploadTarget,
): Promise<LfsObjectPlan[]> {
	const right = await uploadRight(context, actor, repo, target);
	const valid = objects.flatMap(({ oid }) => (typeof oid === "string" && isSha256(oid) ? [oid] : []));
	const held = await repoObjects(context.db, repo, valid);
	const expires = Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS;
	const plans: LfsObjectPlan[] = [];
	// The declared sizes of the objects to upload are taken from what the quota leaves, in order.
	const quota = await remainingQuota(context, repo.namespace);
	let quotaLeft = quota?.left ?? Number.POSITIVE_INFINITY;
	// So are those of someone who may only open pull requests, from what their cap leaves.
	const cap =
		right === "pull-request" ? await pullRequestUploadsLeft(context, repo, actor.audit.actor) : undefined;
	let capLeft = cap?.left ?? Number.POSITIVE_INFINITY;
	for (const { oid, size } of objects) {
		const sizeOk = typeof size === "number" && Number.isSafeInteger(size) && size >= 0;
		if (typeof oid !== "string" || !isSha256(oid) || !sizeOk) {
			plans.push({ status: "invalid", oid: String(oid).slice(0, 64), size: sizeOk ? size : 0 });
			continue;
		}
		if (size > context.settings.maxFileBytes) {
			plans.push({ status: "too-large", oid, size });
			continue;
		}
		const known = held.get(oid);
		if (known && known.size === size && (await blobKept(context, { sha256: oid, size }))) {
			plans.push({ status: "held", oid, size });
			continue;
		}
		if (quota && size > quotaLeft) {
			const { message } = new QuotaExceededError(quota, quota.limit - quotaLeft, size);
			plans.push({ status: "over-quota", oid, size, message });
			continue;
		}
		if (cap && size > capLeft) {
			const { message } = new PullRequestUploadCapError(
				actor.audit.actor,
				repo.id,
				cap.limit - capLeft,
				cap.limit,
				size,
			);
			plans.push({ status: "over-quota", oid, size, message });
			continue;
		}
		quotaLeft -= size;
		capLeft -= size;
		const grant: UploadGrant = {
			repo: { type: repo.type, id: repo.id },
			oid,
			size,
			expires,
			actor: actor.audit.actor,
			tokenId: grantTokenOf(context, actor) ?? "",
			right,
		};
		const query: Record<string, string> = {
			size: String(size),
			expires: String(expires),
			actor: grant.actor,
			token: grant.tokenId,
			// Named only when not a writer's (the signature covers it either way).
			...(right === "write" ? {} : { right }),
			signature: sign(context.signingKey, grantFields(grant)),
		};
		plans.push({ status: "upload", oid, size, query });
	}
	return plans;
}

/** What an upload URL's query carries (see planLfsUploads). */
export type UploadUrlQuery = Partial<
	Record<"size" | "expires" | "actor" | "token" | "right" | "signature", string>
>;

/** An upload URL checked: its grant, or why it is refused. */
export type UploadUrlCheck = { status: "valid"; grant: UploadGrant } | { status: "invalid" | "expired" };

/** Checks an upload URL's signature and expiry (before its body is read). */
export function checkUploadUrl(
	context: ServiceContext,
	url: { repo: RepoKey; oid: string; query: UploadUrlQuery },
): UploadUrlCheck {
	const q = url.query;
	const grant: UploadGrant = {
		repo: url.repo,
		oid: url.oid,
		size: Number(q.size),
		expires: Number(q.expires),
		actor: q.actor ?? "",
		tokenId: q.token ?? "",
		right: q.right === "pull-request" ? "pull-request" : "write",
	};
	const valid =
		typeof q.signature === "string" &&
		(q.right === undefined || q.right === "pull-request") &&
		/^\d{1,16}$/.test(q.size ?? "") &&
		/^\d{1,12}$/.test(q.expires ?? "") &&
		verify(context.signingKey, grantFields(grant), q.signature);
	if (!valid) return { status: "invalid" };
	if (grant.expires < Date.now() / 1000) return { status: "expired" };
	return { status: "valid", grant };
}

/**
 * Receives the object an upload URL grants: streamed to storage, checked against its SHA-256 and
 * size (nothing is kept otherwise), then made the repository's.
 */
export async function receiveLfsObject(
	context: ServiceContext,
	grant: UploadGrant,
	bytes: AsyncIterable<Uint8Array>,
	ip: string,
): Promise<void> {
	// Checked again when the bytes come (other uploads may have been made since the batch).
	await checkQuota(context, repoId(grant.repo.type, grant.repo.id).namespace, grant.size);
	if (grant.right === "pull-request")
		await checkPullRequestUploads(context, grant.repo, grant.actor, grant.size);
	const stored = await storeBlob(context, bytes, {
		expectedSha256: grant.oid,
		expectedSize: grant.size,
		maxBytes: Math.min(grant.size, context.settings.maxFileBytes),
	})
		.catch(reword(BlobDigestError, (error) => new HubError("Invalid", `upload refused: ${error.message}`)))
		.catch(
			reword(
				BlobTooLargeError,
				() => new HubError("Invalid", `upload refused: received more than the announced ${grant.size} bytes`),
			),
		);
	// Checked again once the bytes are in (an upload may take long): a token revoked, or a right lost,
	// while they arrived leaves the object unregistered.
	await requireHolderRight(
		context,
		{ account: grant.actor, tokenId: grant.tokenId },
		grant.repo,
		"upload URL",
		grant.right,
	);
	const by = grantAudit({ account: grant.actor, tokenId: grant.tokenId }, ip);
	const held = await registerUpload(context, by, grant.repo, stored, {
		action: "lfs.upload",
		details: { oid: grant.oid, size: grant.size },
	});
	if (!held) throw new HubError("NotFound", "the repository no longer exists");
}

/** The batch API's verify action: whether the repository holds an object (of the given size). */
export type LfsVerification =
	| { status: "invalid-oid" }
	| { status: "not-held"; oid: string }
	| { status: "held"; oid: string; size: number };

export async function verifyLfsObject(
	context: ServiceContext,
	actor: Actor,
	repo: RepoRef,
	object: LfsObjectRequest,
): Promise<LfsVerification> {
	// Whoever may upload for a pull request may ask: it tells what the repository holds, as its files do.
	requirePullRequestOpener(actor, repo);
	const { oid, size } = object;
	if (typeof oid !== "string" || !isSha256(oid)) return { status: "invalid-oid" };
	const held = (await repoObjects(context.db, repo, [oid])).get(oid);
	if (!held || (typeof size === "number" && held.size !== size)) return { status: "not-held", oid };
	return { status: "held", oid, size: held.size };
}
