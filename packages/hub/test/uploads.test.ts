// Upload edge cases on the embedded database: signed LFS URLs (tampered, expired, wrong bytes),
// resumable LFS batches, limits with clear errors, the authentication failure limit, stalled uploads,
// the Xet CAS (tokens, foreign or corrupt xorbs, shards that do not add up) and a hub with Xet off.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { loadSigningKey, sign } from "../src/uploads/signing.js";
import { bytes } from "./support/hf-client-suite.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";
import { shardOf, xorbOf } from "./support/xet-objects.js";

const ADMIN = "uploads-admin-token-0123456789abcdef";
const MIB = 1024 * 1024;

function sha(data: Buffer | string): string {
	return createHash("sha256").update(data).digest("hex");
}

let db: Database;
let hub: RunningHub;
let dir: string;
const tokens: Record<string, string> = {};

async function post(
	path: string,
	token: string,
	body: unknown,
	type = "application/json",
): Promise<Response> {
	return fetch(`${hub.url}${path}`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": type },
		body:
			typeof body === "string" ? body : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
	});
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "modelhub-uploads-"));
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({
		db,
		seed: false,
		adminToken: ADMIN,
		maxFileBytes: 30 * MIB,
		uploads: { maxRegularFileBytes: MIB, maxCommitOperations: 5, idleTimeoutMs: 1500 },
		authFailureLimit: 5,
	});
	for (const name of ["alice", "bob"]) {
		const res = await fetch(`${hub.url}/api/admin/users`, {
			method: "POST",
			headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
			body: JSON.stringify({ name }),
		});
		tokens[name] = ((await res.json()) as { token: string }).token;
		expect((await post("/api/repos/create", tokens[name] as string, { name: "edge" })).status).toBe(200);
	}
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

interface BatchObject {
	oid: string;
	size: number;
	actions?: { upload: { href: string }; verify: { href: string } };
	error?: { code: number; message: string };
}

async function batch(
	repo: string,
	token: string,
	objects: Array<{ oid: string; size: number }>,
): Promise<BatchObject[]> {
	const res = await post(
		`/${repo}.git/info/lfs/objects/batch`,
		token,
		{ operation: "upload", transfers: ["basic"], objects, hash_algo: "sha256" },
		"application/vnd.git-lfs+json",
	);
	expect(res.status).toBe(200);
	return ((await res.json()) as { objects: BatchObject[] }).objects;
}

