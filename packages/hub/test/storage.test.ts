// The blob stores, each against real storage: local disk, and a real S3-protocol server (s3rver)
// that checks every signature. One contract, run on both.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunksOf } from "../src/storage/digest.js";
import { openDiskBlobStore } from "../src/storage/disk.js";
import { S3Error } from "../src/storage/s3/client.js";
import { openS3BlobStore } from "../src/storage/s3/store.js";
import { amzDates, presignQuery, signHeaders, EMPTY_PAYLOAD_HASH } from "../src/storage/s3/sigv4.js";
import {
	BlobDigestError,
	BlobNotFoundError,
	BlobTooLargeError,
	StorageUnavailableError,
	type BlobStore,
} from "../src/storage/types.js";
import { bytes, sha256 } from "./support/hf-client-suite.js";
import { startLocalS3, type LocalS3 } from "./support/s3.js";

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/** A stream of `size` deterministic bytes in 64 KiB chunks, produced as it is read. */
function lazyBytes(size: number, seed: number): AsyncIterable<Uint8Array> {
	const data = bytes(size, seed);
	return (async function* () {
		for (let offset = 0; offset < size; offset += 65_536)
			yield data.subarray(offset, Math.min(size, offset + 65_536));
	})();
}

function gitHashObject(data: Buffer): string {
	return execFileSync("git", ["hash-object", "--stdin"], { input: data, encoding: "utf8" }).trim();
}

function defineStoreContract(label: string, open: () => Promise<BlobStore>, partSize: number): void {
	describe(`the ${label} blob store`, () => {
		let store: BlobStore;
		beforeAll(async () => {
			store = await open();
		});
		afterAll(async () => store?.close());

		it("stores bytes under their SHA-256 with git's object id, once", async () => {
			const text = "hello, hub\n";
			const first = await store.put(chunksOf(text));
			expect(first).toEqual({
				sha256: sha256(text),
				size: Buffer.byteLength(text),
				gitOid: gitHashObject(Buffer.from(text)),
				created: true,
			});
			expect((await store.put(chunksOf(text))).created).toBe(false);
			expect(await store.stat(first.sha256)).toEqual({ size: first.size });
			expect((await readAll(await store.read(first.sha256))).toString()).toBe(text);
			expect((await readAll(await store.read(first.sha256, { start: 7, end: 10 }))).toString()).toBe("hub");
			const empty = await store.put(chunksOf(""));
			expect(empty).toMatchObject({ sha256: sha256(""), size: 0, gitOid: gitHashObject(Buffer.alloc(0)) });
			expect((await readAll(await store.read(empty.sha256))).length).toBe(0);
		});

		it("streams blobs larger than a part, with or without the digest known in advance", async () => {
			const size = 2 * partSize + 12_345;
			const data = bytes(size, 3);
			const unknown = await store.put(lazyBytes(size, 3));
			expect(unknown).toMatchObject({ sha256: sha256(data), size, gitOid: undefined, created: true });
			expect(sha256(await readAll(await store.read(unknown.sha256)))).toBe(sha256(data));
			const middle = await readAll(
				await store.read(unknown.sha256, { start: partSize - 5, end: partSize + 5 }),
			);
			expect(middle).toEqual(data.subarray(partSize - 5, partSize + 5));

			const known = bytes(partSize + 1, 4);
			const stored = await store.put(lazyBytes(partSize + 1, 4), {
				expectedSha256: sha256(known),
				expectedSize: known.length,
			});
			expect(stored).toMatchObject({ sha256: sha256(known), created: true });
			expect(sha256(await readAll(await store.read(stored.sha256)))).toBe(sha256(known));
			// Exactly one part's worth.
			const exact = await store.put(lazyBytes(partSize, 5));
			expect(exact.size).toBe(partSize);
			expect(sha256(await readAll(await store.read(exact.sha256)))).toBe(sha256(bytes(partSize, 5)));
		});

		it("keeps nothing of a put that breaks its size limit or its announced digest", async () => {
			const size = partSize + 100;
			const data = bytes(size, 6);
			await expect(store.put(lazyBytes(size, 6), { maxBytes: partSize })).rejects.toThrow(BlobTooLargeError);
			expect(await store.stat(sha256(data))).toBeUndefined();
			const wrong = "0".repeat(64);
			await expect(store.put(lazyBytes(size, 6), { expectedSha256: wrong })).rejects.toThrow(BlobDigestError);
			expect(await store.stat(wrong)).toBeUndefined();
			expect(await store.stat(sha256(data))).toBeUndefined();
			await expect(store.put(chunksOf("abc"), { expectedSize: 4 })).rejects.toThrow(BlobDigestError);
			await expect(store.put(chunksOf("abcde"), { expectedSize: 4 })).rejects.toThrow(BlobDigestError);
			await expect(store.put(chunksOf("abc"), { maxBytes: 2 })).rejects.toThrow(BlobTooLargeError);
		});

		it("reports missing blobs and deletes", async () => {
			const missing = sha256("never stored");
			await expect(store.read(missing)).rejects.toThrow(BlobNotFoundError);
			await expect(store.read("not-a-digest")).rejects.toThrow(BlobNotFoundError);
			const blob = await store.put(chunksOf("to delete"));
			await store.delete(blob.sha256);
			expect(await store.stat(blob.sha256)).toBeUndefined();
			await store.delete(blob.sha256);
		});

		it("stops reading a source as soon as it is over the limit", async () => {
			let produced = 0;
			const endless = Readable.from(
				(function* () {
					for (;;) {
						produced += 65_536;
						yield Buffer.alloc(65_536, 1);
					}
				})(),
			);
			await expect(store.put(endless, { maxBytes: 1_000_000 })).rejects.toThrow(BlobTooLargeError);
			expect(produced).toBeLessThan(1_000_000 + 3 * 65_536);
		});
	});
}

