import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/types.js";
import { GITATTRIBUTES } from "../../src/repos/lfs.js";
import { parseChunkHeader } from "../../src/xet/chunks.js";
import { unpackU32 } from "../../src/xet/xorb.js";
import { bytes } from "./hf-client-suite.js";
import { startHub, type RunningHub } from "./hub.js";
import { HUB_GENERATIONS, type HubGeneration, pythonEnv } from "../../../../test-support/python-env.js";
import { runHubClient } from "./python.js";

export const SHARING_ADMIN_TOKEN = "sharing-admin-token-0123456789abcdef";
const SCRIPT = "hf_hub_sharing.py";

type Attempt<T = unknown> = { ok: T } | { error: string; status: number | null; message: string };

function sha(data: Buffer | string): string {
	return createHash("sha256").update(data).digest("hex");
}

function errorOf(attempt: unknown): { error: string; status: number | null; message: string } {
	expect(attempt).toHaveProperty("error");
	return attempt as { error: string; status: number | null; message: string };
}

function okOf<T>(attempt: Attempt<T> | unknown): T {
	if (typeof attempt === "object" && attempt !== null && "error" in attempt) {
		throw new Error(`expected success, got ${JSON.stringify(attempt)}`);
	}
	return (attempt as { ok: T }).ok;
}

/** Float32 values of a smooth curve: the kind of data byte grouping (Xet's BG4 scheme) is for. */
function floats(count: number): Buffer {
	const out = Buffer.alloc(count * 4);
	for (let i = 0; i < count; i++) out.writeFloatLE(Math.sin(i / 1000) * 0.02, i * 4);
	return out;
}

function text(size: number): Buffer {
	const line = "The quick brown fox jumps over the lazy dog; model weights are not text. ";
	return Buffer.from(line.repeat(Math.ceil(size / line.length)).slice(0, size));
}

interface Fixture {
	dir: string;
	/** Path in the repository → content, for what the upload group should leave behind. */
	expected: Record<string, Buffer>;
	files: Record<string, string>;
	folder: string;
}

/** The files the upload group sends: small ones, ≥ 20 MB weights, a folder with nested and odd files. */
function writeFixture(dir: string): Fixture {
	const contents: Record<string, Buffer> = {
		"README.md": Buffer.from(
			"---\nlicense: apache-2.0\npipeline_tag: text-classification\nlibrary_name: transformers\ntags:\n- sharing-test\nlanguage: en\n---\n\n# Shared model\n",
		),
		"config.json": Buffer.from(
			`${JSON.stringify({ architectures: ["TinyModel"], hidden_size: 8 }, null, 2)}\n`,
		),
		// 4 MiB of floats then 17 MiB of noise: > 20 MB, through LFS or Xet.
		"model.safetensors": Buffer.concat([floats(1024 * 1024), bytes(17 * 1024 * 1024, 11)]),
		"secret.bin": bytes(1024 * 1024 + 3, 12),
	};
	const files: Record<string, string> = {};
	for (const [name, content] of Object.entries(contents)) {
		files[name] = join(dir, name);
		writeFileSync(files[name] as string, content);
	}
	const folderFiles: Record<string, Buffer> = {
		"notes/readme.txt": Buffer.from("notes\n"),
		"notes/drop.txt": Buffer.from("to be deleted\n"),
		"deep/a/b.txt": Buffer.from("deep\n"),
		"deep/blob.bin": bytes(5000, 13),
		// Compressible and above the inline limit: Xet compresses its chunks with LZ4.
		"corpus.txt": text(11 * 1024 * 1024),
		"empty.txt": Buffer.alloc(0),
		"unicodé ✓.txt": Buffer.from("ünïcödé\n"),
	};
	const folder = join(dir, "folder");
	for (const [path, content] of Object.entries(folderFiles)) {
		mkdirSync(join(folder, path, ".."), { recursive: true });
		writeFileSync(join(folder, path), content);
	}
	const expected: Record<string, Buffer> = {
		".gitattributes": Buffer.from(GITATTRIBUTES),
		"README.md": contents["README.md"] as Buffer,
		"config.json": contents["config.json"] as Buffer,
		"model.safetensors": contents["model.safetensors"] as Buffer,
		"copies/model.safetensors": contents["model.safetensors"] as Buffer,
		"copies/config.json": contents["config.json"] as Buffer,
	};
	for (const [path, content] of Object.entries(folderFiles)) {
		if (path === "notes/drop.txt" || path.startsWith("deep/")) continue;
		expected[`extra/${path}`] = content;
	}
	return { dir, expected, files, folder };
}

