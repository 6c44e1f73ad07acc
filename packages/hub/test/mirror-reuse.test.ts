import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MirrorCacheStats, MirrorPrefetchProgress } from "../src/api/admin.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { DEFAULT_UPSTREAM_SETTINGS } from "../src/mirror/settings.js";
import { hubCall, ndjsonCommit } from "./support/git.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";

const ADMIN = "mirror-reuse-admin-token-0123456789";
const SHARED = Buffer.from("the same small file under several names\n");
const LOCAL = Buffer.from("a small file a local repository of the downstream hub holds\n");
const COMMIT = "c".repeat(40);

/** Git's object id of a regular file's bytes: the upstream's ETag for it. */
function gitOid(bytes: Buffer): string {
	return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/**
 * Mirror mode reuses a regular (non-LFS) file's stored bytes by git blob id (migration 28): an upstream
 * that counts its GETs, serving small files as the public hub does (ETag the git blob id, no
 * X-Linked-Etag), and a downstream hub mirroring it that holds a local repository of its own.
 */
describe("mirror mode: a regular file stored already is not fetched again", () => {
	const gets: string[] = [];
	let release: () => void = () => {};
	const released = new Promise<void>((resolve) => (release = resolve));
	let upstreamServer: Server;
	let db: Database;
	let hub: RunningHub;

	beforeAll(async () => {
		upstreamServer = createServer((req, res) => {
			const url = req.url ?? "";
			// A held repository's info, and its one file's bytes only once the test releases them.
			const held = /^\/api\/models\/evil\/(held\d)\/revision\//.exec(url);
			if (held) {
				res.writeHead(200, { "content-type": "application/json" });
				res.end(
					JSON.stringify({ id: `evil/${held[1]}`, sha: COMMIT, siblings: [{ rfilename: "held.bin" }] }),
				);
				return;
			}
			if (url.endsWith("/held.bin") && req.method === "GET") {
				const body = Buffer.from(`held bytes of ${url}\n`);
				res.writeHead(200, { "content-length": String(body.length) });
				void released.then(() => res.end(body));
				return;
			}
			if (url.endsWith("/held.bin")) {
				const body = Buffer.from(
					`held bytes of ${url.replace(/^\/([^/]+\/[^/]+)\/resolve\/[^/]+/, "/$1/resolve/" + COMMIT)}\n`,
				);
				res.writeHead(200, {
					"x-repo-commit": COMMIT,
					etag: `"${gitOid(body)}"`,
					"content-length": String(body.length),
				});
				res.end();
				return;
			}
			const body = url.endsWith("/local.txt") ? LOCAL : SHARED;
			if (req.method === "GET") gets.push(url);
			res.writeHead(200, {
				"x-repo-commit": COMMIT,
				etag: `"${gitOid(body)}"`,
				"content-length": String(body.length),
			});
			res.end(req.method === "HEAD" ? undefined : body);
		});
		await new Promise<void>((resolve) => upstreamServer.listen(0, "127.0.0.1", resolve));
		const port = (upstreamServer.address() as AddressInfo).port;
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({
			db,
			seed: false,
			adminToken: ADMIN,
			upstream: {
				...DEFAULT_UPSTREAM_SETTINGS,
				url: `http://127.0.0.1:${port}`,
				token: undefined,
				outbound: { ...DEFAULT_UPSTREAM_SETTINGS.outbound, timeoutMs: 5000, retries: 0 },
			},
		});
		// A local repository's small file: its bytes are kept in the database (small_blobs).
		const token = await createUser(hub.url, ADMIN, "bob");
		const created = await hubCall(hub.url, "/api/repos/create", token, { name: "own" });
		expect(created.status).toBe(200);
		await ndjsonCommit(
			hub.url,
			{ api: "models", id: "bob/own" },
			token,
			{ "notes.txt": LOCAL.toString() },
			"own",
		);
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		upstreamServer?.close();
	});

	async function download(path: string, headers: Record<string, string> = {}): Promise<Buffer> {
		const res = await fetch(`${hub.url}/${path}`, { headers });
		expect(res.status).toBeLessThan(300);
		expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{40}"$/);
		return Buffer.from(await res.arrayBuffer());
	}

	async function stats(): Promise<MirrorCacheStats> {
		const res = await fetch(`${hub.url}/api/admin/mirror`, { headers: { authorization: `Bearer ${ADMIN}` } });
		return (await res.json()) as MirrorCacheStats;
	}

	it("serves the same content under another path or repository from the bytes stored once", async () => {
		expect((await download("evil/one/resolve/main/a.txt")).equals(SHARED)).toBe(true);
		expect(gets).toEqual(["/evil/one/resolve/" + COMMIT + "/a.txt"]);
		// Stored (and recorded) just after the client has it all.
		await vi.waitFor(async () => expect((await stats()).files).toBe(1), { timeout: 10_000, interval: 50 });

		expect((await download("evil/one/resolve/main/b.txt")).equals(SHARED)).toBe(true);
		expect((await download("evil/two/resolve/main/a.txt")).equals(SHARED)).toBe(true);
		expect((await download("evil/two/resolve/main/c.txt", { range: "bytes=4-7" })).toString()).toBe(
			SHARED.subarray(4, 8).toString(),
		);
		// The upstream was asked about each file (HEAD), and for the bytes once.
		expect(gets).toHaveLength(1);
		expect(await stats()).toMatchObject({ upstreamFetches: 1, misses: 1, hits: 3, files: 4 });
	});

	it("serves an upstream file from a local repository's small file of the same content, kept in the database", async () => {
		expect((await download("evil/one/resolve/main/local.txt")).equals(LOCAL)).toBe(true);
		expect(
			(await download("evil/two/resolve/main/local.txt", { range: "bytes=2-" })).equals(LOCAL.subarray(2)),
		).toBe(true);
		expect(gets.filter((url) => url.endsWith("/local.txt"))).toEqual([]);
		// The local repository still serves its own file.
		expect((await download("bob/own/resolve/main/notes.txt")).equals(LOCAL)).toBe(true);
	});

	it("runs one prefetch per repository and a bounded number at once, with their progress", async () => {
		const admin = { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" };
		const post = (repo: string, revision = "main") =>
			fetch(`${hub.url}/api/admin/mirror/prefetch`, {
				method: "POST",
				headers: admin,
				body: JSON.stringify({ repo, revision }),
			});
		const first = await post("evil/held1");
		expect(first.status).toBe(202);
		const { id } = (await first.json()) as MirrorPrefetchProgress;
		const progress = async () =>
			(await (
				await fetch(`${hub.url}/api/admin/mirror/prefetch/${id}`, { headers: admin })
			).json()) as MirrorPrefetchProgress;
		// Sized, its file's bytes held upstream: fetching.
		await vi.waitFor(
			async () => expect(await progress()).toMatchObject({ state: "fetching", files: 1, sized: 1 }),
			{
				timeout: 10_000,
				interval: 50,
			},
		);
		// The same revision again: the one under way; another revision of it: refused.
		const again = await post("evil/held1");
		expect(again.status).toBe(200);
		expect(((await again.json()) as MirrorPrefetchProgress).id).toBe(id);
		const other = await post("evil/held1", "v2");
		expect(other.status).toBe(409);
		expect(((await other.json()) as { error: string }).error).toContain(
			"a prefetch of evil/held1@main is under way",
		);
		// Four at once at most.
		for (const repo of ["evil/held2", "evil/held3", "evil/held4"])
			expect((await post(repo)).status).toBe(202);
		const fifth = await post("evil/held5");
		expect(fifth.status).toBe(503);
		expect(((await fifth.json()) as { error: string }).error).toContain("4 prefetches are under way");

		release();
		await vi.waitFor(async () => expect(await progress()).toMatchObject({ state: "complete", fetched: 1 }), {
			timeout: 10_000,
			interval: 50,
		});
		await vi.waitFor(
			async () => {
				const res = await fetch(`${hub.url}/api/admin/mirror/prefetch`, { headers: admin });
				const { prefetches } = (await res.json()) as { prefetches: MirrorPrefetchProgress[] };
				expect(prefetches.map((entry) => entry.state)).toEqual([
					"complete",
					"complete",
					"complete",
					"complete",
				]);
			},
			{ timeout: 10_000, interval: 50 },
		);
		expect((await post("evil/held5")).status).toBe(202);
	});
});
