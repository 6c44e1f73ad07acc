import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { openS3BlobStore, type S3BlobStoreOptions } from "../../src/storage/s3/store.js";
import type { BlobStore } from "../../src/storage/types.js";

/** s3rver's built-in account (its documented defaults). */
export const S3_ACCESS_KEY = "S3RVER";
export const S3_SECRET = "S3RVER";
export const S3_BUCKET = "modelhub-test";

export interface LocalS3 {
	/** http://127.0.0.1:<port> */
	endpoint: URL;
	port: number;
	options(overrides?: Partial<S3BlobStoreOptions>): S3BlobStoreOptions;
	open(overrides?: Partial<S3BlobStoreOptions>): BlobStore;
	stop(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, on 127.0.0.1, a random port, files in a temporary folder) that
 * checks Signature V4 on every request, with one bucket.
 */
export async function startLocalS3(): Promise<LocalS3> {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-s3rver-"));
	const server = new S3rver({
		address: "127.0.0.1",
		port: 0,
		silent: true,
		directory: join(dir, "data"),
		configureBuckets: [{ name: S3_BUCKET, configs: [] }],
	});
	const address = (await server.run()) as AddressInfo;
	const endpoint = new URL(`http://127.0.0.1:${address.port}`);
	const options = (overrides: Partial<S3BlobStoreOptions> = {}): S3BlobStoreOptions => ({
		endpoint,
		bucket: S3_BUCKET,
		region: "us-east-1",
		accessKeyId: S3_ACCESS_KEY,
		secretAccessKey: S3_SECRET,
		pathStyle: true,
		prefix: "",
		timeoutMs: 10_000,
		partSize: 5 * 1024 * 1024,
		spoolDir: join(dir, "spool"),
		presignedDownloads: undefined,
		...overrides,
	});
	return {
		endpoint,
		port: address.port,
		options,
		open: (overrides) => openS3BlobStore(options(overrides)),
		async stop() {
			await server.close();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
