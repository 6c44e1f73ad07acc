// Storage quotas (refused before a byte is stored, usage as documented, the admin's overrides over
// HTTP and the CLI) and the repository creation rate limit, on the embedded database and a disk store.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runQuotaCommand } from "../src/commands/storage.js";
import { DEFAULT_ACCOUNT_LIMITS } from "../src/config.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { openBlobStore } from "../src/storage/open.js";
import type { BlobStore } from "../src/storage/types.js";
import { bytes } from "./support/hf-client-suite.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { shardOf, xorbOf } from "./support/xet-objects.js";

const ADMIN = "quotas-admin-token-0123456789abcdef";

function sha(data: Buffer | string): string {
	return createHash("sha256").update(data).digest("hex");
}

let db: Database;
let storage: BlobStore;
let hub: RunningHub;
let dir: string;
const tokens: Record<string, string> = {};

function send(method: string, path: string, token: string, body?: unknown, type = "application/json") {
	return fetch(`${hub.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": type }) },
		...(body === undefined
			? {}
			: {
					body:
						typeof body === "string"
							? body
							: Buffer.isBuffer(body)
								? new Uint8Array(body)
								: JSON.stringify(body),
				}),
	});
}

async function setQuota(account: string, quota: number | "unlimited" | "default"): Promise<void> {
	const res = await send("PUT", `/api/admin/accounts/${account}/quota`, ADMIN, { bytes: quota });
	expect(res.status).toBe(200);
}

async function storageOf(account: string, token = ADMIN) {
	const res = await send("GET", `/api/accounts/${account}/storage`, token);
	expect(res.status).toBe(200);
	return (await res.json()) as {
		account: string;
		usedBytes: number;
		limitBytes: number | null;
		limitSource: string;
	};
}

/** An NDJSON commit of inline files. */
function ndjson(files: Record<string, Buffer>, summary = "add files"): string {
	return [
		JSON.stringify({ key: "header", value: { summary } }),
		...Object.entries(files).map(([path, content]) =>
			JSON.stringify({
				key: "file",
				value: { path, content: content.toString("base64"), encoding: "base64" },
			}),
		),
	].join("\n");
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "modelhub-quotas-"));
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	storage = await openBlobStore({ kind: "disk", dir: join(dir, "files") });
	hub = await startHub({
		db,
		storage,
		seed: false,
		adminToken: ADMIN,
		accountLimits: { userQuotaBytes: 50_000, orgQuotaBytes: null, repoCreatePerMinute: 3 },
	});
	for (const name of ["carol", "dave"]) {
		const res = await send("POST", "/api/admin/users", ADMIN, { name });
		tokens[name] = ((await res.json()) as { token: string }).token;
	}
	expect(
		(
			await send("POST", "/api/admin/orgs", ADMIN, {
				name: "lab",
				members: [{ user: "carol", role: "write" }],
			})
		).status,
	).toBe(201);
	for (const [token, body] of [
		[tokens.carol, { name: "q" }],
		[tokens.carol, { name: "shared", organization: "lab" }],
		[tokens.dave, { name: "q" }],
	] as const) {
		expect((await send("POST", "/api/repos/create", token as string, body)).status).toBe(200);
	}
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await storage?.close();
	await db?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("storage usage", () => {
	it("counts the distinct blobs of every commit and pending upload of the namespace, once each", async () => {
		const gitattributes = (await storageOf("carol")).usedBytes;
		expect(gitattributes).toBeGreaterThan(0);
		const a = bytes(1000, 1);
		// The same bytes under two paths, and again in a second commit: counted once.
		expect(
			(
				await send(
					"POST",
					"/api/models/carol/q/commit/main",
					tokens.carol as string,
					ndjson({ "a.bin": a, "copy.bin": a }),
					"application/x-ndjson",
				)
			).status,
		).toBe(200);
		const b = bytes(700, 2);
		expect(
			(
				await send(
					"POST",
					"/api/models/carol/q/commit/main",
					tokens.carol as string,
					ndjson({ "b.txt": b }),
					"application/x-ndjson",
				)
			).status,
		).toBe(200);
		// Deleting a file keeps its bytes in the history: still counted.
		const deletion = [
			JSON.stringify({ key: "header", value: { summary: "rm" } }),
			JSON.stringify({ key: "deletedFile", value: { path: "b.txt" } }),
		].join("\n");
		expect(
			(
				await send(
					"POST",
					"/api/models/carol/q/commit/main",
					tokens.carol as string,
					deletion,
					"application/x-ndjson",
				)
			).status,
		).toBe(200);
		const after = await storageOf("carol", tokens.carol as string);
		expect(after).toEqual({
			account: "carol",
			kind: "user",
			usedBytes: gitattributes + 1000 + 700,
			limitBytes: 50_000,
			limitSource: "default",
		});
		// An uploaded LFS object no commit uses yet counts too.
		const object = bytes(1234, 3);
		const batch = await send(
			"POST",
			"/carol/q.git/info/lfs/objects/batch",
			tokens.carol as string,
			{ operation: "upload", objects: [{ oid: sha(object), size: object.length }] },
			"application/vnd.git-lfs+json",
		);
		const href = ((await batch.json()) as { objects: Array<{ actions: { upload: { href: string } } }> })
			.objects[0]?.actions.upload.href as string;
		expect((await fetch(href, { method: "PUT", body: new Uint8Array(object) })).status).toBe(200);
		expect((await storageOf("carol")).usedBytes).toBe(gitattributes + 1000 + 700 + 1234);
		// The organisation's repositories count for the organisation (unlimited by default), not for carol.
		const lab = await storageOf("lab", tokens.carol as string);
		expect(lab).toMatchObject({ account: "lab", kind: "org", usedBytes: gitattributes, limitBytes: null });
	});

	it("is shown to the account and its organisations' members only", async () => {
		expect((await send("GET", "/api/accounts/carol/storage", tokens.dave as string)).status).toBe(404);
		expect((await send("GET", "/api/accounts/lab/storage", tokens.dave as string)).status).toBe(404);
		expect((await fetch(`${hub.url}/api/accounts/carol/storage`)).status).toBe(401);
	});
});

describe("storage quotas", () => {
	async function expectRefused(res: Response, account: string): Promise<void> {
		expect(res.status).toBe(413);
		const body = (await res.json()) as { error: string; usedBytes: number; limitBytes: number };
		expect(body.error).toMatch(new RegExp(`Storage quota exceeded: ${account} uses \\d+ of its \\d+ bytes`));
		expect(body.limitBytes).toBeGreaterThanOrEqual(0);
	}

	it("refuses an inline file past the quota before storing it", async () => {
		await setQuota("dave", 3000);
		const big = bytes(4000, 10);
		const res = await send(
			"POST",
			"/api/models/dave/q/commit/main",
			tokens.dave as string,
			ndjson({ "big.bin": big }),
			"application/x-ndjson",
		);
		await expectRefused(res, "dave");
		expect(await storage.stat(sha(big))).toBeUndefined();
		// Within the quota it goes through.
		const small = bytes(1000, 11);
		expect(
			(
				await send(
					"POST",
					"/api/models/dave/q/commit/main",
					tokens.dave as string,
					ndjson({ "small.bin": small }),
					"application/x-ndjson",
				)
			).status,
		).toBe(200);
	});

	it("refuses a multipart part as soon as it passes what the quota leaves, keeping nothing", async () => {
		await setQuota("dave", 5000);
		const part = bytes(20_000, 12);
		const form = new FormData();
		form.append("header", JSON.stringify({ summary: "multipart" }));
		form.append("file", new Blob([new Uint8Array(part)]), "weights.bin");
		const res = await fetch(`${hub.url}/api/models/dave/q/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${tokens.dave}` },
			body: form,
		});
		await expectRefused(res, "dave");
		expect(await storage.stat(sha(part))).toBeUndefined();
	});

	it("refuses LFS objects by their declared sizes in the batch, and again at the upload URL", async () => {
		await setQuota("dave", 10_000);
		const fits = bytes(4000, 13);
		const over = bytes(9000, 14);
		const res = await send(
			"POST",
			"/dave/q.git/info/lfs/objects/batch",
			tokens.dave as string,
			{
				operation: "upload",
				objects: [
					{ oid: sha(fits), size: fits.length },
					{ oid: sha(over), size: over.length },
				],
			},
			"application/vnd.git-lfs+json",
		);
		expect(res.status).toBe(200);
		const objects = (
			(await res.json()) as {
				objects: Array<{ actions?: { upload: { href: string } }; error?: { code: number; message: string } }>;
			}
		).objects;
		expect(objects[0]?.actions?.upload.href).toBeDefined();
		expect(objects[1]?.error?.code).toBe(413);
		expect(objects[1]?.error?.message).toMatch(
			/Storage quota exceeded: dave uses \d+ of its 10000 bytes, and this upload needs 9000 more/,
		);
		// The quota shrinks before the upload: the signed URL is refused before its body is stored.
		await setQuota("dave", 2000);
		const put = await fetch(objects[0]?.actions?.upload.href as string, {
			method: "PUT",
			body: new Uint8Array(fits),
		});
		await expectRefused(put, "dave");
		expect(await storage.stat(sha(fits))).toBeUndefined();
	});

	it("refuses a Xet file by its rebuilt size before rebuilding it (a small xorb cannot amplify past the quota)", async () => {
		await setQuota("dave", 6000);
		const chunk = bytes(1000, 15);
		const token = await send("GET", "/api/models/dave/q/xet-write-token/main", tokens.dave as string);
		const { accessToken, casUrl } = (await token.json()) as { accessToken: string; casUrl: string };
		const xorbHash = "2".repeat(64);
		const xorb = await fetch(`${casUrl}/v1/xorbs/default/${xorbHash}`, {
			method: "POST",
			headers: { authorization: `Bearer ${accessToken}` },
			body: new Uint8Array(xorbOf([chunk])),
		});
		expect(xorb.status).toBe(200);
		// 20 terms of the same 1000-byte chunk: a 20,000-byte file from a 1 KB xorb.
		const rebuilt = Buffer.concat(Array.from({ length: 20 }, () => chunk));
		const shard = shardOf({
			sha256: sha(rebuilt),
			terms: Array.from({ length: 20 }, () => ({ xorb: xorbHash, size: chunk.length, start: 0, end: 1 })),
		});
		const res = await fetch(`${casUrl}/v1/shards`, {
			method: "POST",
			headers: { authorization: `Bearer ${accessToken}` },
			body: new Uint8Array(shard),
		});
		await expectRefused(res, "dave");
		expect(await storage.stat(sha(rebuilt))).toBeUndefined();
		// No quota left at all: xorbs are refused too.
		await setQuota("dave", 0);
		const refusedXorb = await fetch(`${casUrl}/v1/xorbs/default/${"3".repeat(64)}`, {
			method: "POST",
			headers: { authorization: `Bearer ${accessToken}` },
			body: new Uint8Array(xorbOf([bytes(500, 16)])),
		});
		await expectRefused(refusedXorb, "dave");
	});

	it("takes the admin's setting, unlimited, or the default again (HTTP and the CLI)", async () => {
		await setQuota("dave", "unlimited");
		expect(await storageOf("dave")).toMatchObject({ limitBytes: null, limitSource: "account" });
		await setQuota("dave", "default");
		expect(await storageOf("dave")).toMatchObject({ limitBytes: 50_000, limitSource: "default" });
		expect((await send("PUT", "/api/admin/accounts/dave/quota", ADMIN, { bytes: -5 })).status).toBe(400);
		expect((await send("PUT", "/api/admin/accounts/nobody/quota", ADMIN, { bytes: 5 })).status).toBe(404);
		expect(
			(await send("PUT", "/api/admin/accounts/dave/quota", tokens.dave as string, { bytes: 5 })).status,
		).toBe(403);
		const limits = { ...DEFAULT_ACCOUNT_LIMITS, userQuotaBytes: 50_000 };
		expect(await runQuotaCommand(db, limits, ["set", "dave", "12345"])).toMatch(
			/^dave \(user\): \d+ bytes used of 12345 bytes \(set for this account\)$/,
		);
		expect(JSON.parse(await runQuotaCommand(db, limits, ["show", "dave", "--json"]))).toMatchObject({
			limitBytes: 12345,
		});
		const audit = await send("GET", "/api/admin/audit?action=account.quota&limit=1", ADMIN);
		expect(
			((await audit.json()) as { entries: Array<{ actor: string; details: unknown }> }).entries[0],
		).toMatchObject({
			actor: "@cli",
			details: { account: "dave", quotaBytes: 12345 },
		});
	});
});

describe("the organisation quota", () => {
	it("refuses a commit to an organisation's repository past MODELHUB_QUOTA_ORG_BYTES before storing it, and shows the organisation's usage", async () => {
		// A second hub on the same database and store, with a small organisation quota (the first has none).
		const before = (await storageOf("lab")).usedBytes;
		const orgHub = await startHub({
			db,
			storage,
			seed: false,
			adminToken: ADMIN,
			accountLimits: { userQuotaBytes: 50_000, orgQuotaBytes: before + 3000, repoCreatePerMinute: 3 },
		});
		try {
			const commit = (files: Record<string, Buffer>) =>
				fetch(`${orgHub.url}/api/models/lab/shared/commit/main`, {
					method: "POST",
					headers: { authorization: `Bearer ${tokens.carol}`, "content-type": "application/x-ndjson" },
					body: ndjson(files),
				});
			const labStorage = async () => {
				const res = await fetch(`${orgHub.url}/api/accounts/lab/storage`, {
					headers: { authorization: `Bearer ${tokens.carol}` },
				});
				expect(res.status).toBe(200);
				return (await res.json()) as Record<string, unknown>;
			};
			const big = bytes(4000, 20);
			const refused = await commit({ "big.bin": big });
			expect(refused.status).toBe(413);
			const body = (await refused.json()) as { error: string; usedBytes: number; limitBytes: number };
			expect(body.error).toMatch(
				new RegExp(
					`^Storage quota exceeded: lab uses ${before} of its ${before + 3000} bytes, and this upload needs 4000 more \\(the limit is MODELHUB_QUOTA_ORG_BYTES\\)`,
				),
			);
			expect(body).toMatchObject({ usedBytes: before, limitBytes: before + 3000 });
			expect(await storage.stat(sha(big))).toBeUndefined();
			// The organisation's usage and limit, shown to a member as a user's are; carol's own is untouched.
			expect(await labStorage()).toEqual({
				account: "lab",
				kind: "org",
				usedBytes: before,
				limitBytes: before + 3000,
				limitSource: "default",
			});
			// Within the quota it goes through and counts for the organisation.
			const carolBefore = (await storageOf("carol")).usedBytes;
			const small = bytes(1000, 21);
			expect((await commit({ "small.bin": small })).status).toBe(200);
			expect(await labStorage()).toMatchObject({ usedBytes: before + 1000, limitBytes: before + 3000 });
			expect((await storageOf("carol")).usedBytes).toBe(carolBefore);
		} finally {
			await orgHub.close();
		}
	});
});

describe("the repository creation rate", () => {
	it("answers 429 with Retry-After past MODELHUB_REPO_CREATE_PER_MINUTE, per account; the admin is not limited", async () => {
		// dave created one repository in beforeAll: two more fit in the minute.
		for (const name of ["r1", "r2"])
			expect((await send("POST", "/api/repos/create", tokens.dave as string, { name })).status).toBe(200);
		const refused = await send("POST", "/api/repos/create", tokens.dave as string, { name: "r3" });
		expect(refused.status).toBe(429);
		const retryAfter = Number(refused.headers.get("retry-after"));
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(60);
		expect(((await refused.json()) as { error: string }).error).toMatch(
			/Too many repositories created: dave created 3 in the last minute, the limit is 3 \(MODELHUB_REPO_CREATE_PER_MINUTE\)/,
		);
		// Nothing was created; an existing name still answers 409 (create_repo(exist_ok=True) reads it).
		expect((await send("GET", "/api/models/dave/r3", tokens.dave as string)).status).toBe(404);
		expect((await send("POST", "/api/repos/create", tokens.dave as string, { name: "r1" })).status).toBe(409);
		// Many at once cannot slip through together.
		const burst = await Promise.all(
			["b1", "b2", "b3", "b4", "b5"].map((name) =>
				send("POST", "/api/repos/create", tokens.dave as string, { name }),
			),
		);
		expect(burst.map((res) => res.status)).toEqual([429, 429, 429, 429, 429]);
		for (const name of ["a1", "a2", "a3", "a4"]) {
			expect((await send("POST", "/api/repos/create", ADMIN, { name, organization: "lab" })).status).toBe(
				200,
			);
		}
	});
});

describe("the garbage collector over HTTP", () => {
	it("runs for the admin only, dry or real, and answers counts and bytes", async () => {
		expect((await send("POST", "/api/admin/gc", tokens.dave as string, { dryRun: true })).status).toBe(403);
		expect((await send("POST", "/api/admin/gc", ADMIN, { dryRun: "yes" })).status).toBe(400);
		const dry = await send("POST", "/api/admin/gc", ADMIN, { dryRun: true });
		expect(dry.status).toBe(200);
		const report = (await dry.json()) as Record<string, unknown>;
		expect(report).toMatchObject({
			dryRun: true,
			unreferencedBlobs: { count: 0, bytes: 0 },
			reclaimedBytes: 0,
		});
		expect(Object.keys(report).sort()).toEqual(
			[
				"dryRun",
				"expiredXorbs",
				"orphanedObjects",
				"orphanedTrees",
				"reclaimedBytes",
				"staleUploads",
				"temporaries",
				"unreferencedBlobs",
			].sort(),
		);
		const real = await send("POST", "/api/admin/gc", ADMIN, {});
		expect(((await real.json()) as { dryRun: boolean }).dryRun).toBe(false);
	});
});
