import { HubError, repoNotFound, reword } from "../errors.js";
import { BlobDigestError, BlobTooLargeError } from "../storage/types.js";
import { repoObjects } from "../uploads/objects.js";
import { planRebuild } from "../xet/plan.js";
import { reconstruct } from "../xet/reconstruct.js";
import { zeroChunks } from "../xet/zeros.js";
import { readShard } from "../xet/shard.js";
import {
	accountXorbBytes,
	accountXorbs,
	issueXetToken,
	recordedXorbCount,
	recordXorb,
	xetGrant,
	type XetGrant,
} from "../xet/store.js";
import { MAX_XORB_BYTES, XorbScanner } from "../xet/xorb.js";
import type { RepoRef } from "../accounts/viewer.js";
import type { Actor } from "./actor.js";
import { readableRevision } from "./contents.js";
import type { ServiceContext } from "./context.js";
import { grantAudit, registerUpload, requireHolderRight, uploadRight, uploadTargetOf } from "./uploads.js";
import { blobCollected, requireBlobs, storeBlob } from "./blobs.js";
import { holdAgainstCollection, touchBlobs } from "../blobs/references.js";
import { DigestTracker } from "../storage/digest.js";
import { recipeOf, recordRecipe } from "../xet/files.js";
import type { PlannedFile } from "../xet/plan.js";
import type { StoredXorb } from "../xet/store.js";
import { checkPullRequestUploads, checkQuota, requireQuotaLeft } from "./quota.js";
import { repoId, type RepoKey } from "../repo-identity.js";

function namespaceOf(repo: RepoKey): string | null {
	return repoId(repo.type, repo.id).namespace;
}
import { write } from "./write.js";

export type { XetGrant };

/**
 * The Xet CAS side of uploads (huggingface_hub 2.x with hf_xet): xorbs are stored as blobs and kept
 * per account; a shard's files are rebuilt from the uploader's own xorbs, checked against their SHA-256,
 * kept as their recipes (downloads read the xorbs: src/xet/serve.ts) and made the repository's, so
 * commits, downloads and quotas stay as for any other file.
 */

/**
 * A CAS token for uploads to the repository (valid XET_TOKEN_TTL_SECONDS): for `revision`, which must
 * exist, or for a new pull request (`createPr`). Writers get a token for any branch; others one for a new
 * pull request or refs/pr/N they may commit to (uploadRight). Its xorbs will be the actor's account's.
 */
export async function issueXetWriteToken(
	context: ServiceContext,
	actor: Actor,
	repo: RepoRef,
	revision: string,
	createPr = false,
): Promise<{ token: string; expiresAt: number }> {
	const right = await uploadRight(context, actor, repo, uploadTargetOf(revision, createPr));
	const resolved = await readableRevision(context, actor.viewer, repo, revision);
	const viewer = actor.viewer;
	return write(context, async (tx) => ({
		value: await issueXetToken(tx, {
			account: actor.audit.actor,
			repo: { type: resolved.type, id: resolved.id },
			accessTokenId: viewer.kind === "user" ? viewer.token.id : null,
			issuer: viewer.kind === "admin" ? (context.adminGrantIssuer ?? null) : null,
			right,
		}),
	}));
}

/**
 * What a live CAS token grants (its access token not revoked), or undefined. The holder's right on the
 * repository is checked again at each use (refused with 403 once lost: removed from the organisation,
 * role lowered to read for a writer's token), not only when the token was issued.
 */
export async function xetGrantOf(context: ServiceContext, token: string): Promise<XetGrant | undefined> {
	const grant = await xetGrant(context.db, token);
	if (grant) {
		await requireHolderRight(
			context,
			{ account: grant.account, tokenId: grant.accessTokenId ?? grant.issuer },
			grant.repo,
			"Xet token",
			grant.right,
		);
	}
	return grant;
}

/**
 * Stores a serialized xorb (streamed; its chunk layout read on the way) as the grant's account's.
 * False when the account had already uploaded one with this hash. Xorbs are the account's raw
 * material, not yet any repository's: the shard that rebuilds files from them is what the audit log
 * records (`xet.upload`).
 */
export async function receiveXorb(
	context: ServiceContext,
	grant: XetGrant,
	hash: string,
	bytes: AsyncIterable<Uint8Array>,
): Promise<boolean> {
	// Xorbs are raw material, not usage (they are collected after MODELHUB_GC_XORB_MAX_AGE_SECONDS), but a
	// namespace with no quota left takes none: nothing could be rebuilt from them.
	await requireQuotaLeft(context, namespaceOf(grant.repo));
	if (grant.right === "pull-request") {
		// Nor does someone who may only open pull requests once their xorbs reach their cap.
		const limit = context.settings.uploads.pullRequestMaxBytes;
		const used = await accountXorbBytes(context.db, grant.account);
		if (used >= limit) {
			throw new HubError(
				"TooLarge",
				`Pull request upload cap reached: ${grant.account}'s Xet xorbs hold ${used} bytes, of the ${limit} one account may upload where it may not write (MODELHUB_PR_UPLOAD_MAX_BYTES). Ask someone with write access to upload the files, or the hub admin to raise the cap`,
				{ body: { usedBytes: used, limitBytes: limit } },
			);
		}
	}
	const scanner = new XorbScanner();
	async function* scanned(): AsyncIterable<Uint8Array> {
		for await (const chunk of bytes) {
			scanner.update(chunk);
			yield chunk;
		}
	}
	const stored = await storeBlob(context, scanned(), { maxBytes: MAX_XORB_BYTES, gitOid: false }).catch(
		reword(
			BlobTooLargeError,
			() => new HubError("Invalid", `a serialized xorb is at most ${MAX_XORB_BYTES} bytes`),
		),
	);
	const layout = scanner.finish();
	return write(context, async (tx) => {
		await requireBlobs(tx, [stored.sha256]);
		return {
			value: await recordXorb(tx, {
				account: grant.account,
				hash,
				blobSha256: stored.sha256,
				size: stored.size,
				layout,
			}),
		};
	});
}

