import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { DigestTracker } from "../digest.js";
import {
	BlobNotFoundError,
	isSha256,
	type BlobStore,
	type ByteRange,
	type PutOptions,
	type StoredBlob,
} from "../types.js";
import { discard, presignedGetUrl, send, xmlOf, xmlValue, type S3Config } from "./client.js";

export interface S3BlobStoreOptions extends S3Config {
	/** Size of one multipart upload part (S3 requires at least 5 MiB for every part but the last). */
	partSize: number;
	/** A local folder for spooling large uploads whose digest is not known in advance. */
	spoolDir: string;
	/** When set, downloads of large files are redirected to presigned URLs at this endpoint. */
	presignedDownloads: URL | undefined;
}

export const MIN_PART_SIZE = 5 * 1024 * 1024;

function keyOf(sha256: string): string {
	if (!isSha256(sha256)) throw new BlobNotFoundError(sha256);
	return `blobs/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
}

/** Reads `source` into buffers of `partSize` bytes (the last one shorter), one at a time. */
async function* parts(source: AsyncIterable<Uint8Array>, partSize: number): AsyncIterable<Buffer> {
	let pending: Uint8Array[] = [];
	let pendingSize = 0;
	let yielded = false;
	for await (const chunk of source) {
		let offset = 0;
		while (offset < chunk.byteLength) {
			const take = Math.min(partSize - pendingSize, chunk.byteLength - offset);
			pending.push(chunk.subarray(offset, offset + take));
			pendingSize += take;
			offset += take;
			if (pendingSize === partSize) {
				yield Buffer.concat(pending, pendingSize);
				yielded = true;
				pending = [];
				pendingSize = 0;
			}
		}
	}
	// The last, shorter part; an empty source is one empty part.
	if (pendingSize > 0 || !yielded) yield Buffer.concat(pending, pendingSize);
}

/**
 * Blobs as objects `<prefix>blobs/<2 hex>/<2 hex>/<sha256>` in an S3-compatible bucket, over plain HTTP
 * with Signature V4 (no SDK). Small blobs are one PUT; larger ones a multipart upload, completed only
 * after the digest is checked (parts are invisible until then). When the digest is not known in advance
 * the bytes are first spooled to a local file, since the object key is the digest.
 */
export function openS3BlobStore(options: S3BlobStoreOptions): BlobStore {
	const config = options;
	// A folder of this process's own, so that hubs sharing a data folder never clean up each other's spools.
	const spoolDir = join(options.spoolDir, randomUUID());

	async function exists(key: string): Promise<boolean> {
		try {
			discard(await send(config, { method: "HEAD", key }, [200], key));
			return true;
		} catch (error) {
			if (error instanceof BlobNotFoundError) return false;
			throw error;
		}
	}

	async function multipart(
		key: string,
		partsOf: AsyncIterable<Buffer>,
		beforeComplete: () => void,
	): Promise<void> {
		const created = await xmlOf(await send(config, { method: "POST", key, query: { uploads: "" } }, [200]));
		const uploadId = xmlValue(created, "UploadId");
		if (!uploadId) throw new Error("S3 did not return an UploadId for the multipart upload");
		const etags: string[] = [];
		try {
			for await (const part of partsOf) {
				const response = await send(
					config,
					{ method: "PUT", key, query: { partNumber: String(etags.length + 1), uploadId }, body: part },
					[200],
				);
				discard(response);
				const etag = response.headers.etag;
				if (typeof etag !== "string") throw new Error("S3 did not return an ETag for an uploaded part");
				etags.push(etag);
			}
			beforeComplete();
			const body = Buffer.from(
				`<CompleteMultipartUpload>${etags
					.map((etag, index) => `<Part><PartNumber>${index + 1}</PartNumber><ETag>${etag}</ETag></Part>`)
					.join("")}</CompleteMultipartUpload>`,
				"utf8",
			);
			await xmlOf(
				await send(
					config,
					{ method: "POST", key, query: { uploadId }, body, headers: { "content-type": "application/xml" } },
					[200],
				),
			);
		} catch (error) {
			await send(config, { method: "DELETE", key, query: { uploadId } }, [204, 200, 404])
				.then(discard)
				.catch(() => {});
			throw error;
		}
	}

	async function putSmall(body: Buffer, digest: { sha256: string }): Promise<boolean> {
		const key = keyOf(digest.sha256);
		if (await exists(key)) return false;
		discard(await send(config, { method: "PUT", key, body }, [200]));
		return true;
	}

	return {
		kind: "s3",
		async put(source: AsyncIterable<Uint8Array>, putOptions: PutOptions = {}): Promise<StoredBlob> {
			const tracker = new DigestTracker(putOptions);
			// Counted chunk by chunk as they arrive: an oversized stream is refused within one chunk.
			const counted = (async function* () {
				for await (const chunk of source) {
					tracker.update(chunk);
					yield chunk;
				}
			})();
			const iterator = parts(counted, options.partSize)[Symbol.asyncIterator]();
			const first = await iterator.next();
			const firstPart = first.done ? Buffer.alloc(0) : first.value;
			const second = await iterator.next();
			if (second.done) {
				const digest = tracker.finish();
				return { ...digest, created: await putSmall(firstPart, digest) };
			}

			// The rest of the stream, part by part.
			async function* remaining(): AsyncIterable<Buffer> {
				let next = second;
				while (!next.done) {
					yield next.value;
					next = await iterator.next();
				}
			}

			const expected = putOptions.expectedSha256;
			if (expected !== undefined && isSha256(expected)) {
				const key = keyOf(expected);
				if (await exists(key)) {
					for await (const part of remaining()) void part;
					return { ...tracker.finish(), created: false };
				}
				let digest: ReturnType<DigestTracker["finish"]> | undefined;
				async function* all(): AsyncIterable<Buffer> {
					yield firstPart;
					yield* remaining();
				}
				await multipart(key, all(), () => {
					digest = tracker.finish();
				});
				return { ...(digest as NonNullable<typeof digest>), created: true };
			}

			// Digest unknown: spool to a local file, then upload it under its digest.
			await mkdir(spoolDir, { recursive: true, mode: 0o700 });
			const spool = join(spoolDir, randomUUID());
			const file = await open(spool, "wx", 0o600);
			try {
				await file.write(firstPart);
				for await (const part of remaining()) await file.write(part);
				await file.close();
				const digest = tracker.finish();
				const key = keyOf(digest.sha256);
				if (await exists(key)) return { ...digest, created: false };
				await multipart(key, parts(createReadStream(spool), options.partSize), () => {});
				return { ...digest, created: true };
			} finally {
				await file.close().catch(() => {});
				await unlink(spool).catch(() => {});
			}
		},
		async stat(sha256: string) {
			try {
				const response = await send(config, { method: "HEAD", key: keyOf(sha256) }, [200], sha256);
				discard(response);
				return { size: Number(response.headers["content-length"] ?? 0) };
			} catch (error) {
				if (error instanceof BlobNotFoundError) return undefined;
				throw error;
			}
		},
		async read(sha256: string, range?: ByteRange): Promise<Readable> {
			const headers: Record<string, string> = {};
			if (range) {
				if (range.end <= range.start) return Readable.from([]);
				headers.range = `bytes=${range.start}-${range.end - 1}`;
			}
			return send(config, { method: "GET", key: keyOf(sha256), headers }, [200, 206], sha256);
		},
		downloadUrl(sha256: string, downloadOptions: { filename: string; expiresInSeconds: number }) {
			if (!options.presignedDownloads) return undefined;
			const name = downloadOptions.filename.replace(/["\\\r\n]/g, "_");
			return presignedGetUrl(config, keyOf(sha256), {
				endpoint: options.presignedDownloads,
				expiresInSeconds: downloadOptions.expiresInSeconds,
				contentDisposition: `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(downloadOptions.filename)}`,
			});
		},
		async delete(sha256: string) {
			discard(await send(config, { method: "DELETE", key: keyOf(sha256) }, [204, 200, 404]));
		},
		async close() {
			await rm(spoolDir, { recursive: true, force: true }).catch(() => {});
		},
	};
}