describe("LFS uploads", () => {
	const content = bytes(3 * MIB + 5, 31);
	const oid = sha(content);

	it("sign each upload URL for one object: tampered or expired URLs and wrong bytes are refused, nothing kept", async () => {
		const [object] = await batch("alice/edge", tokens.alice as string, [{ oid, size: content.length }]);
		const href = object?.actions?.upload.href as string;
		expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/lfs-upload\/alice\/edge\/[0-9a-f]{64}\?/);
		expect(href).not.toContain(tokens.alice);

		const tampered = new URL(href);
		tampered.searchParams.set("size", String(content.length + 1));
		expect((await fetch(tampered, { method: "PUT", body: new Uint8Array(content) })).status).toBe(403);
		const otherRepo = href.replace("/alice/edge/", "/bob/edge/");
		expect((await fetch(otherRepo, { method: "PUT", body: new Uint8Array(content) })).status).toBe(403);

		const key = await loadSigningKey(db);
		const url = new URL(href);
		const expires = String(Math.floor(Date.now() / 1000) - 10);
		url.searchParams.set("expires", expires);
		url.searchParams.set(
			"signature",
			sign(key, [
				"lfs-upload",
				"alice/edge",
				oid,
				String(content.length),
				expires,
				"alice",
				url.searchParams.get("token") ?? "",
				"write",
			]),
		);
		const expired = await fetch(url, { method: "PUT", body: new Uint8Array(content) });
		expect(expired.status).toBe(403);
		expect(((await expired.json()) as { error: string }).error).toMatch(/expired/);

		const wrong = await fetch(href, { method: "PUT", body: new Uint8Array(bytes(content.length, 32)) });
		expect(wrong.status).toBe(400);
		expect(((await wrong.json()) as { error: string }).error).toMatch(/SHA-256/);
		expect(await hub.storage.stat(oid)).toBeUndefined();
		const verifyEarly = await post(`/alice/edge.git/info/lfs/objects/verify`, tokens.alice as string, {
			oid,
			size: content.length,
		});
		expect(verifyEarly.status).toBe(404);

		expect((await fetch(href, { method: "PUT", body: new Uint8Array(content) })).status).toBe(200);
		const verify = await post(`/alice/edge.git/info/lfs/objects/verify`, tokens.alice as string, {
			oid,
			size: content.length,
		});
		expect(verify.status).toBe(200);
	});

	it("skip objects the repository already holds (a re-run upload resumes), but not another repository's", async () => {
		const [again] = await batch("alice/edge", tokens.alice as string, [{ oid, size: content.length }]);
		expect(again).toEqual({ oid, size: content.length, authenticated: true });
		const [other] = await batch("bob/edge", tokens.bob as string, [{ oid, size: content.length }]);
		expect(other?.actions?.upload.href).toBeDefined();
	});

	it("answer per-object errors for objects over MODELHUB_MAX_FILE_BYTES and malformed ones", async () => {
		const objects = await batch("alice/edge", tokens.alice as string, [
			{ oid: "a".repeat(64), size: 31 * MIB },
			{ oid: "nope", size: 1 },
		]);
		expect(objects[0]?.error).toEqual({
			code: 422,
			message: expect.stringMatching(/MODELHUB_MAX_FILE_BYTES = 31457280/),
		});
		expect(objects[1]?.error?.code).toBe(422);
		const download = await post(
			`/alice/edge.git/info/lfs/objects/batch`,
			tokens.alice as string,
			{ operation: "download", objects: [{ oid: "0".repeat(64), size: 1 }] },
			"application/vnd.git-lfs+json",
		);
		// Downloads are answered for git-lfs (git-http.test.ts); an object the repository lacks, per object.
		expect(download.status).toBe(200);
		expect(((await download.json()) as { objects: BatchObject[] }).objects[0]?.error?.code).toBe(404);
		const unknown = await post(
			`/alice/edge.git/info/lfs/objects/batch`,
			tokens.alice as string,
			{ operation: "delete", objects: [] },
			"application/vnd.git-lfs+json",
		);
		expect(unknown.status).toBe(422);
	});
});

describe("commit limits", () => {
	function ndjson(lines: unknown[]): string {
		return lines.map((line) => JSON.stringify(line)).join("\n");
	}
	const header = { key: "header", value: { summary: "limits" } };
	const file = (path: string, size: number) => ({
		key: "file",
		value: { path, content: Buffer.alloc(size, 97).toString("base64"), encoding: "base64" },
	});

	it("refuse inline files over MODELHUB_MAX_REGULAR_FILE_BYTES, too many operations and overlong lines, with 413", async () => {
		const big = await post(
			"/api/models/alice/edge/commit/main",
			tokens.alice as string,
			ndjson([header, file("big.txt", MIB + 1)]),
			"application/x-ndjson",
		);
		expect(big.status).toBe(413);
		expect(((await big.json()) as { error: string }).error).toMatch(/MODELHUB_MAX_REGULAR_FILE_BYTES/);
		const many = await post(
			"/api/models/alice/edge/commit/main",
			tokens.alice as string,
			ndjson([header, ...Array.from({ length: 6 }, (_, i) => file(`f${i}.txt`, 3))]),
			"application/x-ndjson",
		);
		expect(many.status).toBe(413);
		expect(((await many.json()) as { error: string }).error).toMatch(/at most 5 operations/);
		const line = await post(
			"/api/models/alice/edge/commit/main",
			tokens.alice as string,
			`${JSON.stringify(header)}\n${"x".repeat(3 * MIB)}`,
			"application/x-ndjson",
		);
		expect(line.status).toBe(413);
		const history = (await (
			await fetch(`${hub.url}/api/models/alice/edge/commits/main`)
		).json()) as unknown[];
		expect(history).toHaveLength(1);
	});

	it("refuse bad commits with 400 and the reason: no header, bad paths, bad base64, an unknown branch", async () => {
		const cases: Array<[string, RegExp, number?]> = [
			[ndjson([file("a.txt", 1)]), /first line of a commit must be its header/],
			[ndjson([header, file("../a.txt", 1)]), /'\.' or '\.\.' segment/],
			[ndjson([header, { key: "file", value: { path: "a.txt", content: "@@@=" } }]), /not valid base64/],
			[ndjson([header, { key: "rename", value: {} }]), /unknown operation/],
			[ndjson([{ key: "header", value: { summary: "" } }]), /summary must be a non-empty string/],
			[
				ndjson([{ key: "header", value: { summary: "x", parentCommit: "xyz" } }]),
				/parentCommit must be a commit id/,
			],
		];
		for (const [body, message] of cases) {
			const res = await post(
				"/api/models/alice/edge/commit/main",
				tokens.alice as string,
				body,
				"application/x-ndjson",
			);
			expect(res.status, body.slice(0, 80)).toBe(400);
			expect(((await res.json()) as { error: string }).error, body.slice(0, 80)).toMatch(message);
		}
		const unknown = await post(
			"/api/models/alice/edge/commit/nope",
			tokens.alice as string,
			ndjson([header]),
			"application/x-ndjson",
		);
		expect(unknown.status).toBe(404);
		expect(unknown.headers.get("x-error-code")).toBe("RevisionNotFound");
	});

	it("cut off an upload that stalls (MODELHUB_UPLOAD_IDLE_TIMEOUT_MS) while a slow but moving one continues", async () => {
		const socket = connect(Number(new URL(hub.url).port), "127.0.0.1");
		await new Promise((resolve) => socket.once("connect", resolve));
		socket.write(
			`POST /api/models/alice/edge/commit/main HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.alice}\r\nContent-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n${JSON.stringify(header)}\n`,
		);
		const started = Date.now();
		await new Promise((resolve) => socket.once("close", resolve));
		const elapsed = Date.now() - started;
		expect(elapsed).toBeGreaterThanOrEqual(1400);
		expect(elapsed).toBeLessThan(5000);
	});
});