/**
 * Receives a shard: it is read whole (bounded by MAX_SHARD_BYTES) and checked against the account's
 * xorbs before anything is rebuilt (src/xet/plan.ts: every term's chunk range and size, each file's
 * size, the bytes the shard may make the hub rebuild). Then each file the repository does not hold yet
 * is rebuilt from the xorbs (streamed, one block in memory at a time) and checked against its SHA-256,
 * and kept as its recipe (keepRecipe; a file of more than MODELHUB_XET_MAX_RECIPE_TERMS terms, or an
 * empty one, is written as a file instead), then made the repository's (audited as `xet.upload`). The
 * number of files made the repository's.
 */
export async function receiveShard(
	context: ServiceContext,
	grant: XetGrant,
	bytes: AsyncIterable<Uint8Array>,
	ip: string,
): Promise<number> {
	const { db, storage, settings } = context;
	const files = await readShard(bytes);
	const held = await repoObjects(
		db,
		grant.repo,
		files.flatMap((file) => (file.sha256 ? [file.sha256] : [])),
	);
	const xorbs = await accountXorbs(
		db,
		grant.account,
		files.flatMap((file) => file.terms.map((term) => term.xorb)),
	);
	const zero = await zeroChunks(storage, files, xorbs);
	const plan = planRebuild(
		files,
		xorbs,
		(sha256) => held.has(sha256),
		{
			maxFileBytes: settings.maxFileBytes,
			maxExpansion: settings.uploads.xetMaxExpansion,
			expansionAllowanceBytes: settings.uploads.xetExpansionAllowanceBytes,
			maxZeroBytes: settings.uploads.xetMaxZeroBytes,
		},
		zero,
	);
	// plan.rebuiltBytes is every byte this shard makes the repository's: the figure a storage quota
	// checks, here, before the first one is rebuilt.
	let registered = 0;
	await checkQuota(context, namespaceOf(grant.repo), plan.rebuiltBytes);
	if (grant.right === "pull-request")
		await checkPullRequestUploads(context, grant.repo, grant.account, plan.rebuiltBytes);
	const mismatch = reword(
		BlobDigestError,
		(error) => new HubError("Invalid", `the rebuilt file does not match the shard: ${error.message}`),
	);
	for (const { file, size } of plan.files) {
		const asRecipe = size > 0 && file.terms.length <= settings.uploads.xetMaxRecipeTerms;
		const stored = asRecipe
			? await keepRecipe(context, xorbs, file, size, zero).catch(mismatch)
			: await storeBlob(context, reconstruct(storage, xorbs, file.terms, zero), {
					expectedSha256: file.sha256,
					expectedSize: size,
				}).catch(mismatch);
		const by = grantAudit({ account: grant.account, tokenId: grant.accessTokenId }, ip);
		const done = await registerUpload(context, by, grant.repo, stored, {
			action: "xet.upload",
			details: { sha256: stored.sha256, size: stored.size, xetHash: file.fileHash },
		});
		if (!done) throw repoNotFound();
		registered++;
	}
	return registered;
}

/**
 * Keeps a file uploaded through Xet as its recipe (src/xet/files.ts), its bytes read from the xorbs when
 * downloaded: the upload writes each byte once (its xorb) instead of twice. The file is rebuilt once
 * here, only to check the shard's claim that the account's xorbs make these bytes (their SHA-256 and
 * size); nothing of it is written. Then, holding the collection lock shared (src/gc/collect.ts), the
 * xorbs are checked to be still recorded (none dropped as expired since the shard was checked: from
 * this transaction on, the recipe keeps them) and the file's blob row is touched with its recipe.
 */
async function keepRecipe(
	context: ServiceContext,
	xorbs: ReadonlyMap<string, StoredXorb>,
	file: PlannedFile["file"],
	size: number,
	zero: ReadonlySet<string>,
): Promise<{ sha256: string; size: number; gitOid: string | undefined }> {
	const digest = new DigestTracker({ expectedSha256: file.sha256, expectedSize: size });
	// The digest copies what it keeps: one block is refilled throughout.
	for await (const block of reconstruct(context.storage, xorbs, file.terms, zero, { reuseBlocks: true }))
		digest.update(block);
	const { sha256, gitOid } = digest.finish();
	const recipe = recipeOf(file.terms, xorbs);
	const xorbSha256s = [...new Set(recipe.map((term) => term.xorbSha256))];
	await context.db.transaction(async (tx) => {
		await holdAgainstCollection(tx);
		if ((await recordedXorbCount(tx, xorbSha256s)) !== xorbSha256s.length) throw blobCollected();
		await touchBlobs(tx, [{ sha256, size, gitOid }]);
		await recordRecipe(tx, sha256, recipe);
	});
	return { sha256, size, gitOid };
}
