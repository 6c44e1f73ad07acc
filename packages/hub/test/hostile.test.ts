// Regression tests for the findings of issue 21 (a hostile review of the sharing surface): each one
// fails on the hub as it was before its fix.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { ADMIN_TOKEN } from "./support/hub-suite.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";

const VALIDATIONS_PER_MINUTE = 4;

const GITIGNORE_MAX_STEPS = 2_000_000;

let db: Database;
let hub: RunningHub;
let dir: string;
/** The reads the hub runs while a test records them (writes, e.g. batched download counts, left out). */
let recording: Array<{ sql: string; rows: number }> | undefined;

/** The database, with the statements it runs recorded while `recording` is set. */
function recorded(inner: Database): Database {
	const outer = Object.create(inner) as Database;
	outer.query = async <R>(sql: string, params?: readonly unknown[]) => {
		const result = await inner.query<R>(sql, params);
		if (recording && !/^\s*(INSERT|UPDATE|DELETE)\b/i.test(sql))
			recording.push({ sql, rows: result.rows.length });
		return result;
	};
	return outer;
}
const tokens: Record<string, string> = {};

async function post(path: string, token: string, body: unknown): Promise<Response> {
	return fetch(`${hub.url}${path}`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
		body: JSON.stringify(body),
	});
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "modelhub-hostile-"));
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({
		db: recorded(db),
		seed: false,
		adminToken: ADMIN_TOKEN,
		// Each test speaks from its own address (X-Forwarded-For), so that per-address limits stay apart.
		trustProxy: true,
		validateYamlPerMinute: VALIDATIONS_PER_MINUTE,
		uploads: { gitignoreMaxSteps: GITIGNORE_MAX_STEPS },
		logLevel: "silent",
	});
	for (const name of ["alice", "bob"]) {
		const created = await post("/api/admin/users", ADMIN_TOKEN, { name });
		tokens[name] = ((await created.json()) as { token: string }).token;
	}
	expect((await post("/api/repos/create", tokens.alice as string, { name: "open" })).status).toBe(200);
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

let nextAddress = 1;
/** A fresh client address for one test. */
function address(): Record<string, string> {
	const n = nextAddress++;
	return { "x-forwarded-for": `10.21.${n >> 8}.${n & 255}` };
}

function validateYaml(
	content: string,
	headers: Record<string, string>,
): Promise<{ status: number; body: { error?: string; errors?: Array<{ message: string }> } }> {
	return fetch(`${hub.url}/api/validate-yaml`, {
		method: "POST",
		headers: { "content-type": "application/json", ...headers },
		body: JSON.stringify({ content, repoType: "model" }),
	}).then(async (res) => ({ status: res.status, body: (await res.json()) as { error?: string } }));
}

/** A card whose metadata is the largest accepted block of distinct short keys, then one repeated key. */
function manyKeysCard(): { card: string; lines: number } {
	const lines: string[] = [];
	let size = 0;
	for (let i = 0; size < 250 * 1024; i++) {
		const line = `k${i.toString(36)}: 0`;
		lines.push(line);
		size += line.length + 1;
	}
	lines.push("k0: 1");
	return { card: `---\n${lines.join("\n")}\n---\n# Card\n`, lines: lines.length };
}

