import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import {
	AbortMultipartUploadCommand,
	CompleteMultipartUploadCommand,
	CreateMultipartUploadCommand,
	DeleteObjectCommand,
	GetObjectCommand,
	HeadObjectCommand,
	ListMultipartUploadsCommand,
	ListObjectsV2Command,
	ListPartsCommand,
	PutObjectCommand,
	UploadPartCommand,
	type S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { DigestTracker } from "../digest.js";
import { sweepFolder } from "../disk.js";
import {
	BlobNotFoundError,
	immediateGroup,
	isSha256,
	type BlobStore,
	type ByteRange,
	type ListedBlob,
	type PutOptions,
	type StoredBlob,
} from "../types.js";
import { createS3Client, requestTimeoutFor, translateS3Error, type S3Config } from "./client.js";

export interface S3BlobStoreOptions extends S3Config {
	/** Size of one multipart upload part (S3 requires at least 5 MiB for every part but the last). */
	partSize: number;
	/** A local folder for spooling large uploads whose digest is not known in advance. */
	spoolDir: string;
	/** When set, downloads of large files are redirected to presigned URLs at this endpoint. */
	presignedDownloads: URL | undefined;
}

function blobKey(sha256: string): string {
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
 * Blobs as objects `<prefix>blobs/<2 hex>/<2 hex>/<sha256>` in an S3-compatible bucket, through the AWS
 * SDK for JavaScript v3. Small blobs are one PUT; larger ones a multipart upload of one part at a time,
 * completed only after the digest is checked (parts are invisible until then). When the digest is not
 * known in advance the bytes are first spooled to a local file, since the object key is the digest.
 */
export function openS3BlobStore(options: S3BlobStoreOptions): BlobStore {
	const client = createS3Client(options);
	// Presigned URLs name the address clients use, which may differ from the hub's.
	let presigner: S3Client | undefined;
	// A folder of this process's own, so that hubs sharing a data folder never clean up each other's spools.
	const spoolDir = join(options.spoolDir, randomUUID());
	const Bucket = options.bucket;
	const keyOf = (sha256: string) => `${options.prefix}${blobKey(sha256)}`;

	/** Sends one command; SDK failures become BlobNotFoundError (404 on `notFound`), S3Error or StorageUnavailableError. */
	async function call<Output>(
		send: (requestOptions: { requestTimeout?: number }) => Promise<Output>,
		notFound?: string,
		bodyBytes = 0,
	): Promise<Output> {
		try {
			return await send(bodyBytes > 0 ? { requestTimeout: requestTimeoutFor(options, bodyBytes) } : {});
		} catch (error) {
			throw translateS3Error(options, error, notFound);
		}
	}

	async function exists(sha256: string): Promise<boolean> {
		try {
			const Key = keyOf(sha256);
			await call((o) => client.send(new HeadObjectCommand({ Bucket, Key }), o), sha256);
			return true;
		} catch (error) {
			if (error instanceof BlobNotFoundError) return false;
			throw error;
		}
	}

	/** Uploads the blob `sha256` part by part; `beforeComplete` may still refuse it (then nothing is kept). */
	async function multipart(
		sha256: string,
		partsOf: AsyncIterable<Buffer>,
		beforeComplete: () => void,
	): Promise<void> {
		const Key = keyOf(sha256);
		const created = await call((o) => client.send(new CreateMultipartUploadCommand({ Bucket, Key }), o));
		const UploadId = created.UploadId;
		if (!UploadId) throw new Error("S3 did not return an UploadId for the multipart upload");
		const done: { ETag: string; PartNumber: number }[] = [];
		try {
			for await (const Body of partsOf) {
				const PartNumber = done.length + 1;
				const uploaded = await call(
					(o) =>
						client.send(
							new UploadPartCommand({
								Bucket,
								Key,
								UploadId,
								PartNumber,
								Body,
								ContentLength: Body.byteLength,
							}),
							o,
						),
					undefined,
					Body.byteLength,
				);
				if (!uploaded.ETag) throw new Error("S3 did not return an ETag for an uploaded part");
				done.push({ ETag: uploaded.ETag, PartNumber });
			}
			beforeComplete();
		} catch (error) {
			await abort(Key, UploadId);
			throw error;
		}
		try {
			await call((o) =>
				client.send(
					new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: done } }),
					o,
				),
			);
		} catch (error) {
			// A completion whose answer was lost may have been done, and its retry then finds no upload:
			// the object under its digest is there (only checked bytes are ever completed).
			if (await exists(sha256).catch(() => false)) return;
			await abort(Key, UploadId);
			throw error;
		}
	}

	async function abort(Key: string, UploadId: string): Promise<void> {
		await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => {});
	}

	async function putSmall(body: Buffer, digest: { sha256: string }): Promise<boolean> {
		if (await exists(digest.sha256)) return false;
		const Key = keyOf(digest.sha256);
		await call(
			(o) =>
				client.send(new PutObjectCommand({ Bucket, Key, Body: body, ContentLength: body.byteLength }), o),
			undefined,
			body.byteLength,
		);
		return true;
	}

	const store: BlobStore = {
		kind: "s3",
		// An object is durable once its upload is answered: a group needs nothing more.
		group: () => immediateGroup(store),
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
				if (await exists(expected)) {
					for await (const part of remaining()) void part;
					return { ...tracker.finish(), created: false };
				}
				let digest: ReturnType<DigestTracker["finish"]> | undefined;
				async function* all(): AsyncIterable<Buffer> {
					yield firstPart;
					yield* remaining();
				}
				await multipart(expected, all(), () => {
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
				if (await exists(digest.sha256)) return { ...digest, created: false };
				await multipart(digest.sha256, parts(createReadStream(spool), options.partSize), () => {});
				return { ...digest, created: true };
			} finally {
				await file.close().catch(() => {});
				await unlink(spool).catch(() => {});
			}
		},
		async stat(sha256: string) {
			const Key = keyOf(sha256);
			try {
				const head = await call((o) => client.send(new HeadObjectCommand({ Bucket, Key }), o), sha256);
				return { size: head.ContentLength ?? 0 };
			} catch (error) {
				if (error instanceof BlobNotFoundError) return undefined;
				throw error;
			}
		},
		async read(sha256: string, range?: ByteRange): Promise<Readable> {
			const Key = keyOf(sha256);
			let Range: string | undefined;
			if (range) {
				if (range.end <= range.start) return Readable.from([]);
				Range = `bytes=${range.start}-${range.end - 1}`;
			}
			const object = await call((o) => client.send(new GetObjectCommand({ Bucket, Key, Range }), o), sha256);
			// On Node.js the SDK hands over the HTTP response itself: a stream, not buffered.
			if (!(object.Body instanceof Readable)) throw new Error("S3 answered without a readable body");
			return object.Body;
		},
		async downloadUrl(
			sha256: string,
			downloadOptions: { filename: string; expiresInSeconds: number; cacheControl?: string },
		) {
			if (!options.presignedDownloads) return undefined;
			presigner ??= createS3Client(options, options.presignedDownloads);
			const name = downloadOptions.filename.replace(/["\\\r\n]/g, "_");
			const command = new GetObjectCommand({
				Bucket,
				Key: keyOf(sha256),
				ResponseContentDisposition: `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(downloadOptions.filename)}`,
				// Signed into the URL (response-cache-control): S3 answers with the repository's policy.
				...(downloadOptions.cacheControl ? { ResponseCacheControl: downloadOptions.cacheControl } : {}),
			});
			return getSignedUrl(presigner, command, { expiresIn: downloadOptions.expiresInSeconds });
		},
		async delete(sha256: string) {
			const Key = keyOf(sha256);
			try {
				await call((o) => client.send(new DeleteObjectCommand({ Bucket, Key }), o), sha256);
			} catch (error) {
				// Deleting what is not there is done (some S3-compatible services answer 404).
				if (!(error instanceof BlobNotFoundError)) throw error;
			}
		},
		async *list(): AsyncIterable<ListedBlob> {
			const Prefix = `${options.prefix}blobs/`;
			let ContinuationToken: string | undefined;
			do {
				const page = await call((o) =>
					client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }), o),
				);
				for (const object of page.Contents ?? []) {
					const sha256 = object.Key?.slice(object.Key.lastIndexOf("/") + 1) ?? "";
					if (!isSha256(sha256) || object.Key !== keyOf(sha256)) continue;
					yield { sha256, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date() };
				}
				ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
			} while (ContinuationToken);
		},
		async sweepTemporaries(maxAgeMs: number, dryRun: boolean) {
			// Spools of this and crashed processes on local disk, then multipart uploads never completed
			// (a crash between two parts): their parts are stored, and billed, until aborted.
			const swept = await sweepFolder(options.spoolDir, maxAgeMs, dryRun);
			const Prefix = `${options.prefix}blobs/`;
			const before = Date.now() - maxAgeMs;
			let KeyMarker: string | undefined;
			let UploadIdMarker: string | undefined;
			do {
				const page = await call((o) =>
					client.send(new ListMultipartUploadsCommand({ Bucket, Prefix, KeyMarker, UploadIdMarker }), o),
				);
				for (const upload of page.Uploads ?? []) {
					const { Key, UploadId, Initiated } = upload;
					if (!Key || !UploadId || !Initiated || Initiated.getTime() > before) continue;
					const parts = await call((o) => client.send(new ListPartsCommand({ Bucket, Key, UploadId }), o));
					swept.count++;
					swept.bytes += (parts.Parts ?? []).reduce((sum, part) => sum + (part.Size ?? 0), 0);
					if (!dryRun) await abort(Key, UploadId);
				}
				const more = page.IsTruncated === true;
				KeyMarker = more ? page.NextKeyMarker : undefined;
				UploadIdMarker = more ? page.NextUploadIdMarker : undefined;
			} while (KeyMarker);
			return swept;
		},
		async close() {
			client.destroy();
			presigner?.destroy();
			await rm(spoolDir, { recursive: true, force: true }).catch(() => {});
		},
	};
	return store;
}
