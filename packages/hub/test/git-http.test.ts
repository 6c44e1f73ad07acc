// git over HTTP, read side, with the real git client against one running hub: clone (protocol v0 and
// v2, `/{id}` and `/{id}.git`, datasets), ids equal to the API's, shallow clone, pull after an API
// commit, ls-remote with branches, tags and refs/pr/N, private repositories (anonymous 401, other user
// 404, owner with basic auth), and hostile requests answered without a crash.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { gitOutcome, hubCall, lfsCommit, ndjsonCommit, runGit } from "./support/git.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "git-http-admin-token-0123456789abcdef";

let db: Database;
let hub: RunningHub;
let home: string;
const tokens: Record<string, string> = {};

const git = (args: string[], cwd = home, extraEnv?: Record<string, string>) =>
	runGit(home, args, cwd, extraEnv);
const gitResult = (args: string[], cwd = home) => gitOutcome(home, args, cwd);
const api = (path: string, token: string, body?: unknown, type?: string) =>
	hubCall(hub.url, path, token, body, type);
const commit = (
	api_: "models" | "datasets",
	id: string,
	token: string,
	files: Record<string, string>,
	summary: string,
) => ndjsonCommit(hub.url, { api: api_, id }, token, files, summary);

const LFS_BYTES = Buffer.from(Array.from({ length: 300_000 }, (_, index) => (index * 7919) % 251));

/** A clone URL with the user and token in git's credential helper, never in the URL. */
function withCredentials(user: string): string[] {
	return ["-c", `credential.helper=!f() { echo username=${user}; echo password=${tokens[user]}; }; f`];
}

beforeAll(async () => {
	home = mkdtempSync(join(tmpdir(), "modelhub-git-http-"));
	// What `git lfs install` writes, in the throwaway global config.
	writeFileSync(
		join(home, "gitconfig"),
		[
			"[user]\n\tname = Test\n\temail = test@example.com",
			'[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true',
			"",
		].join("\n"),
	);
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({ db, seed: false, adminToken: ADMIN });
	for (const name of ["alice", "bob"]) {
		const res = await api("/api/admin/users", ADMIN, { name });
		tokens[name] = ((await res.json()) as { token: string }).token;
	}
	const alice = tokens.alice as string;
	expect((await api("/api/repos/create", alice, { name: "tiny" })).status).toBe(200);
	expect((await api("/api/repos/create", alice, { name: "secret", private: true })).status).toBe(200);
	expect((await api("/api/repos/create", alice, { name: "rows", type: "dataset" })).status).toBe(200);
	await commit(
		"models",
		"alice/tiny",
		alice,
		{ "README.md": "# tiny\n", "config/config.json": "{}\n" },
		"Add card",
	);
	await commit("models", "alice/tiny", alice, { "weights/a.txt": "a".repeat(5000) }, "Add weights");
	await commit("models", "alice/secret", alice, { "secret.txt": "hush\n" }, "Secret");
	await lfsCommit(hub.url, "alice/secret", alice, "weights.bin", LFS_BYTES);
	await commit("datasets", "alice/rows", alice, { "data.csv": "a,b\n1,2\n" }, "Rows");
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
	if (home) rmSync(home, { recursive: true, force: true });
});

/** This process's git children (upload-pack runs as `git`), from /proc. */
function gitChildren(): string[] {
	return readdirSync("/proc").filter((entry) => {
		if (!/^\d+$/.test(entry)) return false;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
			const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
			return stat.includes("(git)") && Number(fields[1]) === process.pid;
		} catch {
			return false;
		}
	});
}

/** Waits (bounded: 20 s) until `done` holds, checking every 20 ms. */
async function waitFor(done: () => boolean): Promise<void> {
	for (let tries = 0; tries < 1000 && !done(); tries++)
		await new Promise((resolve) => setTimeout(resolve, 20));
}

async function apiSha(path: string): Promise<string> {
	const res = await fetch(`${hub.url}${path}`);
	return ((await res.json()) as { sha: string }).sha;
}

