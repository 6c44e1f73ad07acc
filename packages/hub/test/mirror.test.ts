import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { DEFAULT_UPSTREAM_SETTINGS, type UpstreamSettings } from "../src/mirror/settings.js";
import { openBlobStore } from "../src/storage/open.js";
import type { BlobStore } from "../src/storage/types.js";
import { bytes } from "./support/hf-client-suite.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { startMirrorPair, type MirrorPair } from "./support/mirror.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "mirror-admin-token-0123456789";
const REPO = "alice/tiny-bert";
const UPSTREAM_TOKEN_NAME = "alice";

function upstreamSettings(url: string, token: string | undefined, extra: Partial<UpstreamSettings> = {}) {
	return {
		...DEFAULT_UPSTREAM_SETTINGS,
		url,
		token,
		// Every branch answer is asked again: the offline run below then proves the kept ones are served.
		ttlMs: 0,
		outbound: { ...DEFAULT_UPSTREAM_SETTINGS.outbound, timeoutMs: 2000, retries: 1, retryBaseMs: 50 },
		...extra,
	} satisfies UpstreamSettings;
}

interface ReadResult {
	sha: string;
	at_commit: string;
	siblings: string[];
	tree: string[];
	paths: string[];
	refs: string[];
	files: Record<string, string>;
	single: string;
	logits: number[];
	missing: { error?: string; status?: number };
}

