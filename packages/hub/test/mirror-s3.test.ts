// Mirror mode on S3-compatible storage (moto on 127.0.0.1): the real huggingface_hub downloads an LFS
// file and a regular file of a repository that exists only upstream through the downstream hub; both
// are verified and stored as objects of the bucket, and served from there with the upstream stopped. A
// local repository of the same hub takes the client's Xet and LFS uploads as without mirror mode.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_UPSTREAM_SETTINGS } from "../src/mirror/settings.js";
import type { BlobStore } from "../src/storage/types.js";
import { bytes } from "./support/hf-client-suite.js";
import { createUser } from "./support/hub.js";
import { startMirrorPair, type MirrorPair } from "./support/mirror.js";
import { runHubClient } from "./support/python.js";
import { startLocalS3, type LocalS3 } from "./support/s3.js";

const ADMIN = "mirror-s3-admin-token-0123456789";
const REPO = "alice/s3-mirrored";
const LFS_PATH = "weights.bin";
const REGULAR_PATH = "config.json";

interface Fetched {
	files: Record<string, { sha256: string; etag: string; size: number; commit: string }>;
}

function sha256(content: Buffer): string {
	return createHash("sha256").update(content).digest("hex");
}

function gitOid(content: Buffer): string {
	return createHash("sha1")
		.update(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]))
		.digest("hex");
}

/** The SHA-256 of every object the bucket holds, listed by a client of its own. */
async function bucketBlobs(s3: LocalS3): Promise<Map<string, number>> {
	const store = s3.open();
	try {
		const listed = new Map<string, number>();
		for await (const blob of store.list()) listed.set(blob.sha256, blob.size);
		return listed;
	} finally {
		await store.close();
	}
}

