import type { StoredBlob } from "../storage/types.js";
import { holdRepo, recordUploadObject } from "../uploads/objects.js";
import type { Actor } from "./actor.js";
import { write, type WriteContext } from "./write.js";

/**
 * Makes a verified upload (an LFS object, or a file rebuilt from Xet) the repository's, with its audit
 * entry. The rights were checked when the upload was granted (a signed LFS URL, a Xet token), so only
 * who it is by comes with it. False when the repository was deleted while the bytes were arriving
 * (nothing is recorded then). No change event: an upload changes nothing a reader sees until a commit
 * uses it.
 */
export async function registerUpload(
	context: WriteContext,
	by: Actor["audit"],
	modelId: string,
	blob: Pick<StoredBlob, "sha256" | "size" | "gitOid">,
	upload: { action: "lfs.upload" | "xet.upload"; details: Record<string, unknown> },
): Promise<boolean> {
	return write(context, async (tx) => {
		if (!(await holdRepo(tx, modelId))) return { value: false };
		await recordUploadObject(tx, modelId, blob, by.actor);
		return { value: true, audit: { ...by, ...upload, repo: modelId } };
	});
}