describe("Signature V4", () => {
	// AWS's documented examples ("Signature Calculations for the Authorization Header", GET Object, and
	// "Authenticating Requests: Using Query Parameters"), with their example credentials.
	const credentials = {
		accessKeyId: "AKIAIOSFODNN7EXAMPLE",
		secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		region: "us-east-1",
	};
	const date = new Date("2013-05-24T00:00:00Z");

	it("signs a header-authenticated request as AWS's example does", () => {
		expect(amzDates(date)).toEqual({ amzDate: "20130524T000000Z", shortDate: "20130524" });
		const headers = signHeaders(
			credentials,
			{
				method: "GET",
				host: "examplebucket.s3.amazonaws.com",
				path: "/test.txt",
				headers: { range: "bytes=0-9" },
				payloadHash: EMPTY_PAYLOAD_HASH,
			},
			date,
		);
		expect(headers.authorization).toBe(
			"AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
		);
	});

	it("presigns a URL as AWS's example does", () => {
		const query = presignQuery(
			credentials,
			{ method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt" },
			date,
			86_400,
		);
		expect(query).toMatch(
			/&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404$/,
		);
	});
});

describe("blob stores", () => {
	let s3: LocalS3;
	const dirs: string[] = [];
	beforeAll(async () => {
		s3 = await startLocalS3();
	});
	afterAll(async () => {
		await s3?.stop();
		for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	});

	const diskDir = () => {
		const dir = mkdtempSync(join(tmpdir(), "modelhub-disk-store-"));
		dirs.push(dir);
		return dir;
	};
	defineStoreContract("disk", () => openDiskBlobStore(diskDir()), 5 * 1024 * 1024);
	defineStoreContract("S3", async () => s3.open(), 5 * 1024 * 1024);

	it("leaves no temporary files behind on disk after failures", async () => {
		const dir = diskDir();
		const store = await openDiskBlobStore(dir);
		await expect(store.put(lazyBytes(100_000, 1), { maxBytes: 10 })).rejects.toThrow(BlobTooLargeError);
		await expect(store.put(chunksOf("x"), { expectedSha256: "1".repeat(64) })).rejects.toThrow(
			BlobDigestError,
		);
		expect(readdirSync(join(dir, "tmp"))).toEqual([]);
	});

	// s3rver 3.7 checks the access key of every request but not the Signature V4 itself (its source says
	// so); the signatures are checked against AWS's own examples above.
	it("S3: reports the server's error for unknown credentials, and an unreachable endpoint", async () => {
		const wrong = s3.open({ accessKeyId: "NOT-A-KEY", secretAccessKey: "not-the-secret" });
		const error = await wrong.read(sha256("x")).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(S3Error);
		expect((error as S3Error).code).toBe("InvalidAccessKeyId");
		expect((error as Error).message).not.toContain("not-the-secret");
		await expect(wrong.put(chunksOf("x"))).rejects.toThrow(S3Error);
		const nowhere = openS3BlobStore({
			...s3.options(),
			endpoint: new URL("http://127.0.0.1:9"),
			timeoutMs: 2000,
		});
		await expect(nowhere.stat(sha256("x"))).rejects.toThrow(StorageUnavailableError);
	});

	it("S3: presigned URLs fetch the bytes, under the name given", async () => {
		const store = s3.open({ presignedDownloads: new URL(`http://localhost:${s3.port}`) });
		const blob = await store.put(chunksOf("presigned bytes"));
		const url = store.downloadUrl(blob.sha256, { filename: "weights.bin", expiresInSeconds: 60 }) as string;
		expect(new URL(url).hostname).toBe("localhost");
		const res = await fetch(url);
		expect(res.status).toBe(200);
		expect(await res.text()).toBe("presigned bytes");
		expect(res.headers.get("content-disposition")).toContain("weights.bin");
		expect(new URL(url).searchParams.get("X-Amz-Expires")).toBe("60");
		expect(s3.open().downloadUrl(blob.sha256, { filename: "x", expiresInSeconds: 60 })).toBeUndefined();
	});
});
