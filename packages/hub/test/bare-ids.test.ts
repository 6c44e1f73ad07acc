// Writes to repositories without a namespace (`gpt2`, `squad`): every write route serves them as it
// serves `ns/name` (the real huggingface_hub: regular, LFS and Xet uploads, folders, commits, pull
// requests, branches, tags, settings), only the hub admin and site admins may change them, the place of
// a write action in the URL alone says where the id ends, and a mirror refuses writes to upstream-only
// bare names with its clear message.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESERVED_REPO_NAMES } from "@modelhub/tasks/repositories";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { saveModels } from "../src/services/import.js";
import { parseModelList } from "../src/models/input.js";
import { API_WRITE_ACTIONS, repoWriteTarget } from "../src/routes/repo-paths.js";
import { callHub, createUser, type HubAnswer, type RunningHub, startHub } from "./support/hub.js";
import { startMirrorPair } from "./support/mirror.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "bare-ids-admin-token-0123456789abcdef";
const SCRIPT = "hf_hub_bare_ids.py";

type Attempt<T = unknown> = { ok: T } | { error: string; status: number | null; message: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the script's results are asserted field by field
type Outcomes = Record<string, Attempt<any>> & { xet_available: boolean; sha256: Record<string, string> };

function ok<T>(attempt: Attempt<T> | undefined): T {
	if (!attempt || !("ok" in attempt)) throw new Error(`expected success, got ${JSON.stringify(attempt)}`);
	return attempt.ok;
}

function failed(attempt: Attempt | undefined): { error: string; status: number | null; message: string } {
	if (!attempt || !("error" in attempt)) throw new Error(`expected an error, got ${JSON.stringify(attempt)}`);
	return attempt;
}

const NDJSON_COMMIT = `${JSON.stringify({ key: "header", value: { summary: "A note" } })}\n${JSON.stringify({
	key: "file",
	value: { path: "note.txt", encoding: "base64", content: Buffer.from("note\n").toString("base64") },
})}\n`;

describe("writes to repositories without a namespace", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	const tokens: Record<string, string> = {};

	const call = (
		method: string,
		path: string,
		token: string | undefined,
		body?: unknown,
		headers: Record<string, string> = {},
	): Promise<HubAnswer> => callHub(hub.url, method, path, token, body, headers);

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-bare-ids-"));
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, seed: false, adminToken: ADMIN });
		for (const name of ["staff", "bob", "alice"]) tokens[name] = await createUser(hub.url, ADMIN, name);
		expect((await call("PUT", "/api/admin/users/staff/site-admin", ADMIN, { siteAdmin: true })).status).toBe(
			200,
		);
		for (const [name, type] of [
			["gpt2", "model"],
			["squad", "dataset"],
			["legacy", "model"],
			["alice", "model"],
		] as const) {
			expect((await call("POST", "/api/repos/create", ADMIN, { name, type })).status, name).toBe(200);
		}
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	for (const [repo, repoType] of [
		["gpt2", "model"],
		["squad", "dataset"],
	] as const) {
		it(`huggingface_hub writes to the ${repoType} ${repo} as a site admin; a user only opens pull requests`, async () => {
			const out = await runHubClient<Outcomes>(
				"writes",
				hub.url,
				join(dir, `${repo}-writes`),
				{ token: tokens.staff, reader_token: tokens.bob, repo, repo_type: repoType },
				{},
				SCRIPT,
			);
			// Each commit lands; huggingface_hub >= 1 then fails to describe it (its RepoUrl needs a namespace).
			const landedButUndescribed = {
				error: "HfUriError",
				message: expect.stringContaining("single-segment URLs are not supported"),
			};
			for (const name of ["regular", "lfs", "xet", "folder", "commit", "delete_file"]) {
				expect(failed(out[name]), name).toMatchObject(landedButUndescribed);
			}
			expect(ok(out.folder_files)).toEqual([
				".gitattributes",
				"README.md",
				"folder/a.txt",
				"folder/sub/b.txt",
				"lfs.bin",
				"xet.bin",
			]);
			expect(ok(out.files)).toEqual([
				".gitattributes",
				"README.md",
				"folder/sub/b.txt",
				"lfs.bin",
				"xet.bin",
			]);
			expect(ok(out.downloads)).toEqual({
				"lfs.bin": out.sha256["lfs.bin"],
				"xet.bin": out.sha256["xet.bin"],
			});
			// The test environment has hf_xet: xet.bin went through Xet (a token for this repository was issued).
			expect(out.xet_available).toBe(true);
			const xetTokens = await db.query<{ n: number }>(
				"SELECT count(*)::int AS n FROM xet_tokens WHERE repo_type = $1 AND repo_id = $2",
				[repoType, repo],
			);
			expect(xetTokens.rows[0]?.n).toBeGreaterThan(0);
			ok(out.branch);
			ok(out.tag);
			expect(ok(out.refs)).toEqual(["dev", "main", "v1"]);
			ok(out.delete_tag);
			ok(out.delete_branch);

			// Pull requests: the site admin's (Xet), a reader's (LFS) and a reader's plain commit, each opened.
			for (const name of ["staff_pr", "reader_pr", "reader_commit_pr"]) {
				expect(failed(out[name]), name).toMatchObject(landedButUndescribed);
			}
			expect(ok(out.pull_requests)).toEqual([1, 2, 3]);
			expect(ok(out.pr_file)).toBe(out.sha256["pr.bin"]);
			expect(ok(out.merge)).toBe(true);
			expect(ok(out.merged_file)).toBe(out.sha256["pr.bin"]);

			const refusal = expect.stringContaining(
				`You (bob) don't have write access to ${repo}: it has no namespace, and only the hub admin and site admins change such repositories`,
			);
			for (const name of ["reader_regular", "reader_lfs", "reader_xet", "reader_branch", "reader_settings"]) {
				expect(failed(out[name]), name).toMatchObject({ status: 403, message: refusal });
			}
			expect(failed(out.reader_merge)).toMatchObject({
				status: 403,
				message: expect.stringContaining(`Merging a pull request needs write access to ${repo}`),
			});
			// Visibility stays the hub admin's (a private bare repository has no members to read it).
			const adminOnly = expect.stringContaining(
				`${repo} has no namespace: deleting it or changing its visibility needs the hub admin token`,
			);
			expect(failed(out.staff_settings)).toMatchObject({ status: 403, message: adminOnly });
			expect(ok(out.private)).toBe(false);
			expect(ok(out.main_files)).toEqual([
				".gitattributes",
				"README.md",
				"folder/sub/b.txt",
				"lfs.bin",
				"pr.bin",
				"xet.bin",
			]);
		}, 240_000);
	}

	it("lets the hub admin and site admins write, refuses others with the public hub's 403, anonymous with 401", async () => {
		const commit = (token: string | undefined, query = "") =>
			call("POST", `/api/models/legacy/commit/main${query}`, token, NDJSON_COMMIT);
		expect((await commit(ADMIN)).status).toBe(200);
		expect((await commit(tokens.staff)).status).toBe(200);
		const anonymous = await commit(undefined);
		expect(anonymous.status).toBe(401);
		const user = await commit(tokens.alice);
		expect(user.status).toBe(403);
		const message =
			"You (alice) don't have write access to legacy: it has no namespace, and only the hub admin and site admins change such repositories (open a pull request instead)";
		expect(user.json).toEqual({ error: message });
		// huggingface_hub prints X-Error-Message in its HfHubHTTPError.
		expect(user.headers.get("x-error-message")).toBe(message);
		// A pull request is open to every reader.
		const pr = await commit(tokens.alice, "?create_pr=1");
		expect(pr.status).toBe(200);
		expect(pr.json.pullRequestUrl).toBe(`${hub.url}/legacy/discussions/1`);
		// A site admin's read token only reads.
		const made = await call("POST", "/api/admin/users/staff/tokens", ADMIN, {
			name: "read-only",
			scope: "read",
		});
		expect(made.status).toBe(201);
		const read = await commit(made.json.token as string);
		expect(read.status).toBe(403);
		expect(read.json.error).toContain("is read-only");
		// Every write route answers the same for a bare id: refused to alice, served to staff.
		const writes: Array<[string, string, unknown]> = [
			["POST", "/api/models/legacy/preupload/main", { files: [{ path: "a.txt", size: 2, sample: "" }] }],
			["GET", "/api/models/legacy/xet-write-token/main", undefined],
			["POST", "/api/models/legacy/branch/feature", {}],
			["POST", "/api/models/legacy/tag/main", { tag: "v2" }],
			["DELETE", "/api/models/legacy/tag/v2", undefined],
			["DELETE", "/api/models/legacy/branch/feature", undefined],
		];
		// (Readers may ask preupload and a Xet token for a pull request; for main they are refused alike.)
		for (const [method, path, body] of writes) {
			const refused = await call(method, path, tokens.alice, body);
			expect(refused.status, `${method} ${path}`).toBe(403);
			expect(refused.json.error, `${method} ${path}`).toContain("has no namespace");
		}
		for (const [method, path, body] of writes) {
			const done = await call(method, path, tokens.staff, body);
			expect(done.status, `${method} ${path}: ${JSON.stringify(done.json)}`).toBe(200);
		}
		// Visibility: the hub admin's alone.
		const settings = (token: string | undefined) =>
			call("PUT", "/api/models/legacy/settings", token, { private: false });
		expect((await settings(tokens.alice)).json.error).toContain("has no namespace");
		const bySiteAdmin = await settings(tokens.staff);
		expect(bySiteAdmin.status).toBe(403);
		expect(bySiteAdmin.json.error).toContain("needs the hub admin token");
		expect((await settings(ADMIN)).status).toBe(200);
		const batch = await call("POST", "/legacy.git/info/lfs/objects/batch", tokens.alice, {
			operation: "upload",
			objects: [{ oid: "a".repeat(64), size: 3 }],
			ref: { name: "refs/heads/main" },
		});
		expect(batch.status).toBe(403);
		// A private bare repository is hidden from those who may not read it.
		expect((await call("PUT", "/api/models/legacy/settings", ADMIN, { private: true })).status).toBe(200);
		const hidden = await commit(tokens.alice);
		expect(hidden.status).toBe(404);
		expect(hidden.headers.get("x-error-code")).toBe("RepoNotFound");
		expect((await call("PUT", "/api/models/legacy/settings", ADMIN, { private: false })).status).toBe(200);
	}, 120_000);

	it("decides where the id ends by the place of the write action: its words are no new repository names", async () => {
		// Every write action is a reserved name, so `x/{action}` cannot be made.
		for (const action of Object.keys(API_WRITE_ACTIONS)) expect(RESERVED_REPO_NAMES).toContain(action);
		for (const name of ["preupload", "xet-write-token", "Branch", "tag"]) {
			const res = await call("POST", "/api/repos/create", tokens.alice, { name });
			expect(res.status, name).toBe(400);
			expect(res.json.error).toContain(`repository name '${name}' is reserved`);
		}
		// A model made before the reservation (imported) keeps its name and its reads…
		await saveModels(db, hub.storage, parseModelList([{ id: "alice/preupload", tags: [] }]), {
			generateFiles: false,
		});
		expect((await call("GET", "/api/models/alice/preupload", undefined)).status).toBe(200);
		// …and its writes at four segments; three segments name the bare `alice`, whose revision
		// `discussions` does not exist (never a discussion opened on `alice/preupload`).
		const preupload = { files: [{ path: "a.txt", size: 2, sample: "" }] };
		expect((await call("POST", "/api/models/alice/preupload/preupload/main", ADMIN, preupload)).status).toBe(
			200,
		);
		const three = await call("POST", "/api/models/alice/preupload/discussions", ADMIN, preupload);
		expect(three.status).toBe(404);
		expect(three.headers.get("x-error-code")).toBe("RevisionNotFound");
		const opened = await call("GET", "/api/models/alice/preupload/discussions", undefined);
		expect(opened.status).toBe(200);
		expect(opened.json.count).toBe(0);
		// Counts that fit neither shape are no route.
		for (const path of ["/api/models/gpt2/commit", "/api/models/a/b/c/commit/main"]) {
			expect((await call("POST", path, ADMIN, {})).status, path).toBe(404);
		}
		// The rule, as the mirror's write guard reads it.
		expect(repoWriteTarget("/api/models/gpt2/commit/main")).toEqual({ type: "model", id: "gpt2" });
		expect(repoWriteTarget("/api/models/alice/preupload/discussions")).toEqual({
			type: "model",
			id: "alice",
		});
		expect(repoWriteTarget("/api/models/alice/tag/commit/main")).toEqual({ type: "model", id: "alice/tag" });
		expect(repoWriteTarget("/api/datasets/squad/settings")).toEqual({ type: "dataset", id: "squad" });
		expect(repoWriteTarget("/api/datasets/a/settings/settings")).toEqual({
			type: "dataset",
			id: "a/settings",
		});
		expect(repoWriteTarget("/api/models/a/b/c/commit/main")).toBeUndefined();
		expect(repoWriteTarget("/gpt2.git/info/lfs/objects/batch")).toEqual({ type: "model", id: "gpt2" });
		expect(repoWriteTarget("/datasets/squad.git/info/lfs/objects/batch")).toEqual({
			type: "dataset",
			id: "squad",
		});
		expect(repoWriteTarget("/datasets/a/b.git/info/lfs/objects/verify")).toEqual({
			type: "dataset",
			id: "a/b",
		});
		expect(repoWriteTarget("/api/models/gpt2/commit/%E0")).toBeUndefined();
	});
});

