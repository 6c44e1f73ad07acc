import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { DEFAULT_UPSTREAM_SETTINGS } from "../src/mirror/settings.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";

/**
 * Mirror mode's operator settings, each against a fake upstream on 127.0.0.1 that records every request:
 * MODELHUB_UPSTREAM_ALLOW, MODELHUB_UPSTREAM_TOKEN_ANONYMOUS, the branch refresh after
 * MODELHUB_UPSTREAM_TTL_S, MODELHUB_UPSTREAM_TIMEOUT_MS (504 naming the upstream), and a local private
 * repository with an upstream repository's name.
 */

const ADMIN = "mirror-settings-admin-token-0123";
const TOKEN = "upstream-settings-token-0123456789";
/** Long enough that no answer kept by a test goes stale while it runs; the TTL test ages its records. */
const TTL_MS = 3_600_000;

/** The upstream repositories' only file, as each commit has it. */
function configAt(id: string, commit: string): Buffer {
	return Buffer.from(`${JSON.stringify({ repo: id, commit })}\n`);
}

function gitOid(content: Buffer): string {
	return createHash("sha1")
		.update(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]))
		.digest("hex");
}

function commitOf(text: string): string {
	return createHash("sha1").update(text).digest("hex");
}

interface Seen {
	method: string;
	url: string;
	authorization: string | undefined;
}