describe("POST /api/validate-yaml under hostile cards", () => {
	it("answers a 250 KB card of distinct keys (and a repeated one) while /healthz keeps answering", async () => {
		// Before the fix each of these held the event loop for seconds (quadratic duplicate-key check):
		// the test timed out and /healthz waited behind them.
		const { card, lines } = manyKeysCard();
		expect(card.length).toBeGreaterThan(250 * 1024);
		const headers = address();
		const validations = [validateYaml(card, headers), validateYaml(card, headers)];
		const health = await fetch(`${hub.url}/healthz`);
		expect(health.status).toBe(200);
		for (const answer of await Promise.all(validations)) {
			expect(answer.status).toBe(400);
			expect(answer.body.errors).toEqual([
				{ message: `Invalid YAML: Map keys must be unique: "k0" (line ${lines + 1})` },
			]);
		}
	}, 20_000);

	it("refuses nesting deeper than the bound instead of overflowing the parser's stack", async () => {
		const headers = address();
		const deep = await validateYaml(`---\na: ${"[".repeat(20_000)}\n---\n`, headers);
		expect(deep.status).toBe(400);
		expect(deep.body.errors).toEqual([{ message: "The metadata nests collections deeper than 64 levels" }]);
		const nested = await validateYaml(`---\n${"- ".repeat(30_000)}x\n---\n`, headers);
		expect(nested.body.errors).toEqual([{ message: "The metadata nests collections deeper than 64 levels" }]);
		// Real nesting (model-index) is far below the bound.
		const fine = await validateYaml(`---\na: ${"[".repeat(20)}1${"]".repeat(20)}\n---\n`, headers);
		expect(fine).toEqual({ status: 200, body: { errors: [], warnings: [] } });
	}, 20_000);

	it("limits calls per address and per account, with 429 and Retry-After; the admin token is not limited", async () => {
		const headers = address();
		for (let i = 0; i < VALIDATIONS_PER_MINUTE; i++) {
			expect((await validateYaml("---\nlicense: mit\n---\n", headers)).status).toBe(200);
		}
		const refused = await fetch(`${hub.url}/api/validate-yaml`, {
			method: "POST",
			headers: { "content-type": "application/json", ...headers },
			body: JSON.stringify({ content: "---\nlicense: mit\n---\n" }),
		});
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
		expect(((await refused.json()) as { error: string }).error).toMatch(
			/^Too many YAML validations from this address: retry in \d+ seconds$/,
		);
		// Another address is not affected; the admin token is not counted.
		expect((await validateYaml("---\nlicense: mit\n---\n", address())).status).toBe(200);
		const admin = { ...headers, authorization: `Bearer ${ADMIN_TOKEN}` };
		for (let i = 0; i <= VALIDATIONS_PER_MINUTE; i++) {
			expect((await validateYaml("---\nlicense: mit\n---\n", admin)).status).toBe(200);
		}
	});
});

describe("preupload's .gitignore matching under hostile patterns", () => {
	function preupload(gitIgnore: string, paths: string[]): Promise<Response> {
		return post("/api/models/alice/open/preupload/main", tokens.alice as string, {
			files: paths.map((path) => ({ path, size: 10, sample: "" })),
			gitIgnore,
		});
	}

	it("answers many-star patterns against 995-character paths (they hung the hub before)", async () => {
		const name = "a".repeat(995);
		const answer = await preupload(`${"*a".repeat(40)}*b\n${"*a".repeat(40)}\n!keep*\n`, [
			name,
			`keep${name}`,
		]);
		expect(answer.status).toBe(200);
		const { files } = (await answer.json()) as { files: Array<{ path: string; shouldIgnore: boolean }> };
		expect(files.map((file) => file.shouldIgnore)).toEqual([true, false]);
		expect((await fetch(`${hub.url}/healthz`)).status).toBe(200);
	}, 30_000);

	it("refuses a request whose rules × paths exceed MODELHUB_GITIGNORE_MAX_STEPS with a clear 400", async () => {
		const paths = Array.from({ length: 100 }, (_, i) => `${"a".repeat(900)}${i}`);
		const answer = await preupload(`${"*a".repeat(400)}*b\n`, paths);
		expect(answer.status).toBe(400);
		expect(((await answer.json()) as { error: string }).error).toBe(
			`.gitignore is too costly to match against these paths (more than ${GITIGNORE_MAX_STEPS} steps, MODELHUB_GITIGNORE_MAX_STEPS): send fewer files per request or simpler patterns`,
		);
	}, 30_000);
});

