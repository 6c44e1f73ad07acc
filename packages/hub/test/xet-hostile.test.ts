// Regression tests for the Xet findings of issue 21: a 4 KB xorb and a 48 KB shard made the hub write
// a 1 GiB file, and a shard with a wrong hash cost seconds of rebuilding before it was refused. A shard
// is now checked against the account's xorbs before anything is rebuilt, and the bytes it may make the
// hub rebuild are bounded (src/xet/plan.ts). Rebuilt files are kept as their recipes (nothing written
// but the xorbs); zero-filled files upload through Xet, within a bound of their own
// (MODELHUB_XET_MAX_ZERO_BYTES).
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { readBlob } from "../src/services/blobs.js";
import { bytes } from "./support/hf-client-suite.js";
import { ADMIN_TOKEN } from "./support/hub-suite.js";
import { openBlobStore } from "../src/storage/open.js";
import type { BlobStore } from "../src/storage/types.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";
import { lz4FrameOfByte, lz4FrameOfZeros, lz4XorbOf, shardOf, shardOfFiles } from "./support/xet-objects.js";

const MIB = 1024 * 1024;
/** Xet's largest chunk (xet-core: twice its 64 KiB target). */
const CHUNK = 128 * 1024;
const ALLOWANCE = 4 * MIB;
const MAX_ZEROS = 16 * MIB;
const MAX_FILE = 64 * MIB;

let db: Database;
let hub: RunningHub;
let storage: BlobStore;
let dir: string;
let token: string;
let cas: { casUrl: string; accessToken: string };

/** The SHA-256 of `size` zero bytes, hashed a chunk at a time. */
function zerosSha(size: number): string {
	const hash = createHash("sha256");
	const chunk = Buffer.alloc(MIB);
	for (let done = 0; done < size; done += MIB) hash.update(chunk.subarray(0, Math.min(MIB, size - done)));
	return hash.digest("hex");
}

/** The SHA-256 of `size` bytes all equal to `byte`. */
function filledSha(size: number, byte: number): string {
	return createHash("sha256").update(Buffer.alloc(size, byte)).digest("hex");
}

/**
 * The SHA-256 of a rebuilt file's bytes as the hub reads them (readBlob: from its xorbs, since a Xet file
 * is kept as its recipe), after checking that no copy of it was written to the file store.
 */
async function keptSha(
	sha256: string,
	size: number,
	range?: { start: number; end: number },
): Promise<string> {
	expect(await hub.storage.stat(sha256)).toBeUndefined();
	const hash = createHash("sha256");
	for await (const piece of await readBlob({ db, storage }, { sha256, size }, range))
		hash.update(piece as Buffer);
	return hash.digest("hex");
}

/** `count` terms, each the same one chunk (128 KiB) of `xorb`. */
function repeated(xorb: string, count: number) {
	return Array.from({ length: count }, () => ({ xorb, size: CHUNK, start: 0, end: 1 }));
}

async function postShard(
	shard: Buffer,
): Promise<{ status: number; body: { error?: string; result?: number } }> {
	const res = await fetch(`${cas.casUrl}/v1/shards`, {
		method: "POST",
		headers: { authorization: `Bearer ${cas.accessToken}` },
		body: new Uint8Array(shard),
	});
	return { status: res.status, body: (await res.json()) as { error?: string; result?: number } };
}

const zeroXorb = "a".repeat(64);
const onesXorb = "b".repeat(64);

