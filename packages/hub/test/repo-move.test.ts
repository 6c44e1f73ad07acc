// Renaming and transferring repositories (POST /api/repos/move, huggingface_hub's move_repo): the real
// client moves and then reads by the former id (hf_hub_download, transformers' from_pretrained, info,
// files, paths-info), which answers a 307 to the new id; writes to the former id do not land; the
// rights matrix; two moves racing to one target; private repositories leaking nothing through their
// redirect; what follows the repository (discussions, likes, webhooks, the audit log, quota usage);
// chains a -> b -> c; a new repository at the former id ends its redirect; git clone by the former id;
// quota usage moving to the new namespace.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ndjson } from "../../../test-support/ndjson.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { gitOutcome } from "./support/git.js";
import { callHub, createUser, type HubAnswer, type RunningHub, startHub } from "./support/hub.js";
import { type Attempt, failed, ok, runHubClient } from "./support/python.js";
import { startMirrorPair } from "./support/mirror.js";

const ADMIN = "repo-move-admin-token-0123456789abcdef";
const SCRIPT = "hf_hub_move.py";

describe("moving repositories", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	const tokens = {} as Record<"alice" | "bob" | "carol" | "dave" | "admin", string>;

	const call = (
		method: string,
		path: string,
		token: string | undefined,
		body?: unknown,
	): Promise<HubAnswer> => callHub(hub.url, method, path, token, body, {});
	/** The request as a client that does not follow redirects sends it. */
	const raw = async (method: string, path: string, token?: string, body?: unknown) =>
		fetch(`${hub.url}${path}`, {
			method,
			redirect: "manual",
			headers: {
				...(token ? { authorization: `Bearer ${token}` } : {}),
				...(body === undefined ? {} : { "content-type": "application/json" }),
			},
			...(body === undefined ? {} : { body: JSON.stringify(body) }),
		});
	const move = (token: string | undefined, fromRepo: string, toRepo: string, type?: string) =>
		call("POST", "/api/repos/move", token, { fromRepo, toRepo, ...(type ? { type } : {}) });
	const create = async (token: string, name: string, extra: Record<string, unknown> = {}) => {
		const answer = await call("POST", "/api/repos/create", token, { name, ...extra });
		expect(answer.status, `${name}: ${answer.text}`).toBe(200);
	};

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-repo-move-"));
		writeFileSync(join(dir, "gitconfig"), "[user]\n\tname = Test\n\temail = test@example.com\n");
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, seed: false, adminToken: ADMIN, webhooks: { allowedHosts: "127.0.0.1" } });
		for (const name of ["alice", "bob", "carol", "dave"] as const)
			tokens[name] = await createUser(hub.url, ADMIN, name);
		tokens.admin = ADMIN;
		// acme: alice admin, bob write, carol read. beta: bob admin.
		for (const [org, members] of [
			[
				"acme",
				[
					{ user: "alice", role: "admin" },
					{ user: "bob", role: "write" },
					{ user: "carol", role: "read" },
				],
			],
			["beta", [{ user: "bob", role: "admin" }]],
		] as const) {
			const answer = await call("POST", "/api/admin/orgs", ADMIN, { name: org, members });
			expect(answer.status, answer.text).toBe(201);
		}
	}, 240_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	for (const kind of ["model", "dataset"] as const) {
		it(`huggingface_hub's move_repo of a ${kind}, then downloads and reads by the former id`, async () => {
			const out = await runHubClient<Record<string, Attempt | string>>(
				"move",
				hub.url,
				join(dir, `client-${kind}`),
				{ token: tokens.alice, old: `alice/old-${kind}`, new: `acme/new-${kind}`, repo_type: kind },
				{},
				SCRIPT,
			);
			ok(out.move as Attempt);
			// The former id is no repository any more: moving it again is RepositoryNotFound.
			expect(failed(out.again as Attempt)).toMatchObject({ error: "RepositoryNotFoundError", status: 404 });
			expect(ok(out.download_old as Attempt)).toBe(out.sha256);
			expect(ok(out.download_new as Attempt)).toBe(out.sha256);
			expect(ok(out.info_old as Attempt)).toBe(`acme/new-${kind}`);
			expect(ok(out.files_old as Attempt)).toEqual([".gitattributes", "config.json"]);
			expect(ok(out.paths_info_old as Attempt)).toEqual(["config.json"]);
			// A write to the former id does not land on the new one: RepositoryNotFound, as on the public hub.
			expect(failed(out.write_old as Attempt)).toMatchObject({
				error: "RepositoryNotFoundError",
				status: 404,
			});
			expect(ok(out.files_new as Attempt)).toEqual([".gitattributes", "config.json"]);
			if (kind === "model") expect(ok(out.from_pretrained_old as Attempt)).toBe(32);

			// The redirects themselves: 307, relative, the rest of the path and the query kept.
			const api = kind === "model" ? "/api/models" : "/api/datasets";
			const page = kind === "model" ? "" : "/datasets";
			const info = await raw("GET", `${api}/alice/old-${kind}/tree/main?recursive=1`, tokens.alice);
			expect(info.status).toBe(307);
			expect(info.headers.get("location")).toBe(`${api}/acme/new-${kind}/tree/main?recursive=1`);
			const resolve = await raw("HEAD", `${page}/alice/old-${kind}/resolve/main/config.json`);
			expect(resolve.status).toBe(307);
			expect(resolve.headers.get("location")).toBe(`${page}/acme/new-${kind}/resolve/main/config.json`);
			const web = await fetch(`${hub.url}${page}/alice/old-${kind}`, {
				redirect: "manual",
				headers: { accept: "text/html" },
			});
			expect(web.status).toBe(307);
			expect(web.headers.get("location")).toBe(`${page}/acme/new-${kind}`);
			// The audit log follows the repository and records the move.
			const audit = await call("GET", `/api/admin/audit?repo=acme/new-${kind}`, ADMIN);
			expect(audit.status, audit.text).toBe(200);
			const actions = (audit.json.entries as { action: string; details: Record<string, unknown> }[]) ?? [];
			expect(actions.map((entry) => entry.action)).toEqual(
				expect.arrayContaining(["repo.create", "repo.move"]),
			);
		}, 240_000);
	}

	it("the rights matrix, bad names and the public hub's error shapes", async () => {
		await create(tokens.alice, "mine");
		await create(tokens.alice, "in-acme", { organization: "acme" });
		await create(tokens.bob, "in-beta", { organization: "beta" });
		await create(tokens.alice, "taken", { organization: "acme" });
		const cases: [string | undefined, string, string, number, RegExp?][] = [
			[undefined, "alice/mine", "alice/other", 401],
			// Not a member: another user's repository is not theirs to move (public: 403 names why).
			[tokens.dave, "alice/mine", "dave/mine", 403, /cannot move alice\/mine/],
			// A read member of acme cannot rename in it.
			[
				tokens.carol,
				"acme/in-acme",
				"acme/renamed",
				403,
				/'read' role in acme; renaming a repository needs the 'write' role/,
			],
			// A write member may rename within acme, but not transfer out of it (admin needed).
			[
				tokens.bob,
				"acme/in-acme",
				"beta/in-acme",
				403,
				/'write' role in acme; transferring .* needs the 'admin' role/,
			],
			// Into a namespace that is not yours (another user's): refused.
			[tokens.alice, "alice/mine", "bob/mine", 403, /cannot transfer alice\/mine to bob/],
			// Target exists (any letter case): 409.
			[tokens.alice, "acme/in-acme", "acme/TAKEN", 409, /acme\/taken already exists/],
			// Reserved names and malformed ids: 400.
			[tokens.alice, "alice/mine", "alice/discussions", 400, /reserved/],
			[tokens.alice, "alice/mine", "alice/a/b", 400, /namespace\/name/],
			[tokens.alice, "alice/mine", "alice/..x", 400, /toRepo/],
			// Missing source: 404 RepoNotFound, as other routes answer.
			[tokens.alice, "alice/nothing", "alice/else", 404],
			// Types this hub does not host.
		];
		for (const [token, from, to, status, message] of cases) {
			const answer = await move(token, from, to);
			expect(answer.status, `${from} -> ${to}: ${answer.text}`).toBe(status);
			if (message) expect(answer.json.error, `${from} -> ${to}`).toMatch(message);
			if (status === 404) expect(answer.headers.get("x-error-code")).toBe("RepoNotFound");
		}
		expect(
			(
				await call("POST", "/api/repos/move", tokens.alice, {
					fromRepo: "alice/mine",
					toRepo: "alice/x",
					type: "space",
				})
			).status,
		).toBe(400);
		expect(
			(await call("POST", "/api/repos/move", tokens.alice, { fromRepo: 3, toRepo: "alice/x" })).json.error,
		).toMatch(/'fromRepo' must be a string/);
		// bob (write in acme) renames within acme; alice (admin in acme) transfers to herself; bob moves
		// his own beta repository into acme (write there).
		expect((await move(tokens.bob, "acme/in-acme", "acme/renamed")).status).toBe(200);
		expect((await move(tokens.alice, "acme/renamed", "alice/renamed")).status).toBe(200);
		const moved = await move(tokens.bob, "beta/in-beta", "acme/from-beta");
		expect(moved.status, moved.text).toBe(200);
		expect(moved.json).toEqual({
			url: `${hub.url}/acme/from-beta`,
			name: "acme/from-beta",
			from: "beta/in-beta",
		});
		// The hub admin may move anything.
		expect((await move(ADMIN, "alice/mine", "dave/mine")).status).toBe(200);
	}, 120_000);

	it("two moves racing to one target: exactly one wins, the other is a 409", async () => {
		await create(tokens.alice, "race-a");
		await create(tokens.alice, "race-b");
		const answers = await Promise.all([
			move(tokens.alice, "alice/race-a", "alice/race-target"),
			move(tokens.alice, "alice/race-b", "alice/race-target"),
		]);
		expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
		const files = await call("GET", "/api/models/alice/race-target", tokens.alice);
		expect(files.status).toBe(200);
		const loser = answers[0]!.status === 409 ? "alice/race-a" : "alice/race-b";
		expect((await call("GET", `/api/models/${loser}`, tokens.alice)).status).toBe(200);
	}, 60_000);

	it("a private repository's redirect reveals nothing to those who may not read it", async () => {
		await create(tokens.alice, "secret", { private: true });
		expect((await move(tokens.alice, "alice/secret", "alice/hidden-name")).status).toBe(200);
		for (const token of [undefined, tokens.bob]) {
			for (const path of [
				"/api/models/alice/secret",
				"/api/models/alice/secret/tree/main",
				"/alice/secret/resolve/main/.gitattributes",
			]) {
				const answer = await raw("GET", path, token);
				expect(answer.status, path).toBe(404);
				expect(answer.headers.get("location"), path).toBeNull();
				expect(await answer.text(), path).not.toContain("hidden-name");
			}
			const page = await fetch(`${hub.url}/alice/secret`, {
				redirect: "manual",
				headers: { accept: "text/html", ...(token ? { authorization: `Bearer ${token}` } : {}) },
			});
			expect(page.status).toBe(404);
			expect(await page.text()).not.toContain("hidden-name");
		}
		const owner = await raw("GET", "/api/models/alice/secret", tokens.alice);
		expect(owner.status).toBe(307);
		expect(owner.headers.get("location")).toBe("/api/models/alice/hidden-name");
	}, 60_000);

	it("discussions, likes and webhooks follow; chains resolve in one hop; a new repository ends the redirect", async () => {
		await create(tokens.alice, "chain-a");
		const files = { "README.md": "# chain\n" };
		expect(
			(await call("POST", "/api/models/alice/chain-a/commit/main", tokens.alice, ndjson(files, "Files")))
				.status,
		).toBe(200);
		const opened = await call("POST", "/api/models/alice/chain-a/discussions", tokens.bob, {
			title: "Hello",
			description: "a question",
		});
		expect(opened.status, opened.text).toBe(200);
		expect((await call("POST", "/api/models/alice/chain-a/like", tokens.bob)).status).toBe(200);
		const hook = await call("POST", "/api/settings/webhooks", tokens.alice, {
			url: "http://127.0.0.1:9/hook",
			watched: [{ type: "model", name: "alice/chain-a" }],
			domains: ["repo"],
		});
		expect(hook.status, hook.text).toBe(200);

		expect((await move(tokens.alice, "alice/chain-a", "alice/chain-b")).status).toBe(200);
		expect((await move(tokens.alice, "alice/chain-b", "alice/chain-c")).status).toBe(200);
		for (const former of ["alice/chain-a", "alice/chain-b"]) {
			const answer = await raw("GET", `/api/models/${former}/discussions`);
			expect(answer.status, former).toBe(307);
			expect(answer.headers.get("location")).toBe("/api/models/alice/chain-c/discussions");
		}
		const discussions = await call("GET", "/api/models/alice/chain-c/discussions", tokens.alice);
		expect((discussions.json.discussions as { title: string }[]).map((d) => d.title)).toEqual(["Hello"]);
		expect((await call("GET", "/api/models/alice/chain-c", tokens.alice)).json.likes).toBe(1);
		// Watchers got the public hub's move payload (stored before it is sent; the sender runs after the answer).
		let payloads: Record<string, unknown>[] = [];
		for (let tries = 0; tries < 100 && payloads.length < 2; tries++) {
			const rows = await db.query<{ payload: Record<string, unknown> | string }>(
				"SELECT payload FROM webhook_deliveries ORDER BY id",
			);
			payloads = rows.rows
				.map(
					(row) =>
						(typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload) as Record<
							string,
							unknown
						>,
				)
				.filter((payload) => (payload.event as { action: string }).action === "move");
			if (payloads.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
		}
		expect(
			payloads.map((payload) => [
				(payload.repo as { name: string }).name,
				(payload.movedTo as { name: string }).name,
			]),
		).toEqual([
			["alice/chain-a", "alice/chain-b"],
			["alice/chain-b", "alice/chain-c"],
		]);
		const hooks = await call("GET", "/api/settings/webhooks", tokens.alice);
		expect(JSON.stringify(hooks.json)).toContain("alice/chain-c");
		expect(JSON.stringify(hooks.json)).not.toContain("alice/chain-a");

		// Moving back to a former id: that id is the repository's again, no loop.
		expect((await move(tokens.alice, "alice/chain-c", "alice/chain-a")).status).toBe(200);
		expect((await call("GET", "/api/models/alice/chain-a", tokens.alice)).status).toBe(200);
		const fromB = await raw("GET", "/api/models/alice/chain-b");
		expect(fromB.headers.get("location")).toBe("/api/models/alice/chain-a");
		const fromC = await raw("GET", "/api/models/alice/chain-c");
		expect(fromC.headers.get("location")).toBe("/api/models/alice/chain-a");
		// A new repository at a former id ends its redirect.
		await create(tokens.alice, "chain-b");
		const own = await call("GET", "/api/models/alice/chain-b", tokens.alice);
		expect(own.status).toBe(200);
		expect(own.json.id).toBe("alice/chain-b");
	}, 60_000);

	it("git clone by the former id follows the redirect; the bytes count for the new owner", async () => {
		await create(tokens.alice, "git-old");
		const files = { "hello.txt": "hello from git-old, moved to acme\n" };
		expect(
			(await call("POST", "/api/models/alice/git-old/commit/main", tokens.alice, ndjson(files, "Files")))
				.status,
		).toBe(200);
		// Both namespaces keep another repository with the same .gitattributes: only the file's bytes move.
		await create(tokens.alice, "anchor");
		await create(tokens.alice, "anchor", { organization: "acme" });
		const used = async (account: string) =>
			(await call("GET", `/api/accounts/${account}/storage`, ADMIN)).json.usedBytes as number;
		const before = { alice: await used("alice"), acme: await used("acme") };
		expect((await move(tokens.alice, "alice/git-old", "acme/git-new")).status).toBe(200);
		// Quota usage is summed by namespace: the file's bytes left alice's usage for acme's.
		const moved = Buffer.byteLength(files["hello.txt"]);
		expect(before.alice - (await used("alice"))).toBe(moved);
		expect((await used("acme")) - before.acme).toBe(moved);
		const cloned = await gitOutcome(dir, ["clone", `${hub.url}/alice/git-old`, "cloned"], dir);
		expect(cloned.code, cloned.stderr).toBe(0);
		const log = await gitOutcome(dir, ["ls-files"], join(dir, "cloned"));
		expect(log.stdout.split("\n").filter(Boolean).sort()).toEqual([".gitattributes", "hello.txt"]);
	}, 120_000);
});

describe("moving in mirror mode", () => {
	it("a repository that exists only upstream is the upstream's to move: 403 mirrored read-only", async () => {
		const pair = await startMirrorPair({ adminToken: ADMIN });
		try {
			const owner = await createUser(pair.upstream.url, ADMIN, "upper");
			const made = await callHub(pair.upstream.url, "POST", "/api/repos/create", owner, { name: "far" });
			expect(made.status, made.text).toBe(200);
			// The downstream learns of it by a read, as a client's first call does.
			expect((await callHub(pair.downstream.url, "GET", "/api/models/upper/far", undefined)).status).toBe(
				200,
			);
			const refused = await callHub(pair.downstream.url, "POST", "/api/repos/move", ADMIN, {
				fromRepo: "upper/far",
				toRepo: "upper/near",
			});
			expect(refused.status, refused.text).toBe(403);
			expect(refused.json.error).toMatch(/upper\/far is mirrored read-only from/);
		} finally {
			await pair.close();
		}
	}, 60_000);
});