describe("the authentication failure limit", () => {
	it("answers 429 with Retry-After to further unknown tokens from an address after too many bad ones; valid tokens and anonymous reads go on", async () => {
		const limited = await startHub({ db, seed: false, authFailureLimit: 3, authFailureWindowMs: 60_000 });
		try {
			for (let i = 0; i < 3; i++) {
				const res = await fetch(`${limited.url}/api/whoami-v2`, {
					headers: { authorization: `Bearer mh_wrong${i}` },
				});
				expect(res.status).toBe(401);
				expect(res.headers.get("x-error-message")).toBe("Invalid credentials in Authorization header");
			}
			const blocked = await fetch(`${limited.url}/api/whoami-v2`, {
				headers: { authorization: "Bearer mh_wrong3" },
			});
			expect(blocked.status).toBe(429);
			expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
			expect(((await blocked.json()) as { error: string }).error).toMatch(
				/Too many failed authentication attempts from this address/,
			);
			// This hub's valid tokens (not guessable) and requests without credentials are served as usual.
			const valid = await fetch(`${limited.url}/api/whoami-v2`, {
				headers: { authorization: `Bearer ${tokens.alice}` },
			});
			expect(valid.status).toBe(200);
			expect((await fetch(`${limited.url}/api/models`)).status).toBe(200);
		} finally {
			await limited.close();
		}
	});
});

describe("tokens of another service", () => {
	it("are read as anonymous on reads (HF_TOKEN goes wherever HF_ENDPOINT points), refused on writes", async () => {
		// A hub of its own: the refusals below count against this address.
		const other = await startHub({ db, storage: hub.storage, seed: false, authFailureLimit: 50 });
		try {
			const foreign = { authorization: "Bearer hf_aTokenOfThePublicHub0123456789" };
			const whoami = await fetch(`${other.url}/api/whoami-v2`, { headers: foreign });
			expect(whoami.status).toBe(401);
			const write = await fetch(`${other.url}/api/repos/create`, {
				method: "POST",
				headers: { ...foreign, "content-type": "application/json" },
				body: JSON.stringify({ name: "x" }),
			});
			expect(write.status).toBe(401);
			// Said plainly: a huggingface.co token is not this hub's (X-Error-Message keeps the public hub's text).
			expect(((await write.json()) as { error: string }).error).toMatch(
				/^This is a huggingface\.co token \(hf_…\): this hub only accepts tokens it issued itself/,
			);
			expect(write.headers.get("x-error-message")).toBe("Invalid credentials in Authorization header");
			// Reads go on however often (the token counts as a failed credential, at most
			// MODELHUB_AUTH_TOKEN_FAILURE_LIMIT times: then it is no longer compared with the admin token).
			for (let i = 0; i < 30; i++)
				expect((await fetch(`${other.url}/api/models/alice/edge`, { headers: foreign })).status).toBe(200);
			expect(
				(await fetch(`${other.url}/alice/edge/resolve/main/.gitattributes`, { headers: foreign })).status,
			).toBe(200);
			// One of this hub's tokens that no longer works is refused even on reads: its owner should know.
			const stale = await fetch(`${other.url}/api/models/alice/edge`, {
				headers: { authorization: "Bearer mh_revokedOrMistyped000000" },
			});
			expect(stale.status).toBe(401);
		} finally {
			await other.close();
		}
	});
});