async function json<T>(response: Response): Promise<T> {
	return (await response.json()) as T;
}

/**
 * Sharing through the real huggingface_hub, 2.x and 1.x (and a browser's multipart form), once per database:
 * accounts and tokens over the admin API, whoami, repositories, uploads through Xet (the default
 * install) and through LFS (HF_HUB_DISABLE_XET=1), history, branches and tags, downloads byte for byte,
 * visibility, private repositories hidden from everyone else on every route, read tokens and
 * organisation roles, the audit log, and tokens never in a log line.
 */
export function defineSharingSuite(
	label: string,
	openDb: () => Promise<Database>,
	generations: readonly HubGeneration[] = HUB_GENERATIONS,
): void {
	// One hub per client generation: the scenarios write users and repositories under fixed names.
	for (const generation of generations) defineSharingSuiteFor(label, openDb, generation);
}

function defineSharingSuiteFor(
	label: string,
	openDb: () => Promise<Database>,
	generation: HubGeneration,
): void {
	describe(`sharing over ${label} with huggingface_hub (${generation} environment)`, () => {
		let db: Database;
		let hub: RunningHub;
		let dir: string;
		let fixture: Fixture;
		const log: string[] = [];
		const tokens: Record<string, string> = {};
		const admin = { authorization: `Bearer ${SHARING_ADMIN_TOKEN}`, "content-type": "application/json" };

		async function adminPost(path: string, body: unknown): Promise<Response> {
			return fetch(`${hub.url}${path}`, { method: "POST", headers: admin, body: JSON.stringify(body) });
		}

		function client<T = Record<string, unknown>>(
			group: string,
			params: Record<string, unknown>,
			env: Record<string, string> = {},
		): Promise<T> {
			return runHubClient<T>(
				group,
				hub.url,
				join(dir, `${group}-${Math.random().toString(36).slice(2)}`),
				params,
				env,
				SCRIPT,
				generation,
			);
		}

		beforeAll(async () => {
			dir = mkdtempSync(join(tmpdir(), "modelhub-sharing-"));
			fixture = writeFixture(dir);
			db = await openDb();
			hub = await startHub({
				db,
				seed: false,
				adminToken: SHARING_ADMIN_TOKEN,
				// Every request is logged, so that the test can look for tokens in the log.
				logLevel: "info",
				logStream: { write: (line: string) => void log.push(line) },
			});
		}, 180_000);

		afterAll(async () => {
			await hub?.close();
			await db?.close();
			if (dir) rmSync(dir, { recursive: true, force: true });
		});

		it("creates users, tokens and organisations over the admin API, keeping only token hashes", async () => {
			const none = await fetch(`${hub.url}/api/admin/users`, {
				method: "POST",
				headers: { "content-type": "application/json" },
				body: JSON.stringify({ name: "nobody" }),
			});
			expect(none.status).toBe(401);
			const wrong = await fetch(`${hub.url}/api/admin/users`, {
				method: "POST",
				headers: { ...admin, authorization: "Bearer not-the-admin-token" },
				body: JSON.stringify({ name: "nobody" }),
			});
			expect(wrong.status).toBe(403);

			for (const name of ["alice", "bob", "carol", "dave"]) {
				const created = await adminPost("/api/admin/users", { name });
				expect(created.status).toBe(201);
				const body = await json<Record<string, string>>(created);
				expect(Object.keys(body).sort()).toEqual(["name", "token"]);
				expect(body.name).toBe(name);
				expect(body.token).toMatch(/^mh_[0-9A-Za-z]{40,}$/);
				tokens[name] = body.token as string;
			}
			expect((await adminPost("/api/admin/users", { name: "ALICE" })).status).toBe(409);
			const badName = await adminPost("/api/admin/users", { name: "../etc" });
			expect(badName.status).toBe(400);
			expect((await json<{ error: string }>(badName)).error).toMatch(/name must be/);

			const read = await adminPost("/api/admin/users/alice/tokens", { scope: "read" });
			expect(read.status).toBe(201);
			const readBody = await json<{ name: string; token: string; id: string; scope: string }>(read);
			expect(readBody).toMatchObject({ name: "alice", scope: "read" });
			tokens.aliceRead = readBody.token;
			expect((await adminPost("/api/admin/users/alice/tokens", { scope: "admin" })).status).toBe(400);
			expect((await adminPost("/api/admin/users/nobody/tokens", { scope: "read" })).status).toBe(404);

			const org = await adminPost("/api/admin/orgs", {
				name: "acme",
				members: [
					{ user: "bob", role: "read" },
					{ user: "carol", role: "write" },
					{ user: "dave", role: "admin" },
				],
			});
			expect(org.status).toBe(201);
			expect(await json(org)).toEqual({
				name: "acme",
				members: [
					{ user: "bob", role: "read" },
					{ user: "carol", role: "write" },
					{ user: "dave", role: "admin" },
				],
			});
			expect(
				(await adminPost("/api/admin/orgs", { name: "ghost", members: [{ user: "nobody", role: "read" }] }))
					.status,
			).toBe(404);
			expect((await adminPost("/api/admin/orgs", { name: "bob" })).status).toBe(409);

			// Only hashes are stored: no column of any table holds a token.
			const stored = await db.query<{ token_hash: string }>(
				"SELECT token_hash FROM access_tokens WHERE account = 'alice' ORDER BY created_at",
			);
			expect(stored.rows.map((row) => row.token_hash)).toEqual([
				sha(tokens.alice as string),
				sha(tokens.aliceRead as string),
			]);
			const dump = JSON.stringify((await db.query("SELECT * FROM access_tokens")).rows);
			for (const token of Object.values(tokens)) expect(dump).not.toContain(token);

			const listed = await json<Array<Record<string, unknown>>>(
				await fetch(`${hub.url}/api/admin/users/alice/tokens`, { headers: admin }),
			);
			expect(listed.map((t) => t.scope)).toEqual(["write", "read"]);
			expect(JSON.stringify(listed)).not.toContain("mh_");
		});

		it("answers whoami-v2 as huggingface_hub reads it, and login() stores the token under its name", async () => {
			const revokable = await json<{ token: string; id: string }>(
				await adminPost("/api/admin/users/bob/tokens", { scope: "write", name: "laptop" }),
			);
			const revoked = await fetch(`${hub.url}/api/admin/tokens/${revokable.id}`, {
				method: "DELETE",
				headers: { authorization: admin.authorization },
			});
			expect(revoked.status).toBe(200);
			const out = await client<Record<string, Attempt<Record<string, unknown>> | unknown>>("whoami", {
				tokens: {
					write: tokens.carol,
					read: tokens.aliceRead,
					revoked: revokable.token,
					bad: "mh_not-a-token",
				},
			});
			const carol = okOf(out.write) as Record<string, unknown>;
			expect(carol).toMatchObject({
				type: "user",
				name: "carol",
				auth: { type: "access_token", accessToken: { role: "write" } },
			});
			expect(carol.orgs).toEqual([
				expect.objectContaining({ type: "org", name: "acme", roleInOrg: "write" }),
			]);
			const aliceRead = okOf(out.read) as { auth: { accessToken: { role: string; displayName: string } } };
			expect(aliceRead.auth.accessToken.role).toBe("read");
			for (const name of ["revoked", "bad"]) {
				const failure = errorOf(out[name]);
				expect(failure.status, name).toBe(401);
				expect(failure.message, name).toMatch(/Invalid user token/);
			}
			const carolName = (carol.auth as { accessToken: { displayName: string } }).accessToken.displayName;
			expect(out.token_names).toEqual([carolName]);
			expect(out.whoami_after_login).toBe("carol");

			const anonymous = await fetch(`${hub.url}/api/whoami-v2`);
			expect(anonymous.status).toBe(401);
			expect((await json<{ error: string }>(anonymous)).error).toMatch(/Authentication required/);
		}, 180_000);

		async function xorbCount(): Promise<number> {
			return Number(
				(await db.query<{ n: number | string }>("SELECT count(*) AS n FROM xet_xorbs")).rows[0]?.n,
			);
		}

		for (const transfer of ["xet", "lfs"] as const) {
			it(`lets an owner create, upload (${transfer === "xet" ? "Xet, the default install" : "LFS, HF_HUB_DISABLE_XET=1"}), delete, branch, tag and download`, async () => {
				const repo = `alice/shared-${transfer}`;
				const privateRepo = `alice/private-${transfer}`;
				const xorbsBefore = await xorbCount();
				const out = await client<Record<string, unknown>>(
					"upload",
					{
						token: tokens.alice,
						repo,
						private_repo: privateRepo,
						files: fixture.files,
						folder: fixture.folder,
					},
					transfer === "lfs" ? { HF_HUB_DISABLE_XET: "1" } : {},
				);
				expect(out._version).toBe(pythonEnv(generation).versions["huggingface-hub"]);
				expect(okOf(out.create)).toBe(`${hub.url}/${repo}`);
				expect(errorOf(out.create_again)).toMatchObject({ status: 409 });
				expect(okOf(out.create_exist_ok)).toBe(`${hub.url}/${repo}`);
				expect(okOf(out.create_private)).toBe(`${hub.url}/${privateRepo}`);
				// Datasets are hosted (issue 23): same namespace rights, their own URL prefix.
				expect(okOf(out.create_dataset)).toBe(`${hub.url}/datasets/${repo}-data`);
				expect(errorOf(out.bad_readme)).toMatchObject({ error: "ValueError" });
				expect(errorOf(out.bad_readme).message).toMatch(/Invalid metadata in README.md/);
				for (const step of [
					"readme",
					"small",
					"large",
					"folder",
					"delete_file",
					"copy_and_delete_folder",
					"private_upload",
				]) {
					expect(okOf(out[step]), step).toMatch(/^[0-9a-f]{40}$/);
				}
				expect(okOf(out.large_again)).toBe(okOf(out.large));
				const missing = errorOf(out.delete_missing);
				expect(missing.error).toBe("RemoteEntryNotFoundError");
				expect(missing.message).toMatch(/A file with this name doesn't exist/);
				const stale = errorOf(out.stale_parent);
				expect(stale.status).toBe(412);
				expect(stale.message).toMatch(/A commit has happened since/);
				// create_pr=True opens the repository's first pull request (test/discussions.test.ts has the rest).
				expect(okOf(out.pull_request)).toBe("refs/pr/1");

				const commits = out.commits as Array<{
					id: string;
					title: string;
					message: string;
					authors: string[];
				}>;
				expect(commits.map((c) => c.title)).toEqual([
					"Copy and prune",
					"Delete extra/notes/drop.txt with huggingface_hub",
					"Upload folder using huggingface_hub",
					"Upload model.safetensors with huggingface_hub",
					"Upload config.json with huggingface_hub",
					"Upload README.md with huggingface_hub",
					"initial commit",
				]);
				expect(commits[0]?.message).toBe("Second line of the story.");
				expect(new Set(commits.flatMap((c) => c.authors))).toEqual(new Set(["alice"]));
				expect(out.files).toEqual(Object.keys(fixture.expected).sort());

				const info = out.info as {
					private: boolean;
					pipeline_tag: string;
					library_name: string;
					tags: string[];
					card_data: Record<string, unknown>;
					lfs: Record<string, { sha256: string } | null>;
				};
				// The model card's metadata becomes the model's, as on the public hub.
				expect(info).toMatchObject({
					private: false,
					pipeline_tag: "text-classification",
					library_name: "transformers",
				});
				expect(info.tags).toEqual(
					expect.arrayContaining(["sharing-test", "en", "license:apache-2.0", "transformers"]),
				);
				expect(info.card_data).toMatchObject({ license: "apache-2.0" });
				expect(info.lfs["model.safetensors"]?.sha256).toBe(
					sha(fixture.expected["model.safetensors"] as Buffer),
				);
				expect(info.lfs["extra/corpus.txt"]?.sha256).toBe(
					sha(fixture.expected["extra/corpus.txt"] as Buffer),
				);
				expect(info.lfs["config.json"]).toBeNull();

				expect(out.branch).toEqual({ ok: null });
				expect(errorOf(out.branch_again).status).toBe(409);
				expect(out.branch_exist_ok).toEqual({ ok: null });
				expect(okOf(out.on_branch)).toMatch(/^[0-9a-f]{40}$/);
				expect(errorOf(out.tag_again).status).toBe(409);
				const refs = out.refs as { branches: Array<[string, string]>; tags: Array<[string, string]> };
				expect(refs.branches.map(([name]) => name)).toEqual(["dev/v1", "main"]);
				expect(refs.tags).toEqual([["v1.0", commits[0]?.id]]);
				expect(out.branch_files).toContain("branch.txt");
				expect(out.tag_commits).toEqual([
					"Copy and prune",
					"Delete extra/notes/drop.txt with huggingface_hub",
				]);
				expect(out.delete_tag).toEqual({ ok: null });
				expect(out.delete_branch).toEqual({ ok: null });
				expect(errorOf(out.delete_main).message).toMatch(/main branch cannot be deleted/);
				expect(out.refs_after).toEqual(["main"]);
				expect(out.private_after).toBe(true);
				expect(out.public_after).toBe(false);
				// Gated access (issue 24), then back to open for the downloads below.
				expect(out.gated).toEqual({ ok: null });
				expect(out.gated_after).toBe("manual");
				expect(out.ungated).toEqual({ ok: null });
				expect(out.ungated_after).toBe(false);

				// What was uploaded comes back byte for byte: every file, the snapshot, a local folder.
				const downloads = await client<{
					files: Record<string, string>;
					snapshot: Record<string, string>;
					local_dir: Record<string, string>;
				}>("download", { repo });
				const expected = Object.fromEntries(
					Object.entries(fixture.expected).map(([path, content]) => [path, sha(content)]),
				);
				expect(downloads.files).toEqual(expected);
				expect(downloads.snapshot).toEqual(expected);
				expect(downloads.local_dir).toEqual(expected);
				const secret = await client<{ files: Record<string, string> }>("download", {
					repo: privateRepo,
					token: tokens.alice,
				});
				expect(secret.files["secret.bin"]).toBe(sha(readFileSync(fixture.files["secret.bin"] as string)));

				const xorbs = await xorbCount();
				if (transfer === "xet") {
					expect(xorbs).toBeGreaterThan(xorbsBefore);
					// The xorbs used every compression scheme the hub decodes (none, LZ4, and byte-grouped LZ4).
					const schemes = new Set<number>();
					const rows = await db.query<{ blob_sha256: string; chunk_offsets: Uint8Array }>(
						"SELECT blob_sha256, chunk_offsets FROM xet_xorbs WHERE account = 'alice'",
					);
					for (const row of rows.rows) {
						const offsets = unpackU32(row.chunk_offsets);
						for (const offset of offsets.slice(0, -1)) {
							const stream = await hub.storage.read(row.blob_sha256, { start: offset, end: offset + 8 });
							const chunks: Buffer[] = [];
							for await (const chunk of stream) chunks.push(chunk as Buffer);
							schemes.add(parseChunkHeader(Buffer.concat(chunks)).scheme);
						}
					}
					expect([...schemes].sort()).toEqual([0, 1, 2]);
				} else {
					expect(xorbs).toBe(xorbsBefore);
					const lfsUploads = await db.query(
						"SELECT 1 FROM audit_log WHERE action = 'lfs.upload' AND repo = $1",
						[repo],
					);
					expect(lfsUploads.rows.length).toBeGreaterThanOrEqual(2);
				}
			}, 300_000);
		}

		it("hides a private repository from other users and from anonymous clients, on every route", async () => {
			const repo = "alice/private-xet";
			for (const token of [tokens.bob, undefined]) {
				const out = await client<Record<string, unknown>>("denied", { repo, ...(token ? { token } : {}) });
				for (const call of [
					"model_info",
					"download",
					"snapshot",
					"files",
					"tree",
					"paths_info",
					"refs",
					"commits",
				]) {
					expect(errorOf(out[call]).error, `${call} ${token ? "bob" : "anonymous"}`).toBe(
						"RepositoryNotFoundError",
					);
				}
				expect(out.repo_exists).toBe(false);
				expect(out.file_exists).toEqual({ ok: false });
				expect(out.listed).not.toContain(repo);
				expect(out.listed).toContain("alice/shared-xet");
				expect(out.searched).not.toContain(repo);
				for (const call of ["upload", "settings", "delete"]) {
					const failure = errorOf(out[call]);
					expect([401, 404], `${call}: ${failure.message}`).toContain(failure.status);
					expect(failure.message).not.toMatch(/read-only|role/);
				}
			}
			// Every read route of the HTTP API, and the upload routes, answer as for a missing repository.
			const paths = [
				`/api/models/${repo}`,
				`/api/models/${repo}/revision/main`,
				`/api/models/${repo}/tree/main`,
				`/api/models/${repo}/refs`,
				`/api/models/${repo}/commits/main`,
				`/${repo}/resolve/main/secret.bin`,
			];
			for (const headers of [{}, { authorization: `Bearer ${tokens.bob}` }] as Array<
				Record<string, string>
			>) {
				for (const path of paths) {
					const res = await fetch(`${hub.url}${path}`, { headers });
					expect(res.status, path).toBe(404);
					expect(res.headers.get("x-error-code"), path).toBe("RepoNotFound");
				}
				// Writes: 401 without a token (before anything is looked up), 404 with one.
				const writes: Array<[string, string, string | undefined, number]> = [
					["POST", `/api/models/${repo}/paths-info/main`, "paths=secret.bin", 404],
					["POST", `/api/models/${repo}/preupload/main`, JSON.stringify({ files: [] }), 401],
					["POST", `/api/models/${repo}/commit/main`, '{"key":"header","value":{"summary":"x"}}\n', 401],
					["GET", `/api/models/${repo}/xet-write-token/main`, undefined, 401],
					["PUT", `/api/models/${repo}/settings`, JSON.stringify({ private: false }), 401],
					["POST", `/api/models/${repo}/branch/x`, "{}", 401],
					[
						"POST",
						`/${repo}.git/info/lfs/objects/batch`,
						JSON.stringify({ operation: "upload", objects: [] }),
						401,
					],
				];
				for (const [method, path, body, anonymous] of writes) {
					const type = path.includes("paths-info")
						? "application/x-www-form-urlencoded"
						: path.includes("/commit/")
							? "application/x-ndjson"
							: "application/json";
					const res = await fetch(`${hub.url}${path}`, {
						method,
						headers: { ...headers, ...(body !== undefined ? { "content-type": type } : {}) },
						...(body !== undefined ? { body } : {}),
					});
					expect(res.status, path).toBe(Object.keys(headers).length > 0 ? 404 : anonymous);
				}
			}
			// Listings and counts never include it; its owner sees it, and so does the admin.
			const anonymousList = await json<Array<{ id: string }>>(
				await fetch(`${hub.url}/api/models?author=alice`),
			);
			expect(anonymousList.map((m) => m.id).sort()).toEqual(["alice/shared-lfs", "alice/shared-xet"]);
			const ownerList = await json<Array<{ id: string; private: boolean }>>(
				await fetch(`${hub.url}/api/models?author=alice`, {
					headers: { authorization: `Bearer ${tokens.alice}` },
				}),
			);
			expect(
				ownerList
					.filter((m) => m.private)
					.map((m) => m.id)
					.sort(),
			).toEqual(["alice/private-lfs", "alice/private-xet"]);
			// The total the web app shows counts the same models as the listing, for each viewer.
			const anonymousCount = await json<{ count: number }>(
				await fetch(`${hub.url}/api/models-count?author=alice`),
			);
			expect(anonymousCount.count).toBe(2);
			const ownerCount = await json<{ count: number }>(
				await fetch(`${hub.url}/api/models-count?author=alice`, {
					headers: { authorization: `Bearer ${tokens.alice}` },
				}),
			);
			expect(ownerCount.count).toBe(ownerList.length);
			// Its web page is rendered as for a missing model: 404, and neither its id nor its facts in the HTML.
			const page = await fetch(`${hub.url}/${repo}`, { headers: { accept: "text/html" } });
			expect(page.status).toBe(404);
			expect(await page.text()).not.toContain("private-xet");
			const adminView = await fetch(`${hub.url}/api/models/${repo}`, {
				headers: { authorization: `Bearer ${SHARING_ADMIN_TOKEN}` },
			});
			expect(adminView.status).toBe(200);
			const libraries = await json<Array<{ key: string; modelCount: number }>>(
				await fetch(`${hub.url}/api/libraries`),
			);
			expect(libraries.find((l) => l.key === "transformers")?.modelCount).toBe(2);

			// Made public, it appears for everyone at once (the caches are cleared).
			const toggle = await fetch(`${hub.url}/api/models/${repo}/settings`, {
				method: "PUT",
				headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/json" },
				body: JSON.stringify({ private: false }),
			});
			expect(toggle.status).toBe(200);
			expect((await fetch(`${hub.url}/api/models/${repo}`)).status).toBe(200);
			expect((await fetch(`${hub.url}/${repo}/resolve/main/secret.bin`)).status).toBe(200);
			await fetch(`${hub.url}/api/models/${repo}/settings`, {
				method: "PUT",
				headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/json" },
				body: JSON.stringify({ visibility: "private" }),
			});
			expect((await fetch(`${hub.url}/api/models/${repo}`)).status).toBe(404);
		}, 180_000);

		it("refuses writes with a read token (403, a clear message) and applies organisation roles", async () => {
			await adminPost("/api/admin/users/carol/tokens", {});
			const readOnly = await client<Record<string, unknown>>("write_attempts", {
				token: tokens.aliceRead,
				uploads: { own: "alice/shared-xet" },
				creates: { create: "alice/from-read-token" },
				reads: { read_private: "alice/private-xet" },
			});
			for (const call of ["own", "create"]) {
				const failure = errorOf(readOnly[call]);
				expect(failure.status, call).toBe(403);
				expect(failure.message, call).toMatch(/read-only: use a token with the 'write' scope/);
			}
			expect(okOf(readOnly.read_private)).toBe("alice/private-xet");

			const created = await client<Record<string, unknown>>("write_attempts", {
				token: tokens.dave,
				uploads: {},
				creates: { org_repo: "acme/team-model" },
			});
			expect(okOf(created.org_repo)).toBe(`${hub.url}/acme/team-model`);

			const bob = await client<Record<string, unknown>>("write_attempts", {
				token: tokens.bob,
				uploads: { org: "acme/team-model", other: "alice/shared-xet" },
				creates: { org_create: "acme/bobs-model" },
				reads: { org_private: "acme/team-model" },
			});
			expect(errorOf(bob.org).status).toBe(403);
			expect(errorOf(bob.org).message).toMatch(
				/You \(bob\) have the 'read' role in acme; writing to a repository needs the 'write' role/,
			);
			expect(errorOf(bob.other).message).toMatch(/You \(bob\) don't have write access to alice\/shared-xet/);
			expect(errorOf(bob.org_create).status).toBe(403);
			expect(okOf(bob.org_private)).toBe("acme/team-model");

			const carol = await client<Record<string, unknown>>("write_attempts", {
				token: tokens.carol,
				uploads: { org: "acme/team-model" },
				creates: { org_create: "acme/carols-model" },
				deletes: { org_delete: "acme/team-model" },
			});
			expect(okOf(carol.org)).toMatch(/^[0-9a-f]{40}$/);
			expect(okOf(carol.org_create)).toBe(`${hub.url}/acme/carols-model`);
			expect(errorOf(carol.org_delete).message).toMatch(/needs the 'admin' role/);

			const dave = await client<Record<string, unknown>>("write_attempts", {
				token: tokens.dave,
				uploads: {},
				deletes: { org_delete: "acme/carols-model" },
			});
			expect(dave.org_delete).toEqual({ ok: null });
		}, 180_000);

		it("takes a browser's multipart commit: nested paths, large files streamed, deletions, LFS by SHA-256", async () => {
			const repo = "alice/from-browser";
			const auth = { authorization: `Bearer ${tokens.alice}` };
			const create = await fetch(`${hub.url}/api/repos/create`, {
				method: "POST",
				headers: { ...auth, "content-type": "application/json" },
				body: JSON.stringify({ name: "from-browser", private: true }),
			});
			expect(create.status).toBe(200);
			expect(await json(create)).toEqual({ url: `${hub.url}/${repo}`, name: repo });
			const weights = bytes(12 * 1024 * 1024, 21);
			const form = new FormData();
			form.append(
				"header",
				JSON.stringify({ summary: "Upload from the browser", description: "drag and drop" }),
			);
			form.append("file", new Blob([Buffer.from("# From the browser\n")]), "README.md");
			form.append("file", new Blob([new Uint8Array(weights)]), "weights/model.bin");
			form.append("file", new Blob([Buffer.from("é\n")]), 'docs/"quoted" é.txt');
			form.append("operation", JSON.stringify({ key: "deletedFile", value: { path: ".gitattributes" } }));
			const commit = await fetch(`${hub.url}/api/models/${repo}/commit/main`, {
				method: "POST",
				headers: auth,
				body: form,
			});
			const result = await json<{ commitOid: string; commitUrl: string }>(commit);
			expect(commit.status, JSON.stringify(result)).toBe(200);
			expect(result.commitUrl).toBe(`${hub.url}/${repo}/commit/${result.commitOid}`);
			const tree = await json<Array<{ path: string; size: number; lfs?: { oid: string } }>>(
				await fetch(`${hub.url}/api/models/${repo}/tree/main?recursive=true`, { headers: auth }),
			);
			expect(
				tree
					.filter((e) => e.size > 0 || e.path.endsWith(".txt"))
					.map((e) => e.path)
					.sort(),
			).toEqual(["README.md", 'docs/"quoted" é.txt', "weights/model.bin"]);
			expect(tree.find((e) => e.path === "weights/model.bin")?.lfs?.oid).toBe(sha(weights));
			const download = await fetch(`${hub.url}/${repo}/resolve/main/weights/model.bin`, { headers: auth });
			expect(sha(Buffer.from(await download.arrayBuffer()))).toBe(sha(weights));

			// A second commit refers to the weights by SHA-256 (a copy), the same NDJSON as huggingface_hub's.
			const ndjson = [
				{ key: "header", value: { summary: "Copy", parentCommit: result.commitOid.slice(0, 7) } },
				{ key: "lfsFile", value: { path: "weights/copy.bin", algo: "sha256", oid: sha(weights) } },
			]
				.map((line) => JSON.stringify(line))
				.join("\n");
			const copy = await fetch(`${hub.url}/api/models/${repo}/commit/main`, {
				method: "POST",
				headers: { ...auth, "content-type": "application/x-ndjson" },
				body: ndjson,
			});
			expect(copy.status).toBe(200);
			// Another repository cannot claim those bytes by their digest alone.
			const stolen = await fetch(`${hub.url}/api/models/alice/shared-lfs/commit/main`, {
				method: "POST",
				headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/x-ndjson" },
				body: ndjson.replace(/"parentCommit":"[0-9a-f]+"/, '"parentCommit":null'),
			});
			expect(stolen.status).toBe(400);
			expect((await json<{ error: string }>(stolen)).error).toMatch(/was never uploaded to this repository/);
			const wrongType = await fetch(`${hub.url}/api/models/${repo}/commit/main`, {
				method: "POST",
				headers: { ...auth, "content-type": "application/json" },
				body: "{}",
			});
			expect(wrongType.status).toBe(415);
		}, 120_000);

		it("records every write in the audit log, readable by the admin, and never logs a token", async () => {
			const page = await json<{
				entries: Array<{ actor: string; action: string; repo: string | null; tokenId: string | null }>;
			}>(await fetch(`${hub.url}/api/admin/audit?limit=1000`, { headers: admin }));
			const actions = new Set(page.entries.map((e) => `${e.actor} ${e.action}`));
			for (const expected of [
				"@admin user.create",
				"@admin token.create",
				"@admin token.revoke",
				"@admin org.create",
				"alice repo.create",
				"alice repo.commit",
				"alice repo.settings",
				"alice branch.create",
				"alice branch.delete",
				"alice tag.create",
				"alice tag.delete",
				"alice lfs.upload",
				"alice xet.upload",
				"carol repo.commit",
				"dave repo.delete",
			]) {
				expect(actions, expected).toContain(expected);
			}
			expect(page.entries.filter((e) => e.actor === "alice").every((e) => e.tokenId !== null)).toBe(true);
			const forRepo = await json<{ entries: Array<{ repo: string }> }>(
				await fetch(`${hub.url}/api/admin/audit?repo=alice/from-browser`, { headers: admin }),
			);
			expect(forRepo.entries.length).toBeGreaterThan(0);
			expect(forRepo.entries.every((e) => e.repo === "alice/from-browser")).toBe(true);
			expect(
				(await fetch(`${hub.url}/api/admin/audit`, { headers: { authorization: `Bearer ${tokens.alice}` } }))
					.status,
			).toBe(403);

			const everything = `${log.join("")}${JSON.stringify(page)}`;
			expect(log.length).toBeGreaterThan(100);
			for (const [name, token] of Object.entries(tokens)) expect(everything, name).not.toContain(token);
			expect(everything).not.toContain(SHARING_ADMIN_TOKEN);
			expect(everything).not.toMatch(/mhx_[0-9A-Za-z]{20}/);
			expect(everything).not.toMatch(/signature=[A-Za-z0-9_-]{20}/);
		});
	});
}