describe("mirror mode: writes to a bare upstream-only name", () => {
	it("refuses them with the mirror's message, at every write route", async () => {
		const pair = await startMirrorPair({
			adminToken: ADMIN,
			prepare: async (upstream) => {
				for (const [name, type] of [
					["gpt2", "model"],
					["squad", "dataset"],
				] as const) {
					const res = await fetch(`${upstream.url}/api/repos/create`, {
						method: "POST",
						headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
						body: JSON.stringify({ name, type }),
					});
					expect(res.status).toBe(200);
				}
			},
		});
		try {
			const { downstream, upstream } = pair;
			const token = await createUser(downstream.url, ADMIN, "carol");
			for (const [api, page] of [
				["/api/models/gpt2", "/gpt2"],
				["/api/datasets/squad", "/datasets/squad"],
			] as const) {
				// Read once through the mirror: the name is then known to be the upstream's.
				expect((await fetch(`${downstream.url}${api}`)).status).toBe(200);
				for (const [method, path, contentType, body] of [
					["POST", `${api}/commit/main`, "application/x-ndjson", NDJSON_COMMIT],
					["POST", `${api}/preupload/main`, "application/json", JSON.stringify({ files: [] })],
					["POST", `${api}/branch/dev`, "application/json", "{}"],
					["PUT", `${api}/settings`, "application/json", JSON.stringify({ private: true })],
					[
						"POST",
						`${page}.git/info/lfs/objects/batch`,
						"application/json",
						JSON.stringify({ operation: "upload", objects: [] }),
					],
				] as const) {
					for (const as of [token, ADMIN]) {
						const res = await fetch(`${downstream.url}${path}`, {
							method,
							headers: { authorization: `Bearer ${as}`, "content-type": contentType },
							body,
						});
						expect(res.status, `${method} ${path}`).toBe(403);
						expect(((await res.json()) as { error: string }).error, `${method} ${path}`).toContain(
							`mirrored read-only from ${upstream.url}`,
						);
					}
				}
			}
		} finally {
			await pair.close();
		}
	}, 120_000);
});