describe("the Xet CAS", () => {
	const chunk = Buffer.from("hello from xet\n");
	const xorb = xorbOf([chunk]);
	const xorbHash = "1".repeat(64);

	async function xetToken(user: string): Promise<{ accessToken: string; casUrl: string }> {
		const res = await fetch(`${hub.url}/api/models/${user}/edge/xet-write-token/main`, {
			headers: { authorization: `Bearer ${tokens[user]}` },
		});
		expect(res.status).toBe(200);
		return (await res.json()) as { accessToken: string; casUrl: string };
	}

	it("asks for a Xet token, refuses xorbs that are not xorbs, and offers neither dedup nor downloads", async () => {
		const { accessToken, casUrl } = await xetToken("alice");
		expect(casUrl).toBe(`${hub.url}/xet`);
		const auth = { authorization: `Bearer ${accessToken}` };
		expect(
			(await fetch(`${casUrl}/v1/xorbs/default/${xorbHash}`, { method: "POST", body: new Uint8Array(xorb) }))
				.status,
		).toBe(401);
		expect((await fetch(`${casUrl}/v1/chunks/default-merkledb/${xorbHash}`, { headers: auth })).status).toBe(
			404,
		);
		expect((await fetch(`${casUrl}/v2/shards`, { method: "POST", headers: auth, body: "x" })).status).toBe(
			404,
		);
		expect((await fetch(`${casUrl}/v1/reconstructions/${xorbHash}`, { headers: auth })).status).toBe(404);
		for (const body of [
			Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]),
			xorb.subarray(0, xorb.length - 2),
			Buffer.concat([xorb, Buffer.from("XETBLOBjunk")]),
		]) {
			const res = await fetch(`${casUrl}/v1/xorbs/default/${xorbHash}`, {
				method: "POST",
				headers: auth,
				body: new Uint8Array(body),
			});
			expect(res.status).toBe(400);
		}
		const ok = await fetch(`${casUrl}/v1/xorbs/default/${xorbHash}`, {
			method: "POST",
			headers: auth,
			body: new Uint8Array(xorb),
		});
		expect(await ok.json()).toEqual({ was_inserted: true });
		const again = await fetch(`${casUrl}/v1/xorbs/default/${xorbHash}`, {
			method: "POST",
			headers: auth,
			body: new Uint8Array(xorb),
		});
		expect(await again.json()).toEqual({ was_inserted: false });
	});

	it("rebuilds a file only from its uploader's own xorbs, and only when its SHA-256 matches", async () => {
		const bob = await xetToken("bob");
		const foreign = shardOf({
			sha256: sha(chunk),
			terms: [{ xorb: xorbHash, size: chunk.length, start: 0, end: 1 }],
		});
		const stolen = await fetch(`${bob.casUrl}/v1/shards`, {
			method: "POST",
			headers: { authorization: `Bearer ${bob.accessToken}` },
			body: new Uint8Array(foreign),
		});
		expect(stolen.status).toBe(400);
		expect(((await stolen.json()) as { error: string }).error).toMatch(/was not uploaded by this account/);

		const alice = await xetToken("alice");
		const auth = { authorization: `Bearer ${alice.accessToken}` };
		const lying = shardOf({
			sha256: sha("something else"),
			terms: [{ xorb: xorbHash, size: chunk.length, start: 0, end: 1 }],
		});
		const refused = await fetch(`${alice.casUrl}/v1/shards`, {
			method: "POST",
			headers: auth,
			body: new Uint8Array(lying),
		});
		expect(refused.status).toBe(400);
		expect(((await refused.json()) as { error: string }).error).toMatch(/does not match the shard/);
		const badSize = shardOf({ sha256: sha(chunk), terms: [{ xorb: xorbHash, size: 3, start: 0, end: 1 }] });
		expect(
			(
				await fetch(`${alice.casUrl}/v1/shards`, {
					method: "POST",
					headers: auth,
					body: new Uint8Array(badSize),
				})
			).status,
		).toBe(400);
		expect(
			(
				await fetch(`${alice.casUrl}/v1/shards`, {
					method: "POST",
					headers: auth,
					body: "not a shard, not at all, no no no no no no no no",
				})
			).status,
		).toBe(400);

		const good = await fetch(`${alice.casUrl}/v1/shards`, {
			method: "POST",
			headers: auth,
			body: new Uint8Array(foreign),
		});
		expect(await good.json()).toEqual({ result: 1 });
		const commit = await post(
			"/api/models/alice/edge/commit/main",
			tokens.alice as string,
			[
				{ key: "header", value: { summary: "From Xet" } },
				{ key: "lfsFile", value: { path: "xet.bin", algo: "sha256", oid: sha(chunk), size: chunk.length } },
			]
				.map((line) => JSON.stringify(line))
				.join("\n"),
			"application/x-ndjson",
		);
		expect(commit.status).toBe(200);
		expect(await (await fetch(`${hub.url}/alice/edge/resolve/main/xet.bin`)).text()).toBe(chunk.toString());
	});

	it("stops honouring a Xet token when the access token it was issued with is revoked", async () => {
		const { accessToken, casUrl } = await xetToken("alice");
		const tokenId = (await db.query<{ id: string }>("SELECT id FROM access_tokens WHERE account = 'alice'"))
			.rows[0]?.id as string;
		const revoke = await fetch(`${hub.url}/api/admin/tokens/${tokenId}`, {
			method: "DELETE",
			headers: { authorization: `Bearer ${ADMIN}` },
		});
		expect(revoke.status).toBe(200);
		const res = await fetch(`${casUrl}/v1/xorbs/default/${"2".repeat(64)}`, {
			method: "POST",
			headers: { authorization: `Bearer ${accessToken}` },
			body: new Uint8Array(xorb),
		});
		expect(res.status).toBe(401);
	});
});