describe("paths clients cannot write safely are refused at commit time", () => {
	// Each one landed as-is in snapshot_download(local_dir=…): in a checkout's `.git` on Windows or macOS,
	// or (`..` once `\\` is a separator, a drive) failing the whole snapshot for everyone.
	const refused: Array<[string, RegExp]> = [
		[".GIT/config", /path segment "\.GIT" is '\.git' on Windows or macOS file systems/],
		[".Git/hooks/post-checkout", /path segment "\.Git" is '\.git'/],
		["GIT~1/config", /path segment "GIT~1" is '\.git'/],
		["sub/git~1/hooks/pre-commit", /path segment "git~1" is '\.git'/],
		[".git./config", /path segment "\.git\." is '\.git'/],
		[".git ::$INDEX_ALLOCATION/config", /is '\.git'/],
		[".g\u200cit/config", /is '\.git'/],
		["a\\..\\..\\x", /path contains a backslash/],
		["weights\\model.bin", /path contains a backslash/],
		["C:/x.bin", /path segment "C:" starts with a drive letter/],
		["d/c:evil", /starts with a drive letter/],
	];
	const accepted = ["git/config", ".github/workflows/ci.yml", "a.git/x", "GIT~2/x", "notes: v1.txt"];

	it("through the real huggingface_hub's create_commit: 400 with the reason; snapshot_download still works", async () => {
		expect((await post("/api/repos/create", tokens.alice as string, { name: "paths" })).status).toBe(200);
		const result = await runHubClient<{
			commits: Record<string, { ok?: string; error?: string; status?: number; message?: string }>;
			snapshot: unknown;
			files: string[];
		}>(
			"paths",
			hub.url,
			join(dir, "paths"),
			{
				token: tokens.alice,
				repo: "alice/paths",
				paths: [...refused.map(([path]) => path), ...accepted],
			},
			{},
			"hf_hub_hostile.py",
		);
		for (const [path, reason] of refused) {
			const commit = result.commits[path];
			expect(commit?.status, path).toBe(400);
			expect(commit?.message, path).toMatch(reason);
		}
		for (const path of accepted) expect(result.commits[path]?.ok, path).toMatch(/^[0-9a-f]{40}$/);
		expect(result.snapshot).toBe("ok");
		expect(result.files.sort()).toEqual([".gitattributes", ...accepted].sort());
	}, 180_000);

	it("over raw HTTP: NDJSON and multipart commits, preupload and the LFS path alike; deleting such a path stays possible", async () => {
		const alice = tokens.alice as string;
		const ndjson = (path: string) =>
			[
				{ key: "header", value: { summary: "hostile" } },
				{ key: "file", value: { path, content: Buffer.from("x").toString("base64"), encoding: "base64" } },
			]
				.map((line) => JSON.stringify(line))
				.join("\n");
		for (const [path, reason] of refused) {
			const res = await fetch(`${hub.url}/api/models/alice/open/commit/main`, {
				method: "POST",
				headers: { authorization: `Bearer ${alice}`, "content-type": "application/x-ndjson" },
				body: ndjson(path),
			});
			expect(res.status, path).toBe(400);
			expect(((await res.json()) as { error: string }).error, path).toMatch(reason);
			const lfs = await fetch(`${hub.url}/api/models/alice/open/commit/main`, {
				method: "POST",
				headers: { authorization: `Bearer ${alice}`, "content-type": "application/x-ndjson" },
				body: [
					{ key: "header", value: { summary: "hostile" } },
					{ key: "lfsFile", value: { path, algo: "sha256", oid: "0".repeat(64), size: 1 } },
				]
					.map((line) => JSON.stringify(line))
					.join("\n"),
			});
			expect(lfs.status, path).toBe(400);
			expect(((await lfs.json()) as { error: string }).error, path).toMatch(reason);
			const planned = await post("/api/models/alice/open/preupload/main", alice, {
				files: [{ path, size: 1, sample: "" }],
			});
			expect(planned.status, path).toBe(400);
		}
		// The browser's multipart form names each file part by its path.
		const form = new FormData();
		form.append("header", JSON.stringify({ summary: "hostile" }));
		form.append("file", new Blob(["x"]), ".GIT/config");
		const multipart = await fetch(`${hub.url}/api/models/alice/open/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${alice}` },
			body: form,
		});
		expect(multipart.status).toBe(400);
		expect(((await multipart.json()) as { error: string }).error).toMatch(/is '\.git'/);
		// A path stored before these rules can still be deleted (deletions only name a path).
		const deletion = await fetch(`${hub.url}/api/models/alice/open/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${alice}`, "content-type": "application/x-ndjson" },
			body: [
				{ key: "header", value: { summary: "clean up" } },
				{ key: "deletedFile", value: { path: "a\\..\\..\\x" } },
			]
				.map((line) => JSON.stringify(line))
				.join("\n"),
		});
		expect(deletion.status).not.toBe(400);
	}, 60_000);
});

