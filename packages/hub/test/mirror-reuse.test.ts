import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MirrorCacheStats } from "../src/api/admin.js";
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
	let upstreamServer: Server;
	let db: Database;
	let hub: RunningHub;

	beforeAll(async () => {
		upstreamServer = createServer((req, res) => {
			const url = req.url ?? "";
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
});
