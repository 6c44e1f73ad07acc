// Rights are checked when an upload grant is used, not only when it was handed out: a signed LFS upload
// URL and a Xet CAS token stop working when the access token behind them is revoked, when the account
// is removed from the organisation, or when its role there is lowered to read; a reader's pull request
// (commits to refs/pr/N, comments, its LFS and Xet grants) ends when the reader may no longer read the
// repository (removed from its organisation, or the repository made private). Real hub on 127.0.0.1,
// embedded database.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { bytes } from "./support/hf-client-suite.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { shardOf, xorbOf } from "./support/xet-objects.js";

const ADMIN = "rights-at-use-admin-token-0123456789";
const REPO = "acme/shared";

let db: Database;
let hub: RunningHub;

function sha(data: Buffer | string): string {
	return createHash("sha256").update(data).digest("hex");
}

async function admin(method: string, path: string, body?: unknown): Promise<Response> {
	const res = await fetch(`${hub.url}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${ADMIN}`,
			...(body === undefined ? {} : { "content-type": "application/json" }),
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	});
	expect(res.status).toBeLessThan(300);
	return res;
}

/** A new write token for a user: its secret and id. */
async function newToken(user: string): Promise<{ token: string; id: string }> {
	const res = await admin("POST", `/api/admin/users/${user}/tokens`, { role: "write" });
	return (await res.json()) as { token: string; id: string };
}

async function setRole(role: "read" | "write"): Promise<void> {
	await admin("PUT", "/api/admin/orgs/acme/members/alice", { role });
}

/** The signed upload URL the LFS batch API hands out for one object. */
async function uploadUrl(token: string, content: Buffer): Promise<string> {
	const res = await fetch(`${hub.url}/${REPO}.git/info/lfs/objects/batch`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.git-lfs+json" },
		body: JSON.stringify({
			operation: "upload",
			transfers: ["basic"],
			objects: [{ oid: sha(content), size: content.length }],
			hash_algo: "sha256",
		}),
	});
	expect(res.status).toBe(200);
	const [object] = ((await res.json()) as { objects: Array<{ actions?: { upload: { href: string } } }> })
		.objects;
	const href = object?.actions?.upload.href;
	expect(href).toBeDefined();
	return href as string;
}

async function put(href: string, content: Buffer): Promise<{ status: number; error: string | undefined }> {
	const res = await fetch(href, { method: "PUT", body: new Uint8Array(content) });
	const body = (await res.json()) as { error?: string };
	return { status: res.status, error: body.error };
}

beforeAll(async () => {
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({ db, seed: false, adminToken: ADMIN });
	await admin("POST", "/api/admin/users", { name: "alice" });
	await admin("POST", "/api/admin/orgs", { name: "acme", members: [{ user: "alice", role: "write" }] });
	const { token } = await newToken("alice");
	const created = await fetch(`${hub.url}/api/repos/create`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
		body: JSON.stringify({ name: "shared", organization: "acme", private: true }),
	});
	expect(created.status).toBe(200);
}, 60_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
});

