// Serving files from cached commit metadata (issue 21: a small file's resolve cost two database queries
// and a storage read per request). Counts the database reads and storage reads the hub makes: after the
// first resolve of a file nothing is read again, and every change a reader could see is heard at once.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_UPLOAD_SETTINGS } from "../src/config.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { ByteBudgetLru } from "../src/serving/lru.js";
import { openBlobStore } from "../src/storage/open.js";
import type { BlobStore } from "../src/storage/types.js";
import { ADMIN_TOKEN } from "./support/hub-suite.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";

/** Largest file kept in memory in these tests (the default is 64 KiB). */
const MAX_BLOB_FILE_BYTES = 1024;

let db: Database;
let storage: BlobStore & { close(): Promise<void> };
let hub: RunningHub;
const tokens: Record<string, string> = {};

/**
 * Statements the hub runs while recording: writes (batched download counts) and the lookup of the
 * request's token (once per request that carries one: rights are the token's as of now) left out.
 */
let reads: string[] | undefined;
/** SHA-256s the hub reads from storage, while recording. */
let storageReads: string[] | undefined;

function countedDb(inner: Database): Database {
	const outer = Object.create(inner) as Database;
	outer.query = async <R>(sql: string, params?: readonly unknown[]) => {
		if (reads && !/^\s*(INSERT|UPDATE|DELETE)\b/i.test(sql) && !/\bFROM access_tokens\b/.test(sql))
			reads.push(sql);
		return inner.query<R>(sql, params);
	};
	return outer;
}

function countedStorage(inner: BlobStore): BlobStore {
	const outer = Object.create(inner) as BlobStore;
	outer.read = async (sha256, range) => {
		storageReads?.push(sha256);
		return inner.read(sha256, range);
	};
	return outer;
}

/** What `work` made the hub read: database statements and storage objects. */
async function traced<T>(
	work: () => Promise<T>,
): Promise<{ value: T; reads: string[]; storageReads: string[] }> {
	reads = [];
	storageReads = [];
	try {
		const value = await work();
		return { value, reads, storageReads };
	} finally {
		reads = undefined;
		storageReads = undefined;
	}
}

async function api(method: string, path: string, token: string, body?: unknown): Promise<Response> {
	return fetch(`${hub.url}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${token}`,
			...(body === undefined ? {} : { "content-type": "application/json" }),
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	});
}

/** Commits files (path → text) to a branch; the new commit's id. */
async function commit(
	repo: string,
	files: Record<string, string>,
	token = tokens.alice as string,
): Promise<string> {
	const res = await fetch(`${hub.url}/api/models/${repo}/commit/main`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
		body: [
			{ key: "header", value: { summary: "files" } },
			...Object.entries(files).map(([path, text]) => ({
				key: "file",
				value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" },
			})),
		]
			.map((line) => JSON.stringify(line))
			.join("\n"),
	});
	expect(res.status).toBe(200);
	// The analysis of a commit to main announces what it derived (a change that clears the revisions):
	// waited for, so that what a test counts is what it did.
	await hub.server.analysis.idle();
	return ((await res.json()) as { commitOid: string }).commitOid;
}