async function postXorb(hash: string, xorb: Buffer): Promise<unknown> {
	const uploaded = await fetch(`${cas.casUrl}/v1/xorbs/default/${hash}`, {
		method: "POST",
		headers: { authorization: `Bearer ${cas.accessToken}` },
		body: new Uint8Array(xorb),
	});
	return uploaded.json();
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "modelhub-xet-hostile-"));
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	storage = await openBlobStore({ kind: "disk", dir: join(dir, "store") });
	hub = await startHub({
		db,
		storage,
		seed: false,
		adminToken: ADMIN_TOKEN,
		maxFileBytes: MAX_FILE,
		uploads: { xetExpansionAllowanceBytes: ALLOWANCE, xetMaxZeroBytes: MAX_ZEROS },
		logLevel: "silent",
	});
	token = await createUser(hub.url, ADMIN_TOKEN, "mallory");
	const repo = await fetch(`${hub.url}/api/repos/create`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
		body: JSON.stringify({ name: "xet" }),
	});
	expect(repo.status).toBe(200);
	const grant = await fetch(`${hub.url}/api/models/mallory/xet/xet-write-token/main`, {
		headers: { authorization: `Bearer ${token}` },
	});
	cas = (await grant.json()) as { casUrl: string; accessToken: string };
	// One chunk of 128 KiB of zeros (or of 0x01 bytes), LZ4-compressed to about 530 bytes: the whole xorb.
	const xorb = lz4XorbOf([{ size: CHUNK, frame: lz4FrameOfZeros(CHUNK) }]);
	expect(xorb.length).toBeLessThan(1024);
	expect(await postXorb(zeroXorb, xorb)).toEqual({ was_inserted: true });
	const ones = lz4XorbOf([{ size: CHUNK, frame: lz4FrameOfByte(CHUNK, 1) }]);
	expect(await postXorb(onesXorb, ones)).toEqual({ was_inserted: true });
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await storage?.close();
	await db?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a Xet shard cannot make the hub write more than it brings", () => {
	it("refuses a shard repeating one chunk of data into a 32 MiB file, with a 400 naming the limit, before writing it", async () => {
		const size = 256 * CHUNK;
		const sha256 = filledSha(size, 1);
		const shard = shardOf({ sha256, terms: repeated(onesXorb, 256) });
		expect(shard.length).toBeLessThan(16 * 1024);
		const refused = await postShard(shard);
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatch(
			/rebuild into 33554432 bytes from \d+ bytes of uploaded chunks.*MODELHUB_XET_MAX_EXPANSION.*HF_HUB_DISABLE_XET=1/,
		);
		expect(await hub.storage.stat(sha256)).toBeUndefined();
		// Within the allowance the same kind of file is rebuilt (a small repetitive file stays uploadable).
		const small = 16 * CHUNK;
		const accepted = await postShard(shardOf({ sha256: filledSha(small, 1), terms: repeated(onesXorb, 16) }));
		expect(accepted).toEqual({ status: 200, body: { result: 1 } });
		expect(await keptSha(filledSha(small, 1), small)).toBe(filledSha(small, 1));
	});

	it("refuses a shard with a wrong SHA-256 by its size alone, without rebuilding the file", async () => {
		const wrong = createHash("sha256").update("not these bytes").digest("hex");
		const refused = await postShard(shardOf({ sha256: wrong, terms: repeated(onesXorb, 256) }));
		expect(refused.status).toBe(400);
		// Before, this answer came after rebuilding all 32 MiB ("the rebuilt file does not match").
		expect(refused.body.error).toMatch(/MODELHUB_XET_MAX_EXPANSION/);
		// Zeros past their own bound are refused the same way, by size alone.
		const zeros = await postShard(shardOf({ sha256: wrong, terms: repeated(zeroXorb, 256) }));
		expect(zeros.status).toBe(400);
		expect(zeros.body.error).toMatch(
			/33554432 bytes of zero regions: at most 16777216 .*MODELHUB_XET_MAX_ZERO_BYTES/,
		);
	});

	it("rebuilds a zero-filled file past the allowance without writing its zeros; a wrong SHA-256 stores nothing", async () => {
		// 12 MiB of zeros from one 530-byte chunk: refused before (more than 64 times the chunk plus 4 MiB).
		const size = 96 * CHUNK;
		const sha256 = zerosSha(size);
		const accepted = await postShard(shardOf({ sha256, terms: repeated(zeroXorb, 96) }));
		expect(accepted).toEqual({ status: 200, body: { result: 1 } });
		// Nothing written (the file is read from its one xorb), read back as zeros.
		expect(await keptSha(sha256, size)).toBe(sha256);
		expect(await keptSha(sha256, size, { start: size - 10, end: size })).toBe(zerosSha(10));
		// Data then zeros.
		const mixedSize = 8 * CHUNK + 96 * CHUNK;
		const mixedSha = createHash("sha256")
			.update(Buffer.alloc(8 * CHUNK, 1))
			.update(Buffer.alloc(96 * CHUNK))
			.digest("hex");
		const mixed = await postShard(
			shardOf({ sha256: mixedSha, terms: [...repeated(onesXorb, 8), ...repeated(zeroXorb, 96)] }),
		);
		expect(mixed).toEqual({ status: 200, body: { result: 1 } });
		expect(await keptSha(mixedSha, mixedSize)).toBe(mixedSha);
		// The wrong SHA-256 for zeros within the bound: hashed, refused, nothing kept.
		const wrong = createHash("sha256").update("not these zeros").digest("hex");
		const refused = await postShard(shardOf({ sha256: wrong, terms: repeated(zeroXorb, 97) }));
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatch(/does not match the shard/);
		expect(await hub.storage.stat(zerosSha(97 * CHUNK))).toBeUndefined();
	});

	it("checks every file of a shard before rebuilding any: a bad term in the last file stores nothing", async () => {
		const first = 8 * CHUNK;
		const shard = shardOfFiles([
			{ sha256: zerosSha(first), terms: repeated(zeroXorb, 8) },
			{ sha256: zerosSha(CHUNK), terms: [{ xorb: zeroXorb, size: CHUNK - 1, start: 0, end: 1 }] },
		]);
		const refused = await postShard(shard);
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatch(/claims 131071 bytes, its chunks hold 131072/);
		expect(await hub.storage.stat(zerosSha(first))).toBeUndefined();
		// Nor does a term naming a chunk the xorb does not have, after a good file.
		const missing = await postShard(
			shardOfFiles([
				{ sha256: zerosSha(first), terms: repeated(zeroXorb, 8) },
				{ sha256: zerosSha(CHUNK), terms: [{ xorb: zeroXorb, size: CHUNK, start: 1, end: 2 }] },
			]),
		);
		expect(missing.status).toBe(400);
		expect(missing.body.error).toMatch(/has 1 chunks, a term asks for chunk 1/);
		expect(await hub.storage.stat(zerosSha(first))).toBeUndefined();
	});

	it("refuses a file over MODELHUB_MAX_FILE_BYTES from its terms, before writing a byte of it", async () => {
		const size = MAX_FILE + CHUNK;
		const refused = await postShard(
			shardOf({ sha256: zerosSha(size), terms: repeated(zeroXorb, size / CHUNK) }),
		);
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatch(/rebuilds into 67239936 bytes, more than the limit of 67108864 bytes/);
		expect(await hub.storage.stat(zerosSha(size))).toBeUndefined();
	});

	it("the real hf_xet client: a large zero-filled file goes through Xet (its zeros not written), weights-like bytes too", async () => {
		const sparse = join(dir, "sparse.bin");
		writeFileSync(sparse, Buffer.alloc(12 * MIB));
		// Refused before (400: more than 64 times its one chunk plus the 4 MiB allowance).
		const viaXet = await runHubClient<Record<string, { ok?: string; message?: string }>>(
			"upload_path",
			hub.url,
			join(dir, "home-xet"),
			{ token, repo: "mallory/xet", path: sparse },
			{},
			"hf_hub_sharing.py",
		);
		expect(viaXet.result?.ok).toMatch(/^[0-9a-f]{40}$/);
		expect(await keptSha(zerosSha(12 * MIB), 12 * MIB)).toBe(zerosSha(12 * MIB));
		// Weights-like bytes (incompressible) of the same size go through Xet as before.
		const weights = join(dir, "weights.bin");
		const content = bytes(12 * MIB, 7);
		writeFileSync(weights, content);
		const worked = await runHubClient<Record<string, { ok?: string }>>(
			"upload_path",
			hub.url,
			join(dir, "home-weights"),
			{ token, repo: "mallory/xet", path: weights },
			{},
			"hf_hub_sharing.py",
		);
		expect(worked.result?.ok).toMatch(/^[0-9a-f]{40}$/);
		const sha256 = createHash("sha256").update(content).digest("hex");
		expect(await keptSha(sha256, 12 * MIB)).toBe(sha256);
	}, 180_000);
});