describe("a signed LFS upload URL", () => {
	it("is refused (401) once the access token it was issued for is revoked, and keeps nothing", async () => {
		const content = bytes(64 * 1024, 1);
		const { token, id } = await newToken("alice");
		const href = await uploadUrl(token, content);
		// The URL names the token's id, never the token.
		expect(href).not.toContain(token);
		expect(new URL(href).searchParams.get("token")).toBe(id);
		await admin("DELETE", `/api/admin/tokens/${id}`);
		const refused = await put(href, content);
		expect(refused.status).toBe(401);
		expect(refused.error).toBe(
			"the access token this upload URL was issued with has been revoked: ask for a new upload URL with a valid token",
		);
		expect(await hub.storage.stat(sha(content))).toBeUndefined();
	});

	it("leaves an object unregistered when the token is revoked while its bytes arrive", async () => {
		const content = bytes(256 * 1024, 4);
		const { token, id } = await newToken("alice");
		const href = await uploadUrl(token, content);
		let push: ReadableStreamDefaultController<Uint8Array> | undefined;
		const body = new ReadableStream<Uint8Array>({ start: (controller) => void (push = controller) });
		const answer = fetch(href, { method: "PUT", body, duplex: "half" } as RequestInit);
		push?.enqueue(new Uint8Array(content.subarray(0, 1024)));
		// The rights were fine when the upload began; the token is revoked before its last byte.
		await new Promise((resolve) => setTimeout(resolve, 300));
		await admin("DELETE", `/api/admin/tokens/${id}`);
		push?.enqueue(new Uint8Array(content.subarray(1024)));
		push?.close();
		const res = await answer;
		expect(res.status).toBe(401);
		expect(((await res.json()) as { error: string }).error).toMatch(/has been revoked/);
		const { token: other } = await newToken("alice");
		const verify = await fetch(`${hub.url}/${REPO}.git/info/lfs/objects/verify`, {
			method: "POST",
			headers: { authorization: `Bearer ${other}`, "content-type": "application/vnd.git-lfs+json" },
			body: JSON.stringify({ oid: sha(content), size: content.length }),
		});
		expect(verify.status).toBe(404);
	});

	it("is refused (403) once the account's role in the organisation is lowered to read, and works again with write", async () => {
		const content = bytes(64 * 1024, 2);
		const { token } = await newToken("alice");
		const href = await uploadUrl(token, content);
		await setRole("read");
		try {
			const refused = await put(href, content);
			expect(refused.status).toBe(403);
			expect(refused.error).toBe(
				"this upload URL was issued to alice, who no longer has write access to acme/shared: You (alice) have the 'read' role in acme; writing to a repository needs the 'write' role",
			);
			expect(await hub.storage.stat(sha(content))).toBeUndefined();
		} finally {
			await setRole("write");
		}
		// The same URL, the right restored: accepted (the check reads the rights of the moment).
		expect((await put(href, content)).status).toBe(200);
	});

	it("is refused (403) once the account is removed from the organisation", async () => {
		const content = bytes(64 * 1024, 3);
		const { token } = await newToken("alice");
		const href = await uploadUrl(token, content);
		await admin("DELETE", "/api/admin/orgs/acme/members/alice");
		try {
			const refused = await put(href, content);
			expect(refused.status).toBe(403);
			expect(refused.error).toBe(
				"this upload URL was issued to alice, who no longer has write access to acme/shared: acme/shared is private, and alice may not read it (not a member of acme)",
			);
			expect(await hub.storage.stat(sha(content))).toBeUndefined();
		} finally {
			await setRole("write");
		}
	});
});