async function resolve(
	path: string,
	options: { method?: string; token?: string | undefined; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; headers: Headers }> {
	const res = await fetch(`${hub.url}${path}`, {
		method: options.method ?? "GET",
		headers: {
			...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
			...options.headers,
		},
	});
	return { status: res.status, body: await res.text(), headers: res.headers };
}

beforeAll(async () => {
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	storage = await openBlobStore({ kind: "disk", dir: undefined });
	hub = await startHub({
		db: countedDb(db),
		storage: countedStorage(storage),
		seed: false,
		adminToken: ADMIN_TOKEN,
		logLevel: "silent",
		serving: { maxBlobFileBytes: MAX_BLOB_FILE_BYTES },
		downloads: { flushIntervalMs: 50 },
		// Every file in the file store, whose reads these tests count: small files otherwise live in the
		// database (small_blobs), and small-blobs.test.ts covers reading them.
		uploads: { ...DEFAULT_UPLOAD_SETTINGS, smallBlobMaxBytes: 0 },
	});
	for (const name of ["alice", "bob", "carol"]) {
		const created = await api("POST", "/api/admin/users", ADMIN_TOKEN, { name });
		tokens[name] = ((await created.json()) as { token: string }).token;
	}
	// Each token is recorded as used on its first request: done before any tracing.
	for (const token of Object.values(tokens))
		expect((await api("GET", "/api/whoami-v2", token)).status).toBe(200);
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await storage?.close();
	await db?.close();
});

describe("resolve answers from cached commit metadata", () => {
	it("repeated GET and HEAD of a file (by branch and by commit id) read nothing after the first", async () => {
		expect((await api("POST", "/api/repos/create", tokens.alice as string, { name: "cached" })).status).toBe(
			200,
		);
		const commitId = await commit("alice/cached", { "config.json": '{"hidden_size": 32}\n' });
		for (const revision of ["main", commitId]) {
			const url = `/alice/cached/resolve/${revision}/config.json`;
			const first = await traced(() => resolve(url));
			expect(first.value.status).toBe(200);
			expect(first.reads.length).toBeGreaterThan(0);
			for (const method of ["HEAD", "GET", "HEAD", "GET"]) {
				const again = await traced(() => resolve(url, { method }));
				expect(again.value.status, `${method} ${revision}`).toBe(200);
				expect(again.value.headers.get("x-repo-commit")).toBe(commitId);
				expect(again.value.headers.get("content-length")).toBe(String('{"hidden_size": 32}\n'.length));
				if (method === "GET") expect(again.value.body).toBe('{"hidden_size": 32}\n');
				expect(again.reads, `${method} ${revision}`).toEqual([]);
				expect(again.storageReads, `${method} ${revision}`).toEqual([]);
			}
		}
		// A missing file is remembered too (transformers asks for optional files that are not there).
		const url = `/alice/cached/resolve/${commitId}/generation_config.json`;
		expect((await resolve(url)).status).toBe(404);
		const missing = await traced(() => resolve(url));
		expect(missing.value.status).toBe(404);
		expect(missing.value.headers.get("x-error-code")).toBe("EntryNotFound");
		expect(missing.reads).toEqual([]);
	});

	it("a branch moved by a commit is heard at once: the next resolve answers the new commit", async () => {
		expect((await api("POST", "/api/repos/create", tokens.alice as string, { name: "moving" })).status).toBe(
			200,
		);
		const first = await commit("alice/moving", { "config.json": "one\n" });
		const url = "/alice/moving/resolve/main/config.json";
		expect((await resolve(url)).headers.get("x-repo-commit")).toBe(first);
		expect((await traced(() => resolve(url))).reads).toEqual([]);
		const second = await commit("alice/moving", { "config.json": "two\n" });
		const after = await resolve(url);
		expect(after.headers.get("x-repo-commit")).toBe(second);
		expect(after.body).toBe("two\n");
		// The first commit still serves its own bytes.
		expect((await resolve(`/alice/moving/resolve/${first}/config.json`)).body).toBe("one\n");
		// A new branch and a deleted one too.
		expect(
			(await api("POST", "/api/models/alice/moving/branch/dev", tokens.alice as string, {})).status,
		).toBe(200);
		expect((await resolve("/alice/moving/resolve/dev/config.json")).headers.get("x-repo-commit")).toBe(
			second,
		);
		expect((await api("DELETE", "/api/models/alice/moving/branch/dev", tokens.alice as string)).status).toBe(
			200,
		);
		expect((await resolve("/alice/moving/resolve/dev/config.json")).status).toBe(404);
	});

	it("visibility is checked on every request: a repository made private is hidden at once", async () => {
		expect((await api("POST", "/api/repos/create", tokens.alice as string, { name: "closing" })).status).toBe(
			200,
		);
		await commit("alice/closing", { "config.json": "{}\n" });
		const url = "/alice/closing/resolve/main/config.json";
		expect((await resolve(url)).status).toBe(200);
		expect((await resolve(url)).headers.get("cache-control")).toBe("no-cache");
		const settings = await api("PUT", "/api/models/alice/closing/settings", tokens.alice as string, {
			private: true,
		});
		expect(settings.status).toBe(200);
		expect((await resolve(url)).status).toBe(404);
		expect((await resolve(url, { token: tokens.bob })).status).toBe(404);
		const owner = await resolve(url, { token: tokens.alice });
		expect(owner.status).toBe(200);
		expect(owner.headers.get("cache-control")).toBe("private, no-cache");
	});

	it("a private repository read by its owner is not remembered for anyone else (nor in the work done)", async () => {
		expect(
			(await api("POST", "/api/repos/create", tokens.alice as string, { name: "vault", private: true }))
				.status,
		).toBe(200);
		const commitId = await commit("alice/vault", { "config.json": "{}\n" });
		for (const revision of ["main", commitId]) {
			const url = `/alice/vault/resolve/${revision}/config.json`;
			// The owner's reads are answered from memory after the first.
			expect((await resolve(url, { token: tokens.alice })).status).toBe(200);
			expect((await traced(() => resolve(url, { token: tokens.alice }))).reads).toEqual([]);
			// Others: the same work as for a missing repository, every time.
			for (const token of [undefined, tokens.bob]) {
				for (let round = 0; round < 2; round++) {
					const hidden = await traced(() => resolve(url, { token }));
					const missing = await traced(() =>
						resolve(`/alice/no-such-vault/resolve/${revision}/config.json`, { token }),
					);
					expect(hidden.value.status).toBe(404);
					expect(hidden.value.body.replaceAll("alice/vault", "ID")).toBe(
						missing.value.body.replaceAll("alice/no-such-vault", "ID"),
					);
					expect(hidden.reads.length).toBeGreaterThan(0);
					expect(hidden.reads).toEqual(missing.reads);
				}
			}
		}
	});

	it("rights come from the request's viewer: a member removed from an organisation loses its files at once", async () => {
		const org = await api("POST", "/api/admin/orgs", ADMIN_TOKEN, {
			name: "serving-org",
			members: [
				{ user: "alice", role: "admin" },
				{ user: "carol", role: "read" },
			],
		});
		expect(org.status).toBe(201);
		expect(
			(
				await api("POST", "/api/repos/create", tokens.alice as string, {
					name: "shared",
					organization: "serving-org",
					private: true,
				})
			).status,
		).toBe(200);
		await commit("serving-org/shared", { "config.json": "{}\n" });
		const url = "/serving-org/shared/resolve/main/config.json";
		expect((await resolve(url, { token: tokens.carol })).status).toBe(200);
		expect((await traced(() => resolve(url, { token: tokens.carol }))).reads).toEqual([]);
		const removed = await api("DELETE", "/api/admin/orgs/serving-org/members/carol", ADMIN_TOKEN);
		expect(removed.status).toBe(200);
		expect((await resolve(url, { token: tokens.carol })).status).toBe(404);
		expect((await resolve(url, { token: tokens.alice })).status).toBe(200);
	});

	it("small files come from memory (ranges too), larger ones from storage every time", async () => {
		expect((await api("POST", "/api/repos/create", tokens.alice as string, { name: "sizes" })).status).toBe(
			200,
		);
		const small = "s".repeat(MAX_BLOB_FILE_BYTES);
		const large = "L".repeat(MAX_BLOB_FILE_BYTES + 1);
		await commit("alice/sizes", { "small.txt": small, "large.txt": large });
		expect((await resolve("/alice/sizes/resolve/main/small.txt")).body).toBe(small);
		const again = await traced(() => resolve("/alice/sizes/resolve/main/small.txt"));
		expect(again.value.body).toBe(small);
		expect(again.storageReads).toEqual([]);
		const ranged = await traced(() =>
			resolve("/alice/sizes/resolve/main/small.txt", { headers: { range: "bytes=10-19" } }),
		);
		expect(ranged.value.status).toBe(206);
		expect(ranged.value.body).toBe(small.slice(10, 20));
		expect(ranged.value.headers.get("content-range")).toBe(`bytes 10-19/${MAX_BLOB_FILE_BYTES}`);
		expect(ranged.storageReads).toEqual([]);
		for (let round = 0; round < 3; round++) {
			const read = await traced(() =>
				resolve(
					"/alice/sizes/resolve/main/large.txt",
					round === 2 ? { headers: { range: "bytes=3-9" } } : {},
				),
			);
			expect(read.value.body).toBe(round === 2 ? large.slice(3, 10) : large);
			expect(read.storageReads.length).toBe(1);
			// No database query once cached: the entry keeps where the bytes are (the file store here), so
			// readBlob does not look the blob up in small_blobs (it did for every file up to 1 MiB).
			expect(read.reads).toEqual(round === 0 ? read.reads : []);
		}
	});

	it("a burst of requests for a small file not yet in memory reads it from storage once", async () => {
		expect((await api("POST", "/api/repos/create", tokens.alice as string, { name: "burst" })).status).toBe(
			200,
		);
		await commit("alice/burst", { "config.json": "x".repeat(500) });
		const url = "/alice/burst/resolve/main/config.json";
		expect((await resolve(url, { method: "HEAD" })).status).toBe(200);
		const burst = await traced(() => Promise.all(Array.from({ length: 20 }, () => resolve(url))));
		for (const answer of burst.value) expect(answer.body).toBe("x".repeat(500));
		expect(burst.storageReads.length).toBe(1);
	});

	it("downloads are still counted when the answer comes from memory", async () => {
		expect((await api("POST", "/api/repos/create", tokens.alice as string, { name: "counted" })).status).toBe(
			200,
		);
		await commit("alice/counted", { "config.json": "{}\n" });
		const url = "/alice/counted/resolve/main/config.json";
		for (let n = 0; n < 3; n++) expect((await resolve(url)).status).toBe(200);
		// One client address: counted once in the per-client window (src/downloads/counter.ts), written
		// within the flush interval (50 ms here).
		let counted: unknown;
		for (let waited = 0; waited < 100 && counted !== 1; waited++) {
			await new Promise((done) => setTimeout(done, 50));
			const info = await api(
				"GET",
				"/api/models/alice/counted?expand=downloadsAllTime",
				tokens.alice as string,
			);
			counted = ((await info.json()) as { downloadsAllTime?: number }).downloadsAllTime;
		}
		expect(counted).toBe(1);
	});
});

describe("the serving cache's bounds", () => {
	it("an LRU within a byte budget keeps the recently used, never more than the budget", () => {
		const lru = new ByteBudgetLru<string>(4096, (value) => value.length * 2);
		for (let n = 0; n < 1000; n++) {
			lru.set(`key-${n}`, "v".repeat(n % 50));
			if (n % 3 === 0) lru.get("key-0");
			expect(lru.bytes).toBeLessThanOrEqual(4096);
		}
		expect(lru.get("key-0")).toBe("");
		expect(lru.get("key-1")).toBeUndefined();
		expect(lru.get("key-999")).toBe("v".repeat(999 % 50));
		// An entry over an eighth of the budget is not kept at all.
		lru.set("big", "b".repeat(400));
		expect(lru.get("big")).toBeUndefined();
		const off = new ByteBudgetLru<string>(0, () => 0);
		off.set("a", "b");
		expect(off.size).toBe(0);
	});

	it("a hub with the caches turned off serves the same answers", async () => {
		const other = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const otherStorage = await openBlobStore({ kind: "disk", dir: undefined });
		const off = await startHub({
			db: other,
			storage: otherStorage,
			seed: false,
			adminToken: ADMIN_TOKEN,
			logLevel: "silent",
			serving: { metadataBytes: 0, blobBytes: 0 },
		});
		try {
			const token = await createUser(off.url, ADMIN_TOKEN, "dave");
			await fetch(`${off.url}/api/repos/create`, {
				method: "POST",
				headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
				body: JSON.stringify({ name: "plain" }),
			});
			const committed = await fetch(`${off.url}/api/models/dave/plain/commit/main`, {
				method: "POST",
				headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
				body: [
					{ key: "header", value: { summary: "f" } },
					{ key: "file", value: { path: "a.txt", content: Buffer.from("abc").toString("base64") } },
				]
					.map((line) => JSON.stringify(line))
					.join("\n"),
			});
			expect(committed.status).toBe(200);
			for (let n = 0; n < 2; n++) {
				const res = await fetch(`${off.url}/dave/plain/resolve/main/a.txt`);
				expect(await res.text()).toBe("abc");
			}
			expect(off.server.serving.stats).toEqual({ revisions: 0, files: 0, blobs: 0, blobBytes: 0 });
		} finally {
			await off.close();
			await otherStorage.close();
			await other.close();
		}
	});
});

describe("the LFS batch API's downloads", () => {
	it("answers a batch of 100 objects with one query for all of them", async () => {
		expect(
			(await api("POST", "/api/repos/create", tokens.alice as string, { name: "many-lfs" })).status,
		).toBe(200);
		const contents = Array.from({ length: 60 }, (_, index) =>
			Buffer.from(`weights ${index}\n`.repeat(index + 1)),
		);
		const oids = contents.map((content) => createHash("sha256").update(content).digest("hex"));
		const batch = (operation: string, objects: unknown[], token = tokens.alice as string) =>
			fetch(`${hub.url}/alice/many-lfs.git/info/lfs/objects/batch`, {
				method: "POST",
				headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.git-lfs+json" },
				body: JSON.stringify({ operation, transfers: ["basic"], objects, hash_algo: "sha256" }),
			});
		const uploads = (await (
			await batch(
				"upload",
				contents.map((content, index) => ({ oid: oids[index], size: content.length })),
			)
		).json()) as { objects: Array<{ actions: { upload: { href: string } } }> };
		for (const [index, object] of uploads.objects.entries()) {
			const put = await fetch(object.actions.upload.href, {
				method: "PUT",
				body: new Uint8Array(contents[index] as Buffer),
			});
			expect(put.status).toBe(200);
		}
		const committed = await fetch(`${hub.url}/api/models/alice/many-lfs/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/x-ndjson" },
			body: [
				{ key: "header", value: { summary: "weights" } },
				...contents.map((content, index) => ({
					key: "lfsFile",
					value: { path: `w/${index}.bin`, algo: "sha256", oid: oids[index], size: content.length },
				})),
			]
				.map((line) => JSON.stringify(line))
				.join("\n"),
		});
		expect(committed.status).toBe(200);
		await hub.server.analysis.idle();

		// 60 held, 38 the repository does not hold, 2 that are not SHA-256s.
		const missing = Array.from({ length: 38 }, (_, index) =>
			createHash("sha256").update(`missing ${index}`).digest("hex"),
		);
		const asked = [
			...oids.map((oid, index) => ({ oid, size: (contents[index] as Buffer).length })),
			...missing.map((oid) => ({ oid, size: 1 })),
			{ oid: "not-a-sha", size: 1 },
			{ oid: 7, size: 1 },
		];
		const { value, reads } = await traced(async () => {
			const res = await batch("download", asked);
			return { status: res.status, body: (await res.json()) as { objects: Array<Record<string, unknown>> } };
		});
		expect(value.status).toBe(200);
		const answers = value.body.objects;
		expect(answers).toHaveLength(100);
		for (const [index, oid] of oids.entries()) {
			expect(answers[index]).toMatchObject({ oid, size: (contents[index] as Buffer).length });
			expect((answers[index]?.actions as { download: { href: string } }).download.href).toMatch(
				new RegExp(`/alice/many-lfs\\.git/info/lfs/objects/${oid}$`),
			);
		}
		for (const [index, oid] of missing.entries())
			expect(answers[60 + index]).toMatchObject({ oid, error: { code: 404 } });
		expect(answers[98]).toMatchObject({ error: { code: 422 } });
		expect(answers[99]).toMatchObject({ error: { code: 422 } });
		// One statement asks for the sizes of all 98 well-formed objects (it was one per object).
		expect(reads.filter((sql) => /\brepo_blobs\b/.test(sql))).toHaveLength(1);
		// And a held object downloads.
		const object = await fetch(`${hub.url}/alice/many-lfs.git/info/lfs/objects/${oids[7]}`, {
			headers: { authorization: `Bearer ${tokens.alice}` },
		});
		expect(Buffer.from(await object.arrayBuffer()).equals(contents[7] as Buffer)).toBe(true);
	});
});