describe("a hub with Xet turned off (MODELHUB_XET=false)", () => {
	it("makes the default huggingface_hub fail at once, naming HF_HUB_DISABLE_XET=1, and works with it set", async () => {
		const off = await startHub({ db, seed: false, uploads: { xet: false } });
		try {
			const token = (
				(await (
					await fetch(`${hub.url}/api/admin/users`, {
						method: "POST",
						headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
						body: JSON.stringify({ name: "carol" }),
					})
				).json()) as { token: string }
			).token;
			expect(
				(
					await fetch(`${off.url}/api/repos/create`, {
						method: "POST",
						headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
						body: JSON.stringify({ name: "no-xet" }),
					})
				).status,
			).toBe(200);
			const weights = join(dir, "weights.bin");
			writeFileSync(weights, bytes(2 * MIB, 41));
			const started = Date.now();
			const failed = await runHubClient<Record<string, { error?: string; message?: string; ok?: string }>>(
				"upload_path",
				off.url,
				join(dir, "xet-off"),
				{ token, repo: "carol/no-xet", path: weights },
				{},
				"hf_hub_sharing.py",
			);
			expect(Date.now() - started).toBeLessThan(30_000);
			expect(failed.result?.message).toMatch(/set-HF_HUB_DISABLE_XET=1/);
			const worked = await runHubClient<Record<string, { ok?: string }>>(
				"upload_path",
				off.url,
				join(dir, "xet-off-lfs"),
				{ token, repo: "carol/no-xet", path: weights },
				{ HF_HUB_DISABLE_XET: "1" },
				"hf_hub_sharing.py",
			);
			expect(worked.result?.ok).toMatch(/^[0-9a-f]{40}$/);
		} finally {
			await off.close();
		}
	}, 120_000);
});
