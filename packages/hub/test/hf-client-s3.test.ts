// huggingface_hub 2.0 downloads from a hub whose files are in S3-compatible storage (moto on
// 127.0.0.1): streamed through the hub, and redirected to presigned URLs for LFS files, which the
// client follows on another host ("localhost") without the hub's headers. Uploads (LFS files, Xet
// xorbs) land in the bucket.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { seedIfEmpty } from "../src/seed.js";
import {
	bytes,
	CLIENT_PARAMS,
	expectDownloads,
	FILES_REPO,
	loadClientFixtures,
	type Fixture,
} from "./support/hf-client-suite.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";
import { startLocalS3, type LocalS3 } from "./support/s3.js";

describe("huggingface_hub downloads with files in S3", () => {
	let s3: LocalS3;
	let db: Database;
	let proxied: RunningHub;
	let redirecting: RunningHub;
	let fixture: Fixture;
	let dir: string;

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-hf-s3-"));
		s3 = await startLocalS3();
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const storage = s3.open();
		await seedIfEmpty(db, storage);
		// The download scenarios need the files repository only (not the bulk models or the big tree).
		fixture = await loadClientFixtures(db, storage, dir, { listings: false });
		proxied = await startHub({ db, storage, seed: false, adminToken: "s3-admin-token-0123456789" });
		redirecting = await startHub({
			db,
			storage: s3.open({ presignedDownloads: new URL(`http://localhost:${s3.port}`) }),
			seed: false,
		});
	}, 180_000);

	afterAll(async () => {
		await proxied?.close();
		await redirecting?.close();
		await db?.close();
		await s3?.stop();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("streams every file through the hub", async () => {
		const out = await runHubClient("download", proxied.url, join(dir, "proxied"), CLIENT_PARAMS);
		await expectDownloads(db, fixture, out);
	}, 180_000);

	it("stores uploads in the bucket, through LFS and through Xet", async () => {
		const created = await fetch(`${proxied.url}/api/admin/users`, {
			method: "POST",
			headers: { authorization: "Bearer s3-admin-token-0123456789", "content-type": "application/json" },
			body: JSON.stringify({ name: "s3user" }),
		});
		const { token } = (await created.json()) as { token: string };
		const repo = await fetch(`${proxied.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "in-s3" }),
		});
		expect(repo.status).toBe(200);
		for (const [transfer, env] of [
			["xet", {}],
			["lfs", { HF_HUB_DISABLE_XET: "1" }],
		] as const) {
			const content = bytes(21 * 1024 * 1024 + 7, transfer === "xet" ? 51 : 52);
			const path = join(dir, `${transfer}.bin`);
			writeFileSync(path, content);
			const out = await runHubClient<{ result: { ok?: string } }>(
				"upload_path",
				proxied.url,
				join(dir, `upload-${transfer}`),
				{ token, repo: "s3user/in-s3", path },
				env,
				"hf_hub_sharing.py",
			);
			expect(out.result.ok, JSON.stringify(out)).toMatch(/^[0-9a-f]{40}$/);
			const sha256 = createHash("sha256").update(content).digest("hex");
			// An LFS upload is stored as the file; a Xet upload as its xorbs only, the file read from them.
			expect(await proxied.storage.stat(sha256)).toEqual(
				transfer === "lfs" ? { size: content.length } : undefined,
			);
			const download = await fetch(`${proxied.url}/s3user/in-s3/resolve/main/${transfer}.bin`);
			expect(
				createHash("sha256")
					.update(Buffer.from(await download.arrayBuffer()))
					.digest("hex"),
			).toBe(sha256);
		}
	}, 180_000);

	it("redirects LFS files to presigned storage URLs with the metadata on the redirect", async () => {
		const head = await fetch(`${redirecting.url}/${FILES_REPO}/resolve/main/weights/model.safetensors`, {
			method: "HEAD",
			redirect: "manual",
		});
		expect(head.status).toBe(302);
		expect(new URL(head.headers.get("location") as string).host).toBe(`localhost:${s3.port}`);
		expect(head.headers.get("x-linked-size")).toBe(
			String(fixture.files["weights/model.safetensors"]!.length),
		);
		expect(head.headers.get("x-linked-etag")).toMatch(/^"[0-9a-f]{64}"$/);
		expect(head.headers.get("x-repo-commit")).toMatch(/^[0-9a-f]{40}$/);
		// Small regular files are still served by the hub.
		const readme = await fetch(`${redirecting.url}/${FILES_REPO}/resolve/main/README.md`, {
			redirect: "manual",
		});
		expect(readme.status).toBe(200);
		await readme.arrayBuffer();

		const out = await runHubClient("download", redirecting.url, join(dir, "redirected"), CLIENT_PARAMS);
		await expectDownloads(db, fixture, out);
	}, 180_000);
});