describe("git clone over smart HTTP", () => {
	it("clones with protocol v2 and v0; commit, tree and blob ids are the API's", async () => {
		const sha = await apiSha("/api/models/alice/tiny");
		for (const [version, url] of [
			["2", `${hub.url}/alice/tiny`],
			["0", `${hub.url}/alice/tiny.git`],
		] as const) {
			const dir = join(home, `tiny-v${version}`);
			await git(["-c", `protocol.version=${version}`, "clone", "-q", url, dir]);
			expect((await git(["rev-parse", "HEAD"], dir)).stdout.trim()).toBe(sha);
			expect(readFileSync(join(dir, "weights/a.txt"), "utf8")).toBe("a".repeat(5000));
			expect((await git(["log", "--format=%s"], dir)).stdout.trim().split("\n")).toEqual([
				"Add weights",
				"Add card",
				"initial commit",
			]);
		}
		const dir = join(home, "tiny-v2");
		const tree = (await (await fetch(`${hub.url}/api/models/alice/tiny/tree/main`)).json()) as Array<{
			path: string;
			oid: string;
		}>;
		for (const entry of tree) {
			expect((await git(["rev-parse", `HEAD:${entry.path}`], dir)).stdout.trim(), entry.path).toBe(entry.oid);
		}
		const head = await fetch(`${hub.url}/alice/tiny/resolve/main/README.md`);
		expect(head.headers.get("x-repo-commit")).toBe(sha);
		await git(["fsck", "--strict"], dir);
	});

	it("shallow-clones, then pulls an API commit", async () => {
		const dir = join(home, "tiny-shallow");
		await git(["clone", "-q", "--depth", "1", `${hub.url}/alice/tiny`, dir]);
		expect((await git(["rev-list", "--count", "HEAD"], dir)).stdout.trim()).toBe("1");
		const next = await commit(
			"models",
			"alice/tiny",
			tokens.alice as string,
			{ "new.txt": "new\n" },
			"Add new",
		);
		await git(["pull", "-q", "--ff-only"], dir);
		expect((await git(["rev-parse", "HEAD"], dir)).stdout.trim()).toBe(next);
		expect(readFileSync(join(dir, "new.txt"), "utf8")).toBe("new\n");
		expect(await apiSha("/api/models/alice/tiny")).toBe(next);
		// A partial clone (blobs on demand) works too.
		const partial = join(home, "tiny-partial");
		await git(["clone", "-q", "--filter=blob:none", `${hub.url}/alice/tiny`, partial]);
		expect(readFileSync(join(partial, "new.txt"), "utf8")).toBe("new\n");
	});

	it("ls-remote lists branches, tags and refs/pr/N with the API's commits", async () => {
		const alice = tokens.alice as string;
		const sha = await apiSha("/api/models/alice/tiny");
		expect((await api("/api/models/alice/tiny/branch/dev", alice, {})).status).toBe(200);
		expect((await api("/api/models/alice/tiny/tag/main", alice, { tag: "v1" })).status).toBe(200);
		const pr = await api("/api/models/alice/tiny/discussions", alice, {
			title: "Try",
			description: "",
			pullRequest: true,
		});
		expect(pr.status, await pr.clone().text()).toBe(200);
		const { stdout } = await git(["ls-remote", `${hub.url}/alice/tiny`]);
		const refs = new Map(
			stdout
				.trim()
				.split("\n")
				.map((line) => line.split("\t").reverse() as [string, string]),
		);
		expect(refs.get("refs/heads/main")).toBe(sha);
		expect(refs.get("refs/heads/dev")).toBe(sha);
		expect(refs.get("refs/tags/v1")).toBe(sha);
		expect(refs.get("HEAD")).toBe(sha);
		expect(refs.has("refs/pr/1")).toBe(true);
	});

	it("serves a Xet-stored file to git-lfs as a plain LFS object, byte-identical to resolve", async () => {
		const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, index) => (index * 104_729) % 253));
		const path = join(home, "xet-weights.bin");
		writeFileSync(path, bytes);
		// The real huggingface_hub 2.0 with hf_xet: Xet is its default transfer when the hub offers it.
		const uploaded = await runHubClient<{ result: { ok?: string } }>(
			"upload_path",
			hub.url,
			join(home, "xet-client"),
			{ token: tokens.alice, repo: "alice/tiny", path },
			{},
			"hf_hub_sharing.py",
		);
		expect(uploaded.result.ok, JSON.stringify(uploaded)).toMatch(/^[0-9a-f]{40}$/);
		// Stored through Xet: the hub rebuilt it from the client's xorbs (its audit entry names the Xet hash).
		const sha256 = createHash("sha256").update(bytes).digest("hex");
		const audited = await db.query<{ action: string }>(
			"SELECT action FROM audit_log WHERE action = 'xet.upload' AND details->>'sha256' = $1",
			[sha256],
		);
		expect(audited.rows).toHaveLength(1);
		const dir = join(home, "tiny-xet");
		await git(["clone", "-q", `${hub.url}/alice/tiny`, dir]);
		expect((await git(["rev-parse", "HEAD"], dir)).stdout.trim()).toBe(uploaded.result.ok);
		expect(readFileSync(join(dir, "xet-weights.bin")).equals(bytes)).toBe(true);
		const resolved = await fetch(`${hub.url}/alice/tiny/resolve/main/xet-weights.bin`);
		expect(Buffer.from(await resolved.arrayBuffer()).equals(bytes)).toBe(true);
	});

	it("clones datasets at /datasets/{id}", async () => {
		const dir = join(home, "rows");
		await git(["clone", "-q", `${hub.url}/datasets/alice/rows.git`, dir]);
		expect(readFileSync(join(dir, "data.csv"), "utf8")).toBe("a,b\n1,2\n");
		expect((await git(["rev-parse", "HEAD"], dir)).stdout.trim()).toBe(
			await apiSha("/api/datasets/alice/rows"),
		);
	});

	it("private: anonymous and missing get the same 401 with a Basic challenge, others 404, the owner clones", async () => {
		for (const path of ["/alice/secret.git", "/alice/missing.git"]) {
			const res = await fetch(`${hub.url}${path}/info/refs?service=git-upload-pack`);
			expect(res.status, path).toBe(401);
			expect(res.headers.get("www-authenticate")).toBe('Basic realm="ModelHub"');
		}
		const asBob = await fetch(`${hub.url}/alice/secret.git/info/refs?service=git-upload-pack`, {
			headers: { authorization: `Basic ${Buffer.from(`bob:${tokens.bob}`).toString("base64")}` },
		});
		expect(asBob.status).toBe(404);
		const anonymous = await gitResult(["clone", "-q", `${hub.url}/alice/secret`, join(home, "nope")]);
		expect(anonymous.code).not.toBe(0);
		const bob = await gitResult([
			...withCredentials("bob"),
			"clone",
			"-q",
			`${hub.url}/alice/secret`,
			join(home, "nope2"),
		]);
		expect(bob.code).not.toBe(0);
		expect(bob.stderr).not.toContain(tokens.bob);
		// The owner clones, git-lfs downloading the LFS file through the batch API with the same credentials.
		writeFileSync(
			join(home, "gitconfig"),
			`${readFileSync(join(home, "gitconfig"), "utf8")}[credential]\n\thelper = "!f() { echo username=alice; echo password=${tokens.alice}; }; f"\n`,
		);
		const dir = join(home, "secret");
		await git(["clone", "-q", `${hub.url}/alice/secret`, dir]);
		expect(readFileSync(join(dir, "secret.txt"), "utf8")).toBe("hush\n");
		expect(readFileSync(join(dir, "weights.bin")).equals(LFS_BYTES)).toBe(true);
		const download = await fetch(`${hub.url}/alice/secret/resolve/main/weights.bin`, {
			headers: { authorization: `Bearer ${tokens.alice}` },
		});
		expect(Buffer.from(await download.arrayBuffer()).equals(LFS_BYTES)).toBe(true);
		const pointer = (await git(["show", "HEAD:weights.bin"], dir)).stdout;
		expect(pointer).toBe(
			`version https://git-lfs.github.com/spec/v1\noid sha256:${createHash("sha256").update(LFS_BYTES).digest("hex")}\nsize ${LFS_BYTES.length}\n`,
		);
		// Anonymous LFS batch requests for a private repository get git's 401 too.
		const batch = await fetch(`${hub.url}/alice/secret.git/info/lfs/objects/batch`, {
			method: "POST",
			headers: { "content-type": "application/vnd.git-lfs+json" },
			body: JSON.stringify({ operation: "download", objects: [] }),
		});
		expect(batch.status).toBe(401);
		expect((await git(["remote", "get-url", "origin"], dir)).stdout).not.toContain("mh_");
	});

	it("answers hostile requests cleanly", async () => {
		const post = (body: string, headers: Record<string, string> = {}) =>
			fetch(`${hub.url}/alice/tiny.git/git-upload-pack`, {
				method: "POST",
				headers: { "content-type": "application/x-git-upload-pack-request", ...headers },
				body,
			});
		const garbage = await post("zzzz this is not a pkt-line\n");
		expect(garbage.status).toBe(200);
		expect((await garbage.arrayBuffer()).byteLength).toBeLessThan(1000);
		const unknown = await post("0032want 0123456789012345678901234567890123456789\n00000009done\n");
		expect(unknown.status).toBe(200);
		expect(Buffer.from(await unknown.arrayBuffer()).toString()).toMatch(/not our ref|ERR/);
		const line = "0032want 0123456789012345678901234567890123456789\n";
		const huge = await post(line.repeat(1_000_000));
		expect([200, 400, 413, 500].includes(huge.status)).toBe(true);
		await huge.arrayBuffer().catch(() => undefined);
		const wrongType = await post("0000", { "content-type": "text/plain" });
		expect(wrongType.status).toBe(415);
		const dumb = await fetch(`${hub.url}/alice/tiny.git/info/refs`);
		expect(dumb.status).toBe(403);
		// A client that goes away mid-request leaves no upload-pack behind.
		const controller = new AbortController();
		const aborted = fetch(`${hub.url}/alice/tiny.git/git-upload-pack`, {
			method: "POST",
			headers: { "content-type": "application/x-git-upload-pack-request" },
			body: new ReadableStream({
				start(stream) {
					stream.enqueue(new TextEncoder().encode("0032want "));
				},
			}),
			duplex: "half",
			signal: controller.signal,
		} as RequestInit).catch(() => undefined);
		await waitFor(() => gitChildren().length > 0);
		expect(gitChildren().length).toBeGreaterThan(0);
		controller.abort();
		await aborted;
		await waitFor(() => gitChildren().length === 0);
		expect(gitChildren()).toEqual([]);
		// The hub still answers.
		expect((await fetch(`${hub.url}/api/models/alice/tiny`)).status).toBe(200);
		await git(["ls-remote", `${hub.url}/alice/tiny`]);
	});
});