describe("mirror mode with the downstream's files in S3", () => {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-mirror-s3-"));
	// Binary (a NUL byte): uploaded through LFS; text: a regular file, checked by its git blob id.
	const weights = bytes(3 * 1024 * 1024 + 11, 71);
	const config = Buffer.from(`${JSON.stringify({ model_type: "bert", hidden_size: 16, note: "from S3" })}\n`);
	let s3: LocalS3;
	let storage: BlobStore | undefined;
	let pair: MirrorPair | undefined;
	let commit = "";

	beforeAll(async () => {
		s3 = await startLocalS3();
		storage = s3.open();
		pair = await startMirrorPair({
			adminToken: ADMIN,
			downstream: { storage },
			settings: {
				ttlMs: 0,
				outbound: { ...DEFAULT_UPSTREAM_SETTINGS.outbound, timeoutMs: 2000, retries: 1, retryBaseMs: 50 },
			},
			prepare: async (upstream) => {
				const token = await createUser(upstream.url, ADMIN, "alice");
				const created = await fetch(`${upstream.url}/api/repos/create`, {
					method: "POST",
					headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
					body: JSON.stringify({ name: "s3-mirrored" }),
				});
				if (created.status !== 200) throw new Error(`creating ${REPO}: ${created.status}`);
				for (const [path, content] of [
					[LFS_PATH, weights],
					[REGULAR_PATH, config],
				] as const) {
					const local = join(dir, path);
					writeFileSync(local, content);
					const out = await runHubClient<{ result: { ok?: string; message?: string } }>(
						"upload_path",
						upstream.url,
						join(dir, `upload-${path}`),
						{ token, repo: REPO, path: local },
						{ HF_HUB_DISABLE_XET: "1" },
						"hf_hub_sharing.py",
					);
					if (!out.result.ok) throw new Error(`uploading ${path}: ${JSON.stringify(out.result)}`);
				}
				const info = await fetch(`${upstream.url}/api/models/${REPO}`, {
					headers: { authorization: `Bearer ${token}` },
				});
				commit = ((await info.json()) as { sha: string }).sha;
			},
		});
	}, 300_000);

	afterAll(async () => {
		await pair?.close();
		await storage?.close();
		await s3?.stop();
		rmSync(dir, { recursive: true, force: true });
	});

	it("stores an LFS and a regular file fetched through huggingface_hub in the bucket, and serves them there with the upstream stopped", async () => {
		const { upstream, downstream } = pair as MirrorPair;
		const expected = {
			[LFS_PATH]: { sha256: sha256(weights), etag: sha256(weights), size: weights.length, commit },
			[REGULAR_PATH]: { sha256: sha256(config), etag: gitOid(config), size: config.length, commit },
		};
		expect(commit).toMatch(/^[0-9a-f]{40}$/);
		// Nothing of the repository is in the bucket before a client asks.
		const before = await bucketBlobs(s3);
		expect(before.has(sha256(weights))).toBe(false);
		expect(before.has(sha256(config))).toBe(false);

		const online = await runHubClient<Fetched>(
			"fetch",
			downstream.url,
			join(dir, "online"),
			{ repo: REPO, paths: [LFS_PATH, REGULAR_PATH] },
			{},
			"hf_hub_mirror.py",
		);
		expect(online.files).toEqual(expected);
		// Both are objects of the bucket, with their sizes (storing follows the first client's download).
		await vi.waitFor(
			async () => {
				const listed = await bucketBlobs(s3);
				expect(listed.get(sha256(weights))).toBe(weights.length);
				expect(listed.get(sha256(config))).toBe(config.length);
			},
			{ timeout: 20_000, interval: 200 },
		);

		await upstream.close();
		// A new cache: every byte comes from the downstream, which can only read them from the bucket.
		const offline = await runHubClient<Fetched>(
			"fetch",
			downstream.url,
			join(dir, "offline"),
			{ repo: REPO, paths: [LFS_PATH, REGULAR_PATH] },
			{},
			"hf_hub_mirror.py",
		);
		expect(offline.files).toEqual(expected);
		// The headers clients rely on, on a cache hit, and a range of the cached LFS file.
		for (const [path, content, linked] of [
			[LFS_PATH, weights, true],
			[REGULAR_PATH, config, false],
		] as const) {
			const head = await fetch(`${downstream.url}/${REPO}/resolve/main/${path}`, { method: "HEAD" });
			expect(head.status, path).toBe(200);
			expect(head.headers.get("x-repo-commit"), path).toBe(commit);
			expect(head.headers.get("content-length"), path).toBe(String(content.length));
			if (linked) {
				expect(head.headers.get("x-linked-etag"), path).toBe(`"${sha256(content)}"`);
				expect(head.headers.get("x-linked-size"), path).toBe(String(content.length));
			} else {
				expect(head.headers.get("etag"), path).toBe(`"${gitOid(content)}"`);
			}
		}
		const range = await fetch(`${downstream.url}/${REPO}/resolve/main/${LFS_PATH}`, {
			headers: { range: "bytes=1000-1999" },
		});
		expect(range.status).toBe(206);
		expect(Buffer.from(await range.arrayBuffer()).equals(weights.subarray(1000, 2000))).toBe(true);
	}, 300_000);

	it("takes huggingface_hub's Xet and LFS uploads to a local repository and serves them back, the upstream stopped", async () => {
		const { downstream } = pair as MirrorPair;
		const token = await createUser(downstream.url, ADMIN, "dora");
		const created = await fetch(`${downstream.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "local-model" }),
		});
		expect(created.status).toBe(200);
		const local = "dora/local-model";
		const contents = { "xet.bin": bytes(1024 * 1024 + 7, 81), "lfs.bin": bytes(1024 * 1024 + 9, 82) };
		for (const [name, env] of [
			["xet.bin", {}],
			["lfs.bin", { HF_HUB_DISABLE_XET: "1" }],
		] as const) {
			const path = join(dir, name);
			writeFileSync(path, contents[name]);
			const out = await runHubClient<{ result: { ok?: string; message?: string } }>(
				"upload_path",
				downstream.url,
				join(dir, `local-${name}`),
				{ token, repo: local, path },
				env,
				"hf_hub_sharing.py",
			);
			expect(out.result.ok, JSON.stringify(out.result)).toMatch(/^[0-9a-f]{40}$/);
		}
		const info = await fetch(`${downstream.url}/api/models/${local}`);
		const { sha, mirroredFrom } = (await info.json()) as { sha: string; mirroredFrom?: string };
		expect(mirroredFrom).toBeUndefined();
		const back = await runHubClient<Fetched>(
			"fetch",
			downstream.url,
			join(dir, "local-fetch"),
			{ repo: local, paths: ["xet.bin", "lfs.bin"] },
			{},
			"hf_hub_mirror.py",
		);
		expect(back.files["xet.bin"]).toMatchObject({ sha256: sha256(contents["xet.bin"]), commit: sha });
		expect(back.files["lfs.bin"]).toMatchObject({ sha256: sha256(contents["lfs.bin"]), commit: sha });
		// The LFS upload is an object of the bucket (a Xet upload is kept as its xorbs).
		const listed = await bucketBlobs(s3);
		expect(listed.get(sha256(contents["lfs.bin"]))).toBe(contents["lfs.bin"].length);
		expect(listed.has(sha256(contents["xet.bin"]))).toBe(false);
	}, 300_000);
});