describe("Cache-Control of files: a private repository's are never public", () => {
	async function repoWithFile(name: string, isPrivate: boolean): Promise<string> {
		const alice = tokens.alice as string;
		expect((await post("/api/repos/create", alice, { name, private: isPrivate })).status).toBe(200);
		const commit = await fetch(`${hub.url}/api/models/alice/${name}/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${alice}`, "content-type": "application/x-ndjson" },
			body: [
				{ key: "header", value: { summary: "config" } },
				{ key: "file", value: { path: "config.json", content: Buffer.from("{}\n").toString("base64") } },
			]
				.map((line) => JSON.stringify(line))
				.join("\n"),
		});
		expect(commit.status).toBe(200);
		return ((await commit.json()) as { commitOid: string }).commitOid;
	}

	async function cacheControls(name: string, commitId: string): Promise<Record<string, string | null>> {
		const out: Record<string, string | null> = {};
		const headers = { authorization: `Bearer ${tokens.alice as string}` };
		for (const revision of ["main", commitId]) {
			for (const method of ["GET", "HEAD"]) {
				const res = await fetch(`${hub.url}/alice/${name}/resolve/${revision}/config.json`, {
					method,
					headers,
				});
				expect(res.status).toBe(200);
				out[`${method} ${revision === "main" ? "branch" : "commit"}`] = res.headers.get("cache-control");
				// A revalidation (304) says the same.
				const etag = res.headers.get("etag") as string;
				const again = await fetch(`${hub.url}/alice/${name}/resolve/${revision}/config.json`, {
					method,
					headers: { ...headers, "if-none-match": etag },
				});
				expect(again.status).toBe(304);
				expect(again.headers.get("cache-control")).toBe(
					out[`${method} ${revision === "main" ? "branch" : "commit"}`],
				);
			}
		}
		return out;
	}

	it("public repositories: public and immutable by commit id, revalidated by branch", async () => {
		const commitId = await repoWithFile("cache-public", false);
		expect(await cacheControls("cache-public", commitId)).toEqual({
			"GET branch": "no-cache",
			"HEAD branch": "no-cache",
			"GET commit": "public, max-age=31536000, immutable",
			"HEAD commit": "public, max-age=31536000, immutable",
		});
	});

	it("private repositories: private by commit id and by branch, GET and HEAD", async () => {
		const commitId = await repoWithFile("cache-private", true);
		expect(await cacheControls("cache-private", commitId)).toEqual({
			"GET branch": "private, no-cache",
			"HEAD branch": "private, no-cache",
			"GET commit": "private, max-age=31536000, immutable",
			"HEAD commit": "private, max-age=31536000, immutable",
		});
	});
});

describe("a private repository's existence does not show in the work done (timing)", () => {
	/** The answer to `path` for `token`, and the reads the hub ran for it. */
	async function traced(path: string, token: string | undefined) {
		const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
		recording = [];
		try {
			const res = await fetch(`${hub.url}${path}`, { headers });
			return { status: res.status, body: await res.text(), reads: recording };
		} finally {
			recording = undefined;
		}
	}

	it("a hidden private repository and a missing one run the same queries and both find no row", async () => {
		const alice = tokens.alice as string;
		expect((await post("/api/repos/create", alice, { name: "secret", private: true })).status).toBe(200);
		// Bob's token is recorded as used on his first request: done before tracing.
		expect(
			(await fetch(`${hub.url}/api/whoami-v2`, { headers: { authorization: `Bearer ${tokens.bob}` } }))
				.status,
		).toBe(200);
		const routes = [
			(id: string) => `/api/models/${id}`,
			(id: string) => `/api/models/${id}?expand=usedStorage&expand=siblings`,
			(id: string) => `/api/models/${id}/revision/main`,
			(id: string) => `/api/models/${id}/tree/main`,
			(id: string) => `/${id}/resolve/main/README.md`,
		];
		for (const token of [undefined, tokens.bob]) {
			for (const route of routes) {
				const hidden = await traced(route("alice/secret"), token);
				const missing = await traced(route("alice/no-such-repo"), token);
				const what = `${route("…")} as ${token ? "bob" : "anonymous"}`;
				expect(hidden.status, what).toBe(404);
				expect(hidden.body.replaceAll("alice/secret", "ID"), what).toBe(
					missing.body.replaceAll("alice/no-such-repo", "ID"),
				);
				expect(hidden.reads.length, what).toBeGreaterThan(0);
				expect(hidden.reads, what).toEqual(missing.reads);
				// The repository lookups find nothing (the viewer's own token lookup does find a row).
				const lookups = hidden.reads.filter((read) => /\bFROM repos m\b/.test(read.sql));
				expect(lookups.length, what).toBeGreaterThan(0);
				for (const read of lookups) expect(read.rows, `${what}: ${read.sql}`).toBe(0);
			}
		}
		// The owner still reads it.
		expect((await traced("/api/models/alice/secret", alice)).status).toBe(200);
	});
});