describe("mirror mode: two hubs, the real huggingface_hub and transformers", () => {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-mirror-test-"));
	let pair: MirrorPair | undefined;
	let upstream: RunningHub;
	let downstream: RunningHub;
	let upstreamToken: string;
	let published: { sha: string; files: string[] };
	const xetFile = bytes(2 * 1024 * 1024 + 3, 25);

	beforeAll(async () => {
		pair = await startMirrorPair({
			adminToken: ADMIN,
			// The downstream reads with a token the upstream issues.
			prepare: async (hub) => {
				upstreamToken = await createUser(hub.url, ADMIN, UPSTREAM_TOKEN_NAME);
				await fetch(`${hub.url}/api/repos/create`, {
					method: "POST",
					headers: { authorization: `Bearer ${upstreamToken}`, "content-type": "application/json" },
					body: JSON.stringify({ name: "tiny-bert" }),
				});
				const path = join(dir, "xet.bin");
				writeFileSync(path, xetFile);
				published = await runHubClient(
					"publish",
					hub.url,
					join(dir, "publish"),
					{ repo: REPO, token: upstreamToken, path },
					{},
					"hf_hub_mirror.py",
				);
				return upstreamSettings(hub.url, upstreamToken);
			},
		});
		({ upstream, downstream } = pair);
	}, 300_000);

	afterAll(async () => {
		// The upstream is stopped by a test already (closing again is a no-op).
		await pair?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	let online: ReadResult;

	it("serves a model that exists only upstream: info, tree, paths-info, refs, snapshot_download, from_pretrained", async () => {
		expect(published.files).toContain("model.safetensors");
		expect(published.files).toContain("extra/xet.bin");
		online = await runHubClient<ReadResult>(
			"read",
			downstream.url,
			join(dir, "online"),
			{ repo: REPO },
			{},
			"hf_hub_mirror.py",
		);
		expect(online.sha).toBe(published.sha);
		expect(online.at_commit).toBe(published.sha);
		expect(online.siblings).toEqual(published.files);
		expect(online.tree).toEqual(expect.arrayContaining(["extra", "extra/xet.bin", "model.safetensors"]));
		expect(online.paths).toEqual(["config.json", "extra"]);
		expect(online.refs).toEqual(["main"]);
		expect(online.files["extra/xet.bin"]).toBe(createHash("sha256").update(xetFile).digest("hex"));
		expect(online.single).toBe(online.files["extra/xet.bin"]);
		expect(Object.keys(online.files).sort()).toEqual(published.files);
		expect(online.logits).toHaveLength(2);
		expect(online.missing).toMatchObject({ error: "RemoteEntryNotFoundError", status: 404 });
		// Every file is now in the downstream's own storage, verified.
		const weights = await fetch(`${downstream.url}/${REPO}/resolve/main/model.safetensors`, {
			method: "HEAD",
		});
		const sha256 = weights.headers.get("x-linked-etag")?.replace(/"/g, "") ?? "";
		await vi.waitFor(async () => expect(await downstream.storage.stat(sha256)).toBeDefined(), {
			timeout: 10_000,
		});
		expect(weights.headers.get("x-repo-commit")).toBe(published.sha);
		// No upstream Xet hint reaches the downstream client.
		const xet = await fetch(`${downstream.url}/${REPO}/resolve/main/extra/xet.bin`, { method: "HEAD" });
		expect([...xet.headers.keys()].filter((name) => name.startsWith("x-xet"))).toEqual([]);
		expect(xet.headers.get("link")).toBeNull();
	}, 300_000);

	it("shows what only the upstream token reads (a private upstream repository) to signed-in users only, cache included", async () => {
		const secret = "alice/secret-model";
		const created = await fetch(`${upstream.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${upstreamToken}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "secret-model", private: true }),
		});
		expect(created.status).toBe(200);
		const content = Buffer.from("only the token reads this\n");
		const committed = await fetch(`${upstream.url}/api/models/${secret}/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${upstreamToken}`, "content-type": "application/x-ndjson" },
			body: [
				{ key: "header", value: { summary: "secret" } },
				{
					key: "file",
					value: { path: "secret.txt", encoding: "base64", content: content.toString("base64") },
				},
			]
				.map((line) => JSON.stringify(line))
				.join("\n"),
		});
		expect(committed.status).toBe(200);
		const user = await createUser(downstream.url, ADMIN, "dave");
		const signedIn = { authorization: `Bearer ${user}` };
		const urls = [
			`${downstream.url}/api/models/${secret}`,
			`${downstream.url}/${secret}/resolve/main/secret.txt`,
		];
		const anonymous = async () => {
			for (const url of urls) {
				const res = await fetch(url);
				expect([401, 404], url).toContain(res.status);
				expect(await res.text()).not.toContain("only the token reads this");
			}
		};
		// Anonymous first: refused, as the upstream refuses the public.
		await anonymous();
		// A signed-in user gets it (read with the upstream token), and the file is kept.
		const info = await fetch(urls[0] as string, { headers: signedIn });
		expect(info.status).toBe(200);
		expect(((await info.json()) as { id: string }).id).toBe(secret);
		const file = await fetch(urls[1] as string, { headers: signedIn });
		expect(file.status).toBe(200);
		expect(Buffer.from(await file.arrayBuffer()).equals(content)).toBe(true);
		expect(file.headers.get("cache-control")).toContain("private");
		// Anonymous again, with the token's answer and file cached: still refused.
		await anonymous();
	}, 120_000);

	it("refuses writes to an upstream-only repository, naming the upstream", async () => {
		const downstreamUser = await createUser(downstream.url, ADMIN, "bob");
		const res = await fetch(`${downstream.url}/api/models/${REPO}/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${downstreamUser}`, "content-type": "application/x-ndjson" },
			body: `${JSON.stringify({ key: "header", value: { summary: "x" } })}\n`,
		});
		expect(res.status).toBe(403);
		expect(((await res.json()) as { error: string }).error).toContain(
			`mirrored read-only from ${upstream.url}`,
		);
	});

	it("serves cached commits with the upstream stopped, and answers a clear 502 for what it never fetched", async () => {
		await upstream.close();
		const offline = await runHubClient<ReadResult>(
			"read",
			downstream.url,
			join(dir, "offline"),
			{ repo: REPO, offline: true },
			{},
			"hf_hub_mirror.py",
		).catch((error: unknown) => error);
		expect(offline instanceof Error ? offline.message : "").toBe("");
		const result = offline as ReadResult;
		expect(result.sha).toBe(published.sha);
		expect(result.files).toEqual(online.files);
		expect(result.logits).toEqual(online.logits);
		const head = await fetch(`${downstream.url}/${REPO}/resolve/main/config.json`, { method: "HEAD" });
		expect(head.status).toBe(200);
		expect(Number(head.headers.get("x-mirror-age"))).toBeGreaterThanOrEqual(0);
		// A path the kept commit does not have is missing, offline too.
		const absent = await fetch(`${downstream.url}/${REPO}/resolve/main/never-there.txt`, { method: "HEAD" });
		expect(absent.status).toBe(404);
		expect(absent.headers.get("x-error-code")).toBe("EntryNotFound");
		const started = Date.now();
		const never = await fetch(`${downstream.url}/alice/never-seen/resolve/main/config.json`);
		expect(never.status).toBe(502);
		expect(((await never.json()) as { error: string }).error).toContain(upstream.url);
		expect(Date.now() - started).toBeLessThan(10_000);
	}, 300_000);
});

/** Listens on a free port of 127.0.0.1: its `host:port`. */
function listenOn(server: Server): Promise<string> {
	return new Promise((resolve) =>
		server.listen(0, "127.0.0.1", () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`)),
	);
}

/** The files under a folder, at any depth (relative paths). */
function filesUnder(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** A hostile upstream: each path misbehaves its own way; every request's Authorization is recorded. */
describe("mirror mode: a hostile upstream", () => {
	const TOKEN = "upstream-secret-token-123456";
	const seen: Array<{ server: string; method?: string; url: string; authorization: string | undefined }> = [];
	const good = Buffer.from("good bytes\n");
	const goodSha = createHash("sha256").update(good).digest("hex");
	// Other bytes than every other path's: an LFS file already stored is linked, not fetched (one GET to count).
	const streamed = Buffer.from("streamed bytes\n");
	const streamedSha = createHash("sha256").update(streamed).digest("hex");
	const afterSweep = Buffer.from("bytes fetched after the spool folder was swept\n");
	const afterSweepSha = createHash("sha256").update(afterSweep).digest("hex");
	// A regular file (no X-Linked-Etag; its ETag the git blob id), sent with wrong bytes of the right size
	// until `regularHonest` is set.
	const regular = Buffer.from('{"model_type": "bert", "regular": true}\n');
	const regularOid = createHash("sha1")
		.update(Buffer.concat([Buffer.from(`blob ${regular.length}\0`), regular]))
		.digest("hex");
	const regularEvil = Buffer.from('{"model_type": "evil", "regular": true}\n');
	let regularHonest = false;
	let hostile: Server;
	let other: Server;
	let hostileUrl = "";
	let otherHost = "";
	let db: Database;
	let hub: RunningHub;
	let release: () => void = () => {};
	const releaseStream = new Promise<void>((resolve) => (release = resolve));

	beforeAll(async () => {
		other = createServer((req, res) => {
			seen.push({ server: "other", url: req.url ?? "", authorization: req.headers.authorization });
			res.writeHead(200, { "content-length": String(good.length) }).end(good);
		});
		otherHost = await listenOn(other);
		hostile = createServer((req: IncomingMessage, res: ServerResponse) => {
			seen.push({
				server: "hostile",
				method: req.method ?? "",
				url: req.url ?? "",
				authorization: req.headers.authorization,
			});
			const name = (req.url ?? "").split("/").pop() ?? "";
			if (name === "regular.json") {
				res.writeHead(200, {
					"x-repo-commit": "a".repeat(40),
					etag: `"${regularOid}"`,
					"content-length": String(regular.length),
				});
				res.end(req.method === "HEAD" ? undefined : regularHonest ? regular : regularEvil);
				return;
			}
			const [body, sha] =
				name === "stream.bin"
					? [streamed, streamedSha]
					: name === "after-sweep.bin"
						? [afterSweep, afterSweepSha]
						: [good, goodSha];
			const meta = {
				"x-repo-commit": "a".repeat(40),
				"x-linked-etag": `"${sha}"`,
				"x-linked-size": String(body.length),
				etag: `"${sha}"`,
			};
			if (req.method === "HEAD") {
				res.writeHead(200, { ...meta, "content-length": String(body.length) }).end();
				return;
			}
			switch (name) {
				case "wrong.bin":
					res.writeHead(200, { "content-length": String(good.length) }).end(Buffer.from("evil bytes\n"));
					return;
				case "short.bin":
					res.writeHead(200, { "content-length": String(good.length + 5) }).end(good);
					return;
				case "slow.bin":
					res.writeHead(200, { "content-length": String(good.length) });
					res.write(good.subarray(0, 3)); // then nothing more
					return;
				case "loop.bin":
					res.writeHead(302, { location: req.url ?? "/" }).end();
					return;
				case "stream.bin":
					// Half now, the rest once the test has seen the first client receive that half.
					res.writeHead(200, { "content-length": String(streamed.length) });
					res.write(streamed.subarray(0, 5));
					void releaseStream.then(() => res.end(streamed.subarray(5)));
					return;
				case "after-sweep.bin":
					res.writeHead(200, { "content-length": String(afterSweep.length) }).end(afterSweep);
					return;
				case "elsewhere.bin":
					res.writeHead(302, { location: `http://${otherHost}/file` }).end();
					return;
				default:
					res.writeHead(200, { "content-length": String(good.length) }).end(good);
			}
		});
		hostileUrl = `http://${await listenOn(hostile)}`;
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({
			db,
			seed: false,
			upstream: upstreamSettings(hostileUrl, TOKEN, {
				// The idle bound cuts slow.bin within the test's 5 s, and leaves stream.bin's held upstream
				// time for the 7 other clients to join under a loaded machine's scheduling.
				outbound: { ...DEFAULT_UPSTREAM_SETTINGS.outbound, timeoutMs: 1000, idleTimeoutMs: 2000, retries: 0 },
			}),
		});
	});

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		hostile?.closeAllConnections();
		hostile?.close();
		other?.close();
	});

	async function download(name: string): Promise<{ status: number; ok: boolean; body?: Buffer }> {
		const res = await fetch(`${hub.url}/evil/model/resolve/main/${name}`);
		if (res.status !== 200) return { status: res.status, ok: false };
		try {
			return { status: res.status, ok: true, body: Buffer.from(await res.arrayBuffer()) };
		} catch {
			return { status: res.status, ok: false };
		}
	}

	it("never serves or keeps wrong bytes, lying sizes, slow or looping answers", async () => {
		for (const name of ["wrong.bin", "short.bin", "slow.bin", "loop.bin", "elsewhere.bin"]) {
			const started = Date.now();
			const got = await download(name);
			expect(got.ok, name).toBe(false);
			expect(Date.now() - started, name).toBeLessThan(5000);
		}
		// Nothing of it was kept: neither the good bytes' SHA-256 nor the wrong bytes' is in storage, and
		// every spool file is removed (on disk the spools lie in the store's folder: a verified one is
		// linked in).
		expect(await hub.storage.stat(goodSha)).toBeUndefined();
		expect(await hub.storage.stat(createHash("sha256").update("evil bytes\n").digest("hex"))).toBeUndefined();
		const spoolDir = hub.storage.spoolDir ?? "";
		expect(spoolDir).not.toBe("");
		await vi.waitFor(() => expect(filesUnder(spoolDir)).toEqual([]), { timeout: 10_000 });
		const fine = await download("fine.bin");
		expect(fine.body?.equals(good)).toBe(true);
		// Stored once the client has it all (storing is not on the client's critical path), and its spool
		// removed once stored.
		await vi.waitFor(async () => expect(await hub.storage.stat(goodSha)).toEqual({ size: good.length }), {
			timeout: 10_000,
		});
		await vi.waitFor(() => expect(filesUnder(spoolDir)).toEqual([]), { timeout: 10_000 });
	});

	it("never serves or keeps a regular file whose bytes do not match its git blob id, and serves the right bytes later", async () => {
		const regularSha = createHash("sha256").update(regular).digest("hex");
		const evilSha = createHash("sha256").update(regularEvil).digest("hex");
		expect(regularEvil.length).toBe(regular.length);
		const started = Date.now();
		const got = await download("regular.json");
		expect(got.ok).toBe(false);
		expect(Date.now() - started).toBeLessThan(5000);
		// A second client is refused too: nothing of the wrong answer was kept for it.
		expect((await download("regular.json")).ok).toBe(false);
		expect(await hub.storage.stat(evilSha)).toBeUndefined();
		expect(await hub.storage.stat(regularSha)).toBeUndefined();
		const spoolDir = hub.storage.spoolDir ?? "";
		await vi.waitFor(() => expect(filesUnder(spoolDir)).toEqual([]), { timeout: 10_000 });
		// The upstream now sends the right bytes: they are served and stored.
		regularHonest = true;
		const fixed = await download("regular.json");
		expect(fixed.body?.equals(regular)).toBe(true);
		await vi.waitFor(
			async () => expect(await hub.storage.stat(regularSha)).toEqual({ size: regular.length }),
			{ timeout: 10_000 },
		);
		expect(await hub.storage.stat(evilSha)).toBeUndefined();
	});

	it("fetches and stores a file after the collector removed the empty spool folder", async () => {
		// The collector removes old, empty folders of temporaries (MODELHUB_GC_TEMP_MAX_AGE_SECONDS): the
		// mirror's spool folder among them, when no fetch is under way.
		const spoolDir = hub.storage.spoolDir ?? "";
		expect(filesUnder(spoolDir)).toEqual([]);
		const folders = readdirSync(spoolDir).filter((name) => name.startsWith("mirror-"));
		expect(folders).toHaveLength(1);
		for (const name of folders) rmSync(join(spoolDir, name), { recursive: true, force: true });
		const got = await download("after-sweep.bin");
		expect(got.body?.equals(afterSweep)).toBe(true);
		await vi.waitFor(
			async () => expect(await hub.storage.stat(afterSweepSha)).toEqual({ size: afterSweep.length }),
			{ timeout: 10_000 },
		);
	});

	it("fetches a missing file once for 8 concurrent clients, the first streaming while it is fetched", async () => {
		const url = `${hub.url}/evil/stream/resolve/main/stream.bin`;
		const first = await fetch(url);
		expect(first.status).toBe(200);
		const reader = (first.body as ReadableStream<Uint8Array>).getReader();
		const head = await reader.read();
		// The first client has the upstream's first bytes while the upstream has not sent the rest.
		expect(Buffer.from(head.value ?? []).equals(streamed.subarray(0, head.value?.length ?? 0))).toBe(true);
		expect(head.value?.length).toBeGreaterThan(0);
		const others = Array.from({ length: 7 }, () =>
			fetch(url).then(async (r) => Buffer.from(await r.arrayBuffer())),
		);
		// Give the others' requests time to join the transfer under way before it ends.
		await Promise.all(
			Array.from({ length: 7 }, () => fetch(url, { method: "HEAD" }).then((r) => r.arrayBuffer())),
		);
		release();
		const chunks: Uint8Array[] = [head.value as Uint8Array];
		for (;;) {
			const next = await reader.read();
			if (next.done) break;
			chunks.push(next.value);
		}
		expect(Buffer.concat(chunks).equals(streamed)).toBe(true);
		for (const body of await Promise.all(others)) expect(body.equals(streamed)).toBe(true);
		const gets = seen.filter(
			(s) => s.server === "hostile" && s.method === "GET" && s.url.endsWith("/stream.bin"),
		);
		expect(gets).toHaveLength(1);
	});

	it("links an LFS file whose bytes are stored already (another path, same SHA-256) instead of fetching it", async () => {
		seen.length = 0;
		const got = await download("same-bytes.bin");
		expect(got.body?.equals(good)).toBe(true);
		expect(seen.filter((s) => s.server === "hostile" && s.method === "GET")).toEqual([]);
	});

	it("sends the upstream token to the upstream only, never the client's own, never to another host", async () => {
		expect(seen.filter((s) => s.server === "other")).toEqual([]);
		const hostileSeen = seen.filter((s) => s.server === "hostile");
		expect(hostileSeen.length).toBeGreaterThan(0);
		// Anonymous downstream clients are answered as the public: the token is not sent for them.
		for (const s of hostileSeen) expect(s.authorization).toBeUndefined();
		// With the other host listed as a storage host, the redirect is followed, without the token.
		await hub.close();
		hub = await startHub({
			db,
			seed: false,
			adminToken: ADMIN,
			upstream: upstreamSettings(hostileUrl, TOKEN, { storageHosts: [otherHost] }),
		});
		const userToken = await createUser(hub.url, ADMIN, "carol");
		seen.length = 0;
		const res = await fetch(`${hub.url}/evil/model2/resolve/main/elsewhere.bin`, {
			headers: { authorization: `Bearer ${userToken}` },
		});
		expect(res.status).toBe(200);
		expect(Buffer.from(await res.arrayBuffer()).equals(good)).toBe(true);
		// A signed-in user's request goes with the upstream token, to the upstream only.
		expect(seen.filter((s) => s.server === "hostile").map((s) => s.authorization)).toContain(
			`Bearer ${TOKEN}`,
		);
		expect(seen.find((s) => s.server === "other")?.authorization).toBeUndefined();
		expect(seen.some((s) => s.authorization?.includes(userToken))).toBe(false);
	});
});

/**
 * An upstream answering as huggingface.co does for a Xet-stored file: `X-Xet-Hash`, `X-Xet-Refresh-Route`
 * and a `Link` rel="xet-auth" on the resolve HEAD and GET, a 302 to its storage host (the Xet bridge), a
 * `xetHash` in tree and paths-info entries and `xetEnabled: true` in the info (huggingface_hub's
 * constants.py and file_download.py read these). A ModelHub upstream sends none of them.
 */
describe("mirror mode: an upstream shaped like the public hub, with Xet hints", () => {
	const id = "hf-org/xet-model";
	const commit = createHash("sha1").update("the upstream's commit").digest("hex");
	const config = Buffer.from(`${JSON.stringify({ model_type: "bert", hidden_size: 16 })}\n`);
	const configOid = createHash("sha1")
		.update(Buffer.concat([Buffer.from(`blob ${config.length}\0`), config]))
		.digest("hex");
	const weights = bytes(300_000 + 7, 43);
	const weightsSha = createHash("sha256").update(weights).digest("hex");
	const weightsOid = createHash("sha1").update(`pointer of ${weightsSha}`).digest("hex");
	const xetHash = createHash("sha256").update("xet merkle hash").update(weights).digest("hex");
	const requests: Array<{ server: string; method: string; url: string }> = [];
	let upstream: Server;
	let storage: Server;
	let upstreamUrl = "";
	let storageHost = "";
	let db: Database;
	let hub: RunningHub;
	const dir = mkdtempSync(join(tmpdir(), "modelhub-mirror-xet-"));

	const entries = () => [
		{ type: "file", oid: configOid, size: config.length, path: "config.json" },
		{
			type: "file",
			oid: weightsOid,
			size: weights.length,
			lfs: { oid: weightsSha, size: weights.length, pointerSize: 134 },
			xetHash,
			path: "model.safetensors",
		},
	];

	function json(res: ServerResponse, value: unknown): void {
		const body = Buffer.from(JSON.stringify(value));
		res
			.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) })
			.end(body);
	}

	beforeAll(async () => {
		storage = createServer((req, res) => {
			requests.push({ server: "storage", method: req.method ?? "", url: req.url ?? "" });
			if (req.method === "GET" && (req.url ?? "").startsWith(`/xet-bridge-us/`)) {
				res
					.writeHead(200, {
						"content-type": "application/octet-stream",
						"content-length": String(weights.length),
					})
					.end(weights);
				return;
			}
			res.writeHead(404).end();
		});
		storageHost = await listenOn(storage);
		upstream = createServer((req, res) => {
			const method = req.method ?? "";
			requests.push({ server: "upstream", method, url: req.url ?? "" });
			const path = decodeURIComponent(new URL(req.url ?? "/", "http://upstream").pathname);
			const api = `/api/models/${id}`;
			const tokenRoute = `${upstreamUrl}${api}/xet-read-token/${commit}`;
			if (method === "GET" && (path === api || path.startsWith(`${api}/revision/`))) {
				json(res, {
					_id: "0123456789abcdef01234567",
					id,
					modelId: id,
					author: "hf-org",
					sha: commit,
					lastModified: "2026-11-01T00:00:00.000Z",
					createdAt: "2026-10-01T00:00:00.000Z",
					private: false,
					gated: false,
					disabled: false,
					downloads: 3,
					likes: 0,
					tags: ["transformers"],
					library_name: "transformers",
					siblings: entries().map((entry) => ({
						rfilename: entry.path,
						blobId: entry.oid,
						size: entry.size,
						...(entry.lfs ? { lfs: { sha256: weightsSha, size: weights.length, pointerSize: 134 } } : {}),
					})),
					xetEnabled: true,
				});
				return;
			}
			if (method === "GET" && path.startsWith(`${api}/tree/`)) {
				json(res, entries());
				return;
			}
			if (method === "POST" && path.startsWith(`${api}/paths-info/`)) {
				let form = "";
				req.on("data", (chunk: Buffer) => (form += chunk.toString("utf8")));
				req.on("end", () => {
					const asked = new URLSearchParams(form).getAll("paths");
					json(
						res,
						entries().filter((entry) => asked.includes(entry.path)),
					);
				});
				return;
			}
			if (path.startsWith(`${api}/xet-read-token/`)) {
				// Only a client that took a Xet hint asks for this: the test checks nobody did.
				json(res, { accessToken: "xet-token", exp: 4102444800, casUrl: `http://${storageHost}` });
				return;
			}
			const resolve = `/${id}/resolve/`;
			const [revision, ...rest] = path.startsWith(resolve) ? path.slice(resolve.length).split("/") : [];
			const file = rest.join("/");
			if ((revision === "main" || revision === commit) && file === "config.json") {
				res.writeHead(200, {
					"x-repo-commit": commit,
					etag: `"${configOid}"`,
					"content-type": "application/json",
					"content-length": String(config.length),
				});
				res.end(method === "HEAD" ? undefined : config);
				return;
			}
			if ((revision === "main" || revision === commit) && file === "model.safetensors") {
				res.writeHead(302, {
					"x-repo-commit": commit,
					"x-linked-etag": `"${weightsSha}"`,
					"x-linked-size": String(weights.length),
					etag: `"${weightsSha}"`,
					"x-xet-hash": xetHash,
					"x-xet-refresh-route": `${api}/xet-read-token/${commit}`,
					link: `<${tokenRoute}>; rel="xet-auth", <http://${storageHost}/v1/reconstructions/${xetHash}>; rel="xet-reconstruction-info"`,
					location: `http://${storageHost}/xet-bridge-us/0123abcd/${xetHash}?X-Xet-Signed-Range=bytes%3D0-${weights.length - 1}&Expires=4102444800&Signature=sig`,
					"content-length": "0",
				});
				res.end();
				return;
			}
			res.writeHead(404, { "content-type": "application/json", "x-error-code": "EntryNotFound" });
			res.end(JSON.stringify({ error: "Entry not found" }));
		});
		upstreamUrl = `http://${await listenOn(upstream)}`;
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({
			db,
			seed: false,
			upstream: upstreamSettings(upstreamUrl, undefined, { storageHosts: [storageHost] }),
		});
	});

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		upstream?.close();
		storage?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	/** No upstream Xet hint in a downstream answer: its headers, and its body when it has one. */
	function expectNoXetHints(res: Response, body = ""): void {
		const names = [...res.headers.keys()];
		expect(
			names.filter((name) => name.startsWith("x-xet")),
			res.url,
		).toEqual([]);
		expect(res.headers.get("link"), res.url).toBeNull();
		expect(res.headers.get("location"), res.url).toBeNull();
		for (const hint of [xetHash, "xetHash", "xet-read-token", "xet-auth", storageHost])
			expect(body, res.url).not.toContain(hint);
	}

	it("downloads over plain HTTP with the real huggingface_hub (hf_xet installed), correct bytes, no Xet route asked", async () => {
		const seen = await runHubClient<{
			xet_available: boolean;
			sha: string;
			xet_enabled: unknown;
			tree_xet: Record<string, string | null>;
			paths_xet: Record<string, string | null>;
			metadata: { xet: boolean; etag: string; size: number; commit: string };
			files: Record<string, string>;
			single: string;
		}>("read_xet", hub.url, dir, { repo: id, path: "model.safetensors" }, {}, "hf_hub_mirror.py");
		// The client would download through Xet if it were told to: hf_xet is installed and not disabled.
		expect(seen.xet_available).toBe(true);
		expect(seen.sha).toBe(commit);
		expect(seen.xet_enabled).toBe(false);
		expect(seen.tree_xet).toEqual({ "config.json": null, "model.safetensors": null });
		expect(seen.paths_xet).toEqual({ "config.json": null, "model.safetensors": null });
		expect(seen.metadata).toEqual({ xet: false, etag: weightsSha, size: weights.length, commit });
		expect(seen.files).toEqual({
			"config.json": createHash("sha256").update(config).digest("hex"),
			"model.safetensors": weightsSha,
		});
		expect(seen.single).toBe(weightsSha);
		// Nobody asked for a Xet token or for reconstruction info; the storage host served the mirror's
		// plain GETs of the bridge URL only.
		expect(
			requests.filter((r) => r.url.includes("xet-read-token") || r.url.includes("reconstructions")),
		).toEqual([]);
		const stored = requests.filter((r) => r.server === "storage");
		expect(stored.length).toBeGreaterThan(0);
		for (const r of stored) expect(r.url).toMatch(/^\/xet-bridge-us\//);
	}, 180_000);

	it("sends downstream clients none of the hints: info, tree, paths-info, resolve HEAD and GET", async () => {
		for (const path of [
			`/api/models/${id}`,
			`/api/models/${id}/revision/main`,
			`/api/models/${id}/revision/${commit}?blobs=true`,
			`/api/models/${id}/tree/main?recursive=true`,
			`/api/models/${id}/tree/${commit}?recursive=true&expand=true`,
		]) {
			const res = await fetch(`${hub.url}${path}`);
			expect(res.status, path).toBe(200);
			const body = await res.text();
			expectNoXetHints(res, body);
			const parsed = JSON.parse(body) as unknown;
			if (Array.isArray(parsed)) {
				expect(parsed.map((entry) => (entry as { path: string }).path).sort(), path).toEqual([
					"config.json",
					"model.safetensors",
				]);
			} else expect((parsed as { xetEnabled?: unknown }).xetEnabled, path).toBe(false);
		}
		const paths = await fetch(`${hub.url}/api/models/${id}/paths-info/main`, {
			method: "POST",
			headers: { "content-type": "application/x-www-form-urlencoded" },
			body: "paths=model.safetensors&paths=config.json&expand=true",
		});
		expect(paths.status).toBe(200);
		const pathsBody = await paths.text();
		expectNoXetHints(paths, pathsBody);
		expect((JSON.parse(pathsBody) as Array<{ lfs?: { oid: string } }>).map((e) => e.lfs?.oid)).toContain(
			weightsSha,
		);
		for (const revision of ["main", commit]) {
			const url = `${hub.url}/${id}/resolve/${revision}/model.safetensors`;
			const head = await fetch(url, { method: "HEAD", redirect: "manual" });
			expect(head.status).toBe(200);
			expectNoXetHints(head);
			expect(head.headers.get("x-linked-etag")).toBe(`"${weightsSha}"`);
			expect(head.headers.get("x-linked-size")).toBe(String(weights.length));
			const get = await fetch(url, { redirect: "manual" });
			expect(get.status).toBe(200);
			expectNoXetHints(get);
			expect(
				createHash("sha256")
					.update(Buffer.from(await get.arrayBuffer()))
					.digest("hex"),
			).toBe(weightsSha);
		}
	});
});

/** Storing a fetched file is off the client's critical path: the client has it all, verified, first. */
describe("mirror mode: the miss path", () => {
	const body = Buffer.from("bytes served before they are stored\n");
	const sha = createHash("sha256").update(body).digest("hex");
	// Larger than the bytes a transfer keeps in memory (8 MiB): a client that joins late reads the spool.
	const big = bytes(12 * 1024 * 1024, 25);
	const bigSha = createHash("sha256").update(big).digest("hex");
	const bigHeld = 10 * 1024 * 1024;
	let releaseBig: () => void = () => {};
	const bigReleased = new Promise<void>((resolve) => (releaseBig = resolve));
	let bigGets = 0;
	let upstreamServer: Server;
	let db: Database;
	let disk: BlobStore;
	let hub: RunningHub;
	let openGate: () => void = () => {};
	const gate = new Promise<void>((resolve) => (openGate = resolve));
	let storesStarted = 0;

	beforeAll(async () => {
		upstreamServer = createServer((req, res) => {
			const isBig = (req.url ?? "").endsWith("/big.bin");
			const [bytes, digest] = isBig ? [big, bigSha] : [body, sha];
			const headers = {
				"x-repo-commit": "b".repeat(40),
				"x-linked-etag": `"${digest}"`,
				"x-linked-size": String(bytes.length),
				etag: `"${digest}"`,
				"content-length": String(bytes.length),
			};
			if (req.method === "HEAD") res.writeHead(200, headers).end();
			else if (!isBig) res.writeHead(200, headers).end(bytes);
			else {
				// The first 10 MiB now, the rest once the test has let late clients join.
				bigGets++;
				res.writeHead(200, headers);
				res.write(big.subarray(0, bigHeld));
				void bigReleased.then(() => res.end(big.subarray(bigHeld)));
			}
		});
		await new Promise<void>((resolve) => upstreamServer.listen(0, "127.0.0.1", resolve));
		const url = `http://127.0.0.1:${(upstreamServer.address() as AddressInfo).port}`;
		disk = await openBlobStore({ kind: "disk", dir: undefined });
		// The real disk store, whose stores (a put, or the link of a verified spool) wait for the test
		// to open the gate.
		const link = disk.link?.bind(disk);
		expect(link).toBeDefined();
		const gated: BlobStore = Object.assign(Object.create(disk) as BlobStore, {
			put: async (...args: Parameters<BlobStore["put"]>) => {
				storesStarted++;
				await gate;
				return disk.put(...args);
			},
			link: async (...args: Parameters<NonNullable<BlobStore["link"]>>) => {
				storesStarted++;
				await gate;
				return (link as NonNullable<BlobStore["link"]>)(...args);
			},
		});
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, seed: false, storage: gated, upstream: upstreamSettings(url, undefined) });
	});

	afterAll(async () => {
		openGate();
		releaseBig();
		await hub?.close();
		await db?.close();
		await disk?.close();
		upstreamServer?.close();
	});

	it("sends the whole verified file to the client while it is still being stored", async () => {
		const res = await fetch(`${hub.url}/org/model/resolve/main/file.bin`);
		expect(res.status).toBe(200);
		expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
		// The client has every byte; the store has begun and is held: nothing is stored yet.
		expect(storesStarted).toBe(1);
		expect(await disk.stat(sha)).toBeUndefined();
		openGate();
		await vi.waitFor(async () => expect(await disk.stat(sha)).toEqual({ size: body.length }), {
			timeout: 10_000,
		});
	});

	it("serves clients that join a transfer late (behind the bytes kept in memory) from its spool", async () => {
		const url = `${hub.url}/org/model/resolve/main/big.bin`;
		const first = await fetch(url);
		expect(first.status).toBe(200);
		const reader = (first.body as ReadableStream<Uint8Array>).getReader();
		const head: Uint8Array[] = [];
		let got = 0;
		// Once the first client has the upstream's first 10 MiB, the hub has them (and keeps the last 8 MiB).
		while (got < bigHeld) {
			const next = await reader.read();
			if (next.done) throw new Error("the first answer ended early");
			head.push(next.value);
			got += next.value.length;
		}
		const late = fetch(url).then(async (r) => Buffer.from(await r.arrayBuffer()));
		const ranged = fetch(url, { headers: { range: "bytes=1000-11534335" } }).then(async (r) => ({
			status: r.status,
			body: Buffer.from(await r.arrayBuffer()),
		}));
		// Their requests have joined the transfer under way once these are answered.
		await Promise.all(
			Array.from({ length: 2 }, () => fetch(url, { method: "HEAD" }).then((r) => r.arrayBuffer())),
		);
		releaseBig();
		for (;;) {
			const next = await reader.read();
			if (next.done) break;
			head.push(next.value);
		}
		expect(Buffer.concat(head).equals(big)).toBe(true);
		expect((await late).equals(big)).toBe(true);
		const range = await ranged;
		expect(range.status).toBe(206);
		expect(range.body.equals(big.subarray(1000, 11534336))).toBe(true);
		expect(bigGets).toBe(1);
	});
});
