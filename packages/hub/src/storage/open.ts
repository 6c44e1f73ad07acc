import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StorageConfig } from "../config.js";
import { openDiskBlobStore } from "./disk.js";
import type { BlobStore } from "./types.js";

/** The S3 request timeout: how long the bucket may take to start answering. */
const S3_TIMEOUT_MS = 30_000;

/**
 * Opens the configured blob store. A disk store without a folder (the database is in memory) lives in
 * a temporary folder removed at close.
 */
export async function openBlobStore(config: StorageConfig): Promise<BlobStore> {
	if (config.kind === "s3") {
		// The AWS SDK takes ~0.4 s to load: only hubs that store in S3 pay it.
		const { openS3BlobStore } = await import("./s3/store.js");
		return openS3BlobStore({ ...config, timeoutMs: S3_TIMEOUT_MS });
	}
	const groupWrites = config.groupWrites;
	if (config.dir !== undefined)
		return openDiskBlobStore(config.dir, { ...(groupWrites ? { groupWrites } : {}) });
	return openDiskBlobStore(await mkdtemp(join(tmpdir(), "modelhub-files-")), {
		ephemeral: true,
		...(groupWrites ? { groupWrites } : {}),
	});
}