describe("mirror mode: operator settings", () => {
	const seen: Seen[] = [];
	/** The commit each upstream repository's main points at (any other repository: one of its own). */
	const heads = new Map<string, string>();
	/** Requests the upstream never answers (not even headers); ended by the teardown. */
	const hanging: ServerResponse[] = [];
	let upstream: Server;
	let upstreamUrl = "";
	let db: Database;
	let hub: RunningHub;

	/** Requests the upstream saw for this repository (any route). */
	const seenFor = (id: string): Seen[] => seen.filter((s) => decodeURIComponent(s.url).includes(`/${id}/`));

	function answer(req: IncomingMessage, res: ServerResponse): void {
		seen.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization });
		const path = decodeURIComponent(new URL(req.url ?? "/", "http://upstream").pathname);
		const match =
			/^\/api\/models\/([^/]+\/[^/]+)(?:\/(revision|tree)\/([^/?]+))?/.exec(path) ??
			/^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path);
		const id = match?.[1] ?? "";
		if (id.startsWith("hang-org/")) {
			hanging.push(res);
			return;
		}
		// Token-only repositories (private upstream): the public is refused as huggingface.co refuses it.
		const tokenOnly = id.startsWith("open-ns/") || id.startsWith("closed-ns/");
		if (!match || (tokenOnly && req.headers.authorization !== `Bearer ${TOKEN}`)) {
			const body = JSON.stringify({ error: "Repository not found" });
			res.writeHead(match ? 401 : 404, {
				"content-type": "application/json",
				"x-error-code": "RepoNotFound",
			});
			res.end(body);
			return;
		}
		const commit = heads.get(id) ?? commitOf(id);
		const config = configAt(id, commit);
		const oid = gitOid(config);
		if (path.startsWith("/api/")) {
			const body =
				match[2] === "tree"
					? [{ type: "file", oid, size: config.length, path: "config.json" }]
					: {
							id,
							modelId: id,
							sha: commit,
							private: tokenOnly,
							gated: false,
							disabled: false,
							downloads: 0,
							likes: 0,
							tags: [],
							siblings: [{ rfilename: "config.json" }],
						};
			res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
			return;
		}
		if (match[3] !== "config.json") {
			res.writeHead(404, { "x-error-code": "EntryNotFound" }).end();
			return;
		}
		res.writeHead(200, {
			"x-repo-commit": commit,
			etag: `"${oid}"`,
			"content-length": String(config.length),
		});
		res.end(req.method === "HEAD" ? undefined : config);
	}

	beforeAll(async () => {
		upstream = createServer(answer);
		await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
		upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({
			db,
			seed: false,
			adminToken: ADMIN,
			upstream: {
				...DEFAULT_UPSTREAM_SETTINGS,
				url: upstreamUrl,
				token: TOKEN,
				ttlMs: TTL_MS,
				allow: ["listed-org", "partly/yes", "open-ns", "closed-ns", "ttl-org", "hang-org", "bob"],
				tokenForAnonymous: ["open-ns"],
				outbound: { ...DEFAULT_UPSTREAM_SETTINGS.outbound, timeoutMs: 500, retries: 0 },
			},
		});
	});

	afterAll(async () => {
		for (const res of hanging) res.destroy();
		await hub?.close();
		await db?.close();
		upstream?.closeAllConnections();
		upstream?.close();
	});

	/** The info, tree and a file of a repository as an anonymous client (or with `headers`) gets them. */
	async function read(id: string, headers: Record<string, string> = {}) {
		const info = await fetch(`${hub.url}/api/models/${id}`, { headers });
		const tree = await fetch(`${hub.url}/api/models/${id}/tree/main`, { headers });
		const file = await fetch(`${hub.url}/${id}/resolve/main/config.json`, { headers });
		return {
			info: { status: info.status, body: await info.text() },
			tree: { status: tree.status, body: await tree.text() },
			file: { status: file.status, body: await file.text(), commit: file.headers.get("x-repo-commit") },
		};
	}

	it("MODELHUB_UPSTREAM_ALLOW: mirrors listed namespaces and repositories only; the upstream never hears of the others", async () => {
		for (const id of ["listed-org/model", "partly/yes"]) {
			const got = await read(id);
			expect(got.info.status, id).toBe(200);
			expect(got.file.body, id).toBe(configAt(id, commitOf(id)).toString());
			expect(seenFor(id).length, id).toBeGreaterThan(0);
		}
		for (const id of ["unlisted-org/model", "partly/no"]) {
			const got = await read(id);
			expect([got.info.status, got.tree.status, got.file.status], id).toEqual([404, 404, 404]);
			expect(got.file.body, id).not.toContain(commitOf(id));
			const paths = await fetch(`${hub.url}/api/models/${id}/paths-info/main`, {
				method: "POST",
				headers: { "content-type": "application/x-www-form-urlencoded" },
				body: "paths=config.json",
			});
			expect(paths.status, id).toBe(404);
			expect(seenFor(id), id).toEqual([]);
		}
	});

	it("MODELHUB_UPSTREAM_TOKEN_ANONYMOUS: a listed namespace's token-only repositories are answered to anonymous clients, others not", async () => {
		const open = await read("open-ns/private-model");
		expect([open.info.status, open.tree.status, open.file.status]).toEqual([200, 200, 200]);
		expect(open.file.body).toBe(
			configAt("open-ns/private-model", commitOf("open-ns/private-model")).toString(),
		);
		for (const s of seenFor("open-ns/private-model")) expect(s.authorization).toBe(`Bearer ${TOKEN}`);
		const closed = await read("closed-ns/private-model");
		for (const [route, got] of Object.entries(closed)) {
			expect([401, 404], route).toContain(got.status);
			expect(got.body, route).not.toContain(commitOf("closed-ns/private-model"));
		}
		// Asked as the public: without the token.
		const asked = seenFor("closed-ns/private-model");
		expect(asked.length).toBeGreaterThan(0);
		for (const s of asked) expect(s.authorization).toBeUndefined();
		// The token does read it: a signed-in user gets it.
		const user = await createUser(hub.url, ADMIN, "erin");
		const signedIn = await read("closed-ns/private-model", { authorization: `Bearer ${user}` });
		expect([signedIn.info.status, signedIn.tree.status, signedIn.file.status]).toEqual([200, 200, 200]);
		// And anonymous clients still do not, with the signed-in answers kept.
		const again = await read("closed-ns/private-model");
		for (const [route, got] of Object.entries(again)) expect([401, 404], route).toContain(got.status);
	});

	it("MODELHUB_UPSTREAM_TTL_S: a branch's new upstream commit is not seen within the TTL, and is seen once it is past", async () => {
		const id = "ttl-org/model";
		const [first, second, third] = ["first", "second", "third"].map(commitOf) as [string, string, string];
		const state = async () => {
			const got = await read(id);
			expect([got.info.status, got.file.status]).toEqual([200, 200]);
			return {
				info: (JSON.parse(got.info.body) as { sha: string }).sha,
				file: got.file.commit,
				body: got.file.body,
			};
		};
		const at = (commit: string) => ({ info: commit, file: commit, body: configAt(id, commit).toString() });
		heads.set(id, first);
		expect(await state()).toEqual(at(first));
		// The upstream moves main; within the TTL the kept commit is served and the upstream is not asked.
		heads.set(id, second);
		const asked = seenFor(id).length;
		expect(await state()).toEqual(at(first));
		expect(seenFor(id).length).toBe(asked);
		// The database's clock is the one the TTL is measured by (the kept records' fetched_at against
		// now()): the kept records are moved back past the TTL instead of waiting for it.
		await ageMirrorRecords(db, TTL_MS + 60_000);
		expect(await state()).toEqual(at(second));
		expect(seenFor(id).length).toBeGreaterThan(asked);
		// The refresh starts a new TTL: the next upstream move is not seen until it is past again.
		heads.set(id, third);
		expect(await state()).toEqual(at(second));
		await ageMirrorRecords(db, TTL_MS + 60_000);
		expect(await state()).toEqual(at(third));
	});

	it("MODELHUB_UPSTREAM_TIMEOUT_MS: an upstream that never sends headers is a 504 naming the upstream", async () => {
		for (const url of [
			`${hub.url}/api/models/hang-org/model`,
			`${hub.url}/hang-org/model/resolve/main/config.json`,
		]) {
			const res = await fetch(url);
			expect(res.status, url).toBe(504);
			const body = (await res.json()) as { error: string };
			expect(body.error, url).toContain(upstreamUrl);
		}
		// The upstream was asked (it is the timeout that answered, not a refusal before asking).
		expect(hanging.length).toBe(2);
	});

	it("a private local repository with an upstream repository's name: anonymous clients get 404, the upstream is never asked", async () => {
		const bob = await createUser(hub.url, ADMIN, "bob");
		const auth = { authorization: `Bearer ${bob}` };
		const created = await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: { ...auth, "content-type": "application/json" },
			body: JSON.stringify({ name: "shadow", private: true }),
		});
		expect(created.status).toBe(200);
		const local = Buffer.from("the local repository's own file\n");
		const committed = await fetch(`${hub.url}/api/models/bob/shadow/commit/main`, {
			method: "POST",
			headers: { ...auth, "content-type": "application/x-ndjson" },
			body: [
				{ key: "header", value: { summary: "local" } },
				{
					key: "file",
					value: { path: "config.json", encoding: "base64", content: local.toString("base64") },
				},
			]
				.map((line) => JSON.stringify(line))
				.join("\n"),
		});
		expect(committed.status).toBe(200);
		const anonymous = await read("bob/shadow");
		for (const [route, got] of Object.entries(anonymous)) {
			expect(got.status, route).toBe(404);
			expect(got.body, route).not.toContain(commitOf("bob/shadow"));
		}
		const paths = await fetch(`${hub.url}/api/models/bob/shadow/paths-info/main`, {
			method: "POST",
			headers: { "content-type": "application/x-www-form-urlencoded" },
			body: "paths=config.json",
		});
		expect(paths.status).toBe(404);
		// A downstream user who is not the owner: 404 too.
		const other = await createUser(hub.url, ADMIN, "frank");
		const stranger = await read("bob/shadow", { authorization: `Bearer ${other}` });
		for (const [route, got] of Object.entries(stranger)) expect(got.status, route).toBe(404);
		// The owner gets the local repository.
		const owner = await read("bob/shadow", auth);
		expect(owner.file.status).toBe(200);
		expect(owner.file.body).toBe(local.toString());
		expect(seenFor("bob/shadow")).toEqual([]);
	});
});

/** Moves every kept upstream answer and revision `ms` into the past, as if that long had gone by. */
async function ageMirrorRecords(db: Database, ms: number): Promise<void> {
	const seconds = Math.ceil(ms / 1000);
	for (const table of ["mirror_answers", "mirror_revisions"]) {
		await db.query(`UPDATE ${table} SET fetched_at = fetched_at - make_interval(secs => $1)`, [seconds]);
	}
}