describe("a Xet CAS token", () => {
	const chunk = Buffer.from("bytes sent through xet\n");
	const xorb = xorbOf([chunk]);

	async function xetToken(token: string): Promise<{ accessToken: string; casUrl: string }> {
		const res = await fetch(`${hub.url}/api/models/${REPO}/xet-write-token/main`, {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(res.status).toBe(200);
		return (await res.json()) as { accessToken: string; casUrl: string };
	}

	async function sendXorb(
		cas: { accessToken: string; casUrl: string },
		hash: string,
	): Promise<{ status: number; body: { error?: string; was_inserted?: boolean } }> {
		const res = await fetch(`${cas.casUrl}/v1/xorbs/default/${hash}`, {
			method: "POST",
			headers: { authorization: `Bearer ${cas.accessToken}` },
			body: new Uint8Array(xorb),
		});
		return { status: res.status, body: (await res.json()) as { error?: string; was_inserted?: boolean } };
	}

	it("is refused (403) at once when the role is lowered to read or the account removed, not an hour later", async () => {
		const { token } = await newToken("alice");
		const cas = await xetToken(token);
		expect(await sendXorb(cas, "a".repeat(64))).toEqual({ status: 200, body: { was_inserted: true } });

		await setRole("read");
		try {
			const refused = await sendXorb(cas, "b".repeat(64));
			expect(refused.status).toBe(403);
			expect(refused.body.error).toBe(
				"this Xet token was issued to alice, who no longer has write access to acme/shared: You (alice) have the 'read' role in acme; writing to a repository needs the 'write' role",
			);
			const shard = shardOf({
				sha256: sha(chunk),
				terms: [{ xorb: "a".repeat(64), size: chunk.length, start: 0, end: 1 }],
			});
			const shardRefused = await fetch(`${cas.casUrl}/v1/shards`, {
				method: "POST",
				headers: { authorization: `Bearer ${cas.accessToken}` },
				body: new Uint8Array(shard),
			});
			expect(shardRefused.status).toBe(403);
		} finally {
			await setRole("write");
		}

		await admin("DELETE", "/api/admin/orgs/acme/members/alice");
		try {
			const removed = await sendXorb(cas, "c".repeat(64));
			expect(removed.status).toBe(403);
			expect(removed.body.error).toMatch(
				/acme\/shared is private, and alice may not read it \(not a member of acme\)$/,
			);
		} finally {
			await setRole("write");
		}
		// Write restored: the token (still within its hour) works again.
		expect((await sendXorb(cas, "d".repeat(64))).status).toBe(200);
	});

	it("is refused (401) once the access token it was issued with is revoked", async () => {
		const { token, id } = await newToken("alice");
		const cas = await xetToken(token);
		await admin("DELETE", `/api/admin/tokens/${id}`);
		expect((await sendXorb(cas, "e".repeat(64))).status).toBe(401);
	});
});

describe("upload grants of the admin token (MODELHUB_ADMIN_TOKEN)", () => {
	const OTHER_ADMIN = "rights-at-use-another-admin-token-987";

	/** A hub on the same database and storage with `adminToken`, for the body's length. */
	async function withHub(adminToken: string, body: (other: RunningHub) => Promise<void>): Promise<void> {
		const other = await startHub({ db, storage: hub.storage, seed: false, adminToken, logLevel: "silent" });
		try {
			await body(other);
		} finally {
			await other.close();
		}
	}

	/** The same URL on another hub (the URLs the hub hands out name the host they were asked of). */
	const on = (other: RunningHub, url: string): string =>
		`${other.url}${url.slice(new URL(url).origin.length)}`;

	it("end when the hub restarts with another admin token, and keep working with the same one", async () => {
		const content = bytes(64 * 1024, 9);
		const href = await uploadUrl(ADMIN, content);
		// The URL carries a fingerprint of the admin token, never the token.
		expect(href).not.toContain(ADMIN);
		expect(new URL(href).searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{22}$/);
		await withHub(OTHER_ADMIN, async (other) => {
			const refused = await put(on(other, href), content);
			expect(refused.status).toBe(401);
			expect(refused.error).toBe(
				"the admin token this upload URL was issued with is no longer the hub's admin token: ask for a new upload URL with the current one",
			);
			expect(await hub.storage.stat(sha(content))).toBeUndefined();
		});
		await withHub(ADMIN, async (same) => {
			expect((await put(on(same, href), content)).status).toBe(200);
		});
	});

	it("end a Xet token when the hub restarts with another admin token", async () => {
		const res = await fetch(`${hub.url}/api/models/${REPO}/xet-write-token/main`, {
			headers: { authorization: `Bearer ${ADMIN}` },
		});
		expect(res.status).toBe(200);
		const cas = (await res.json()) as { accessToken: string; casUrl: string };
		const send = (casUrl: string, hash: string): Promise<Response> =>
			fetch(`${casUrl}/v1/xorbs/default/${hash}`, {
				method: "POST",
				headers: { authorization: `Bearer ${cas.accessToken}` },
				body: new Uint8Array(xorbOf([Buffer.from(`admin xorb ${hash}\n`)])),
			});
		await withHub(OTHER_ADMIN, async (other) => {
			const refused = await send(on(other, cas.casUrl), "1".repeat(64));
			expect(refused.status).toBe(401);
			expect(((await refused.json()) as { error: string }).error).toBe(
				"the admin token this Xet token was issued with is no longer the hub's admin token: ask for a new Xet token with the current one",
			);
		});
		await withHub(ADMIN, async (same) => {
			expect((await send(on(same, cas.casUrl), "2".repeat(64))).status).toBe(200);
		});
	});
});

describe("a reader's pull request", () => {
	const tokens: Record<string, string> = {};
	const pr = (num: number) => `refs/pr/${num}`;

	/** A call as `token` (JSON, or NDJSON for a commit), answered with its status and body. */
	async function as(
		token: string,
		method: string,
		path: string,
		body?: unknown,
		type = "application/json",
	): Promise<{ status: number; body: Record<string, unknown> }> {
		const res = await fetch(`${hub.url}${path}`, {
			method,
			headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": type }) },
			...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
		});
		return { status: res.status, body: (await res.json()) as Record<string, unknown> };
	}

	/** One text file committed as huggingface_hub's NDJSON, to `revision` or into a new pull request. */
	function commit(token: string, repo: string, revision: string, path: string, createPr = false) {
		const lines = [
			{ key: "header", value: { summary: `Add ${path}`, description: "" } },
			{
				key: "file",
				value: { path, content: Buffer.from(`${path}\n`).toString("base64"), encoding: "base64" },
			},
		];
		return as(
			token,
			"POST",
			`/api/models/${repo}/commit/${encodeURIComponent(revision)}${createPr ? "?create_pr=1" : ""}`,
			lines.map((line) => JSON.stringify(line)).join("\n"),
			"application/x-ndjson",
		);
	}

	/** What the holder can do with the pull request they opened, and the grants they hold for it. */
	async function openWithGrants(token: string, repo: string, content: Buffer) {
		const opened = await commit(token, repo, "main", "proposal.txt", true);
		expect(opened.status).toBe(200);
		const num = Number(/\/discussions\/(\d+)$/.exec(String(opened.body.pullRequestUrl))?.[1]);
		expect((await commit(token, repo, pr(num), "more.txt")).status).toBe(200);
		expect(
			(await as(token, "POST", `/api/models/${repo}/discussions/${num}/comment`, { comment: "Please look" }))
				.status,
		).toBe(200);
		const batch = await as(
			token,
			"POST",
			`/${repo}.git/info/lfs/objects/batch`,
			{
				operation: "upload",
				objects: [{ oid: sha(content), size: content.length }],
				ref: { name: pr(num) },
			},
			"application/vnd.git-lfs+json",
		);
		expect(batch.status).toBe(200);
		const href = (batch.body.objects as Array<{ actions: { upload: { href: string } } }>)[0]?.actions.upload
			.href as string;
		expect(new URL(href).searchParams.get("right")).toBe("pull-request");
		const xet = await as(token, "GET", `/api/models/${repo}/xet-write-token/${encodeURIComponent(pr(num))}`);
		expect(xet.status).toBe(200);
		return { num, href, cas: xet.body as { accessToken: string; casUrl: string } };
	}

	/** Everything the holder tries once the read access is gone: each refused, nothing recorded. */
	async function expectRefused(
		token: string,
		user: string,
		repo: string,
		held: Awaited<ReturnType<typeof openWithGrants>>,
		content: Buffer,
	) {
		const head = async () =>
			(
				(await (
					await admin("GET", `/api/models/${repo}/revision/${encodeURIComponent(pr(held.num))}`)
				).json()) as {
					sha: string;
				}
			).sha;
		const before = await head();
		const events = async () =>
			(
				(await (await admin("GET", `/api/models/${repo}/discussions/${held.num}`)).json()) as {
					events: unknown[];
				}
			).events.length;
		const eventsBefore = await events();

		// The repository answers as if it did not exist, as it does to anyone who may not read it.
		for (const refused of [
			await commit(token, repo, pr(held.num), "late.txt"),
			await as(token, "POST", `/api/models/${repo}/discussions/${held.num}/comment`, {
				comment: "Still here?",
			}),
			await as(token, "POST", `/api/models/${repo}/discussions/${held.num}/status`, { status: "closed" }),
			await commit(token, repo, "main", "another.txt", true),
		]) {
			expect(refused).toMatchObject({ status: 404, body: { error: "Repository not found" } });
		}
		const why = `${repo} is private, and ${user} may not read it (not a member of acme)`;
		const upload = await put(held.href, content);
		expect(upload).toEqual({
			status: 403,
			error: `this upload URL was issued to ${user}, who no longer has the right to open pull requests on ${repo}: ${why}`,
		});
		expect(await hub.storage.stat(sha(content))).toBeUndefined();
		const xorb = await fetch(`${held.cas.casUrl}/v1/xorbs/default/${"f".repeat(64)}`, {
			method: "POST",
			headers: { authorization: `Bearer ${held.cas.accessToken}` },
			body: new Uint8Array(xorbOf([Buffer.from(`from ${user}\n`)])),
		});
		expect(xorb.status).toBe(403);
		expect(((await xorb.json()) as { error: string }).error).toBe(
			`this Xet token was issued to ${user}, who no longer has the right to open pull requests on ${repo}: ${why}`,
		);
		expect(await head()).toBe(before);
		expect(await events()).toBe(eventsBefore);
	}

	beforeAll(async () => {
		await admin("POST", "/api/admin/users", { name: "bob" });
		await admin("POST", "/api/admin/users", { name: "carol" });
		await admin("PUT", "/api/admin/orgs/acme/members/bob", { role: "read" });
		for (const user of ["alice", "bob", "carol"]) tokens[user] = (await newToken(user)).token;
		const created = await as(tokens.alice as string, "POST", "/api/repos/create", {
			name: "open",
			organization: "acme",
		});
		expect(created.status).toBe(200);
	});

	it("ends at once when the reader is removed from the organisation of a private repository", async () => {
		const bob = tokens.bob as string;
		const content = bytes(64 * 1024, 11);
		const held = await openWithGrants(bob, REPO, content);
		await admin("DELETE", "/api/admin/orgs/acme/members/bob");
		try {
			await expectRefused(bob, "bob", REPO, held, content);
		} finally {
			await admin("PUT", "/api/admin/orgs/acme/members/bob", { role: "read" });
		}
		// A member again: the same grant works (the check reads the rights of the moment).
		expect((await put(held.href, content)).status).toBe(200);
		expect((await commit(bob, REPO, pr(held.num), "late.txt")).status).toBe(200);
	});

	it("ends at once when the repository is made private to a reader who is not a member", async () => {
		const carol = tokens.carol as string;
		const content = bytes(64 * 1024, 12);
		const held = await openWithGrants(carol, "acme/open", content);
		await admin("PUT", "/api/models/acme/open/settings", { private: true });
		try {
			await expectRefused(carol, "carol", "acme/open", held, content);
		} finally {
			await admin("PUT", "/api/models/acme/open/settings", { private: false });
		}
		expect((await commit(carol, "acme/open", pr(held.num), "late.txt")).status).toBe(200);
	});
});
