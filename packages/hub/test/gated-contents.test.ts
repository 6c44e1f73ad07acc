// A gated repository's file contents reach only those with access, on every way out besides resolve
// (issue 24): a pull request's diff (huggingface_hub's get_discussion_details, the web's files page),
// git clone over HTTP, and git-LFS (the batch API's downloads and the objects they point to). A user
// without access (bob) gets nothing of them, and can still open pull requests and discussions and
// comment, but cannot fetch even the refs/pr/N they opened (it holds main's files); a user granted
// access (carol, and that author once granted) gets them all. The stored .gitignore's rules
// (preupload's shouldIgnore) follow the same access. The anonymous get the 401 resolve answers, with
// git's Basic challenge.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { gitOutcome, hubCall, lfsCommit, ndjsonCommit } from "./support/git.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "gated-contents-admin-token-0123456789";
const REPO = "alice/gated";
/** The gated file's contents: no answer to bob may hold this marker. */
const MARKER = "gated-config-7f3a9c";
const CONFIG = `{"secret": "${MARKER}"}\n`;
const CONFIG_SHA256 = createHash("sha256").update(CONFIG).digest("hex");
const WEIGHTS = Buffer.from(Array.from({ length: 200_000 }, (_, index) => (index * 7919) % 251));
const WEIGHTS_SHA256 = createHash("sha256").update(WEIGHTS).digest("hex");
const LFS_TYPE = "application/vnd.git-lfs+json";

let db: Database;
let hub: RunningHub;
let dir: string;
const tokens: Record<string, string> = {};

type Attempt = { ok?: unknown; error?: string; status?: number | null };

/** A home for git with `user`'s token in its credential helper (git and git-lfs both ask it). */
function gitHome(user: string): string {
	const path = mkdtempSync(join(dir, `home-${user}-`));
	writeFileSync(
		join(path, "gitconfig"),
		[
			"[user]\n\tname = Test\n\temail = test@example.com",
			'[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true',
			`[credential]\n\thelper = "!f() { echo username=${user}; echo password=${tokens[user]}; }; f"`,
			"",
		].join("\n"),
	);
	return path;
}

function basic(user: string): Record<string, string> {
	return { authorization: `Basic ${Buffer.from(`${user}:${tokens[user]}`).toString("base64")}` };
}

function batch(operation: "download" | "upload", headers: Record<string, string>, oid = WEIGHTS_SHA256) {
	return fetch(`${hub.url}/${REPO}.git/info/lfs/objects/batch`, {
		method: "POST",
		headers: { "content-type": LFS_TYPE, accept: LFS_TYPE, ...headers },
		body: JSON.stringify({
			operation,
			transfers: ["basic"],
			objects: [{ oid, size: 1 }],
			hash_algo: "sha256",
		}),
	});
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "modelhub-gated-contents-"));
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({ db, seed: false, adminToken: ADMIN });
	for (const name of ["alice", "bob", "carol"]) tokens[name] = await createUser(hub.url, ADMIN, name);
	const alice = tokens.alice as string;
	expect((await hubCall(hub.url, "/api/repos/create", alice, { name: "gated" })).status).toBe(200);
	await ndjsonCommit(
		hub.url,
		{ api: "models", id: REPO },
		alice,
		{ "README.md": "# Gated\n", "config.json": CONFIG, ".gitignore": "*.gated-ext\n" },
		"Add files",
	);
	await lfsCommit(hub.url, REPO, alice, "weights.bin", WEIGHTS);
	const settings = await fetch(`${hub.url}/api/models/${REPO}/settings`, {
		method: "PUT",
		headers: { authorization: `Bearer ${alice}`, "content-type": "application/json" },
		body: JSON.stringify({ gated: "manual" }),
	});
	expect(settings.status).toBe(200);
	const granted = await hubCall(hub.url, `/api/models/${REPO}/user-access-request/grant`, alice, {
		user: "carol",
	});
	expect(granted.status).toBe(200);
}, 60_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a gated repository's contents beyond resolve", () => {
	it("leaves a pull request's diff out for a user without access, who still opens, comments and discusses", async () => {
		// bob, without access, opens a pull request deleting config.json: its diff would be the file.
		const bob = await runHubClient<Record<string, Attempt>>(
			"gated_pr",
			hub.url,
			join(dir, "py-bob"),
			{ token: tokens.bob, repo: REPO, delete: "config.json", comment: "Why not?", discussion: "A question" },
			{},
			"hf_hub_community.py",
		);
		const num = bob.pr?.ok;
		expect(typeof num).toBe("number");
		expect(bob.diff).toEqual({ ok: null });
		expect(bob.comment).toEqual({ ok: "Why not?" });
		expect(typeof bob.discussion?.ok).toBe("number");
		expect(JSON.stringify(bob)).not.toContain(MARKER);

		// The API as the web's files page asks it: the details, no diff, and why.
		const viewers: Array<Record<string, string>> = [{}, { authorization: `Bearer ${tokens.bob}` }];
		for (const headers of viewers) {
			const res = await fetch(`${hub.url}/api/models/${REPO}/discussions/${String(num)}?diff=1`, { headers });
			expect(res.status).toBe(200);
			const text = await res.text();
			expect(text).not.toContain(MARKER);
			const details = JSON.parse(text) as Record<string, unknown>;
			expect(details.isPullRequest).toBe(true);
			expect(details.diff).toBeUndefined();
			expect(details.diffWithheld).toBe(true);
		}

		// carol, granted access, reads the same pull request's diff: the file as removed lines.
		const carol = await runHubClient<Record<string, Attempt>>(
			"gated_pr",
			hub.url,
			join(dir, "py-carol"),
			{ token: tokens.carol, repo: REPO, num },
			{},
			"hf_hub_community.py",
		);
		expect(carol.diff?.ok).toContain(`deleted file mode 100644`);
		expect(carol.diff?.ok).toContain(`-${CONFIG.trimEnd()}`);
	}, 60_000);

	it("applies the stored .gitignore in preupload only for users with access (its rules are its contents)", async () => {
		const ignored: Record<string, unknown> = {};
		for (const user of ["bob", "carol"]) {
			const res = await hubCall(hub.url, `/api/models/${REPO}/preupload/main?create_pr=1`, tokens[user], {
				files: [{ path: "notes.gated-ext", size: 3, sample: Buffer.from("abc").toString("base64") }],
			});
			expect(res.status, user).toBe(200);
			ignored[user] = ((await res.json()) as { files: Array<{ shouldIgnore: boolean }> }).files[0]
				?.shouldIgnore;
		}
		expect(ignored).toEqual({ bob: false, carol: true });
	});

	it("refuses git clone to the anonymous (401, Basic) and to a user without access (403); clones for one with it", async () => {
		const refs = `${hub.url}/${REPO}.git/info/refs?service=git-upload-pack`;
		const anonymous = await fetch(refs);
		expect(anonymous.status).toBe(401);
		expect(anonymous.headers.get("www-authenticate")).toBe('Basic realm="ModelHub"');
		expect(anonymous.headers.get("x-error-code")).toBe("GatedRepo");
		const asBob = await fetch(refs, { headers: basic("bob") });
		expect(asBob.status).toBe(403);
		expect(asBob.headers.get("x-error-code")).toBe("GatedRepo");
		expect(await asBob.text()).toContain(`Visit ${hub.url}/${REPO} to ask for access`);

		// The pack itself, asked for without the advertisement: main's commit is public metadata.
		const main = (await (await fetch(`${hub.url}/api/models/${REPO}`)).json()) as { sha: string };
		const want = `0032want ${main.sha}\n00000009done\n`;
		const pack = await fetch(`${hub.url}/${REPO}.git/git-upload-pack`, {
			method: "POST",
			headers: { "content-type": "application/x-git-upload-pack-request", ...basic("bob") },
			body: want,
		});
		expect(pack.status).toBe(403);
		expect(Buffer.from(await pack.arrayBuffer()).toString("latin1")).not.toContain("PACK");

		const bobHome = gitHome("bob");
		const bobClone = await gitOutcome(bobHome, ["clone", "-q", `${hub.url}/${REPO}`, join(bobHome, "clone")]);
		expect(bobClone.code).not.toBe(0);
		expect(bobClone.stderr).not.toContain(MARKER);
		expect(bobClone.stderr).not.toContain(tokens.bob);
		expect(existsSync(join(bobHome, "clone", "config.json"))).toBe(false);

		// carol clones; git-lfs fetches the LFS file through the batch API and its object URL.
		const carolHome = gitHome("carol");
		const carolClone = await gitOutcome(carolHome, [
			"clone",
			"-q",
			`${hub.url}/${REPO}`,
			join(carolHome, "clone"),
		]);
		expect(carolClone.code, carolClone.stderr).toBe(0);
		expect(readFileSync(join(carolHome, "clone", "config.json"), "utf8")).toBe(CONFIG);
		expect(readFileSync(join(carolHome, "clone", "weights.bin")).equals(WEIGHTS)).toBe(true);
	}, 60_000);

	it("refuses LFS batch downloads and object GETs without access; serves them with it; uploads stay open", async () => {
		const anonymous = await batch("download", {});
		expect(anonymous.status).toBe(401);
		expect(anonymous.headers.get("www-authenticate")).toBe('Basic realm="ModelHub"');
		const bobBatch = await batch("download", basic("bob"));
		expect(bobBatch.status).toBe(403);
		expect(bobBatch.headers.get("x-error-code")).toBe("GatedRepo");
		expect(await bobBatch.text()).not.toContain("/info/lfs/objects/");
		// Any file the repository holds is an LFS object by its SHA-256 (the tree lists LFS files' ones).
		for (const oid of [WEIGHTS_SHA256, CONFIG_SHA256]) {
			const object = `${hub.url}/${REPO}.git/info/lfs/objects/${oid}`;
			expect((await fetch(object)).status).toBe(401);
			const refused = await fetch(object, { headers: basic("bob") });
			expect(refused.status).toBe(403);
			expect(await refused.text()).not.toContain(MARKER);
		}
		// A pull request's uploads need no access to the files (only read access, as before).
		const upload = await batch("upload", { authorization: `Bearer ${tokens.bob}` }, "a".repeat(64));
		expect(upload.status).toBe(200);

		const carolBatch = await batch("download", basic("carol"));
		expect(carolBatch.status).toBe(200);
		const answer = (await carolBatch.json()) as {
			objects: Array<{ actions: { download: { href: string; header: Record<string, string> } } }>;
		};
		const download = answer.objects[0]?.actions.download;
		expect(download?.href).toBe(`${hub.url}/${REPO}.git/info/lfs/objects/${WEIGHTS_SHA256}`);
		const bytes = await fetch(download?.href as string, { headers: download?.header });
		expect(Buffer.from(await bytes.arrayBuffer()).equals(WEIGHTS)).toBe(true);
		const config = await fetch(`${hub.url}/${REPO}.git/info/lfs/objects/${CONFIG_SHA256}`, {
			headers: basic("carol"),
		});
		expect(await config.text()).toBe(CONFIG);
	});

	// The public hub's documents say only that a gated repository's files are for those with access; they
	// say nothing of a pull request's own ref. refs/pr/N starts at main's head, so its tree holds every
	// gated file: a fetch of it is a clone by another name. So the author's ref is refused to them too
	// until they have access, as every other way to the files is (README.md, "Gated repositories").
	it("refuses a pull request's author without access a git fetch of their own refs/pr/N, and its files; serves both once granted", async () => {
		const dave = await createUser(hub.url, ADMIN, "dave");
		tokens.dave = dave;
		const opened = await hubCall(
			hub.url,
			`/api/models/${REPO}/commit/main?create_pr=1`,
			dave,
			[
				{ key: "header", value: { summary: "Add my notes", description: "" } },
				{
					key: "file",
					value: {
						path: "dave.txt",
						content: Buffer.from("dave's\n").toString("base64"),
						encoding: "base64",
					},
				},
			]
				.map((line) => JSON.stringify(line))
				.join("\n"),
			"application/x-ndjson",
		);
		expect(opened.status).toBe(200);
		const ref = `refs/pr/${String(((await opened.json()) as { pullRequestUrl: string }).pullRequestUrl.split("/").pop())}`;
		// The ref is public metadata (list_repo_refs), its head too.
		const refs = (await (await hubCall(hub.url, `/api/models/${REPO}/refs?include_prs=1`, dave)).json()) as {
			pullRequests: Array<{ ref: string; targetCommit: string }>;
		};
		const head = refs.pullRequests.find((entry) => entry.ref === ref)?.targetCommit;
		expect(head).toMatch(/^[0-9a-f]{40}$/);

		// git fetch of the ref: refused at the advertisement, and the pack asked for directly too.
		const home = gitHome("dave");
		const repo = join(home, "repo");
		await gitOutcome(home, ["init", "-q", repo]);
		const fetchRef = () =>
			gitOutcome(home, ["fetch", "-q", `${hub.url}/${REPO}`, `${ref}:refs/heads/mine`], repo);
		const refused = await fetchRef();
		expect(refused.code).not.toBe(0);
		expect(refused.stderr).toContain("403");
		expect(refused.stderr).not.toContain(MARKER);
		expect(refused.stderr).not.toContain(dave);
		const pack = await fetch(`${hub.url}/${REPO}.git/git-upload-pack`, {
			method: "POST",
			headers: { "content-type": "application/x-git-upload-pack-request", ...basic("dave") },
			body: `0032want ${String(head)}\n00000009done\n`,
		});
		expect(pack.status).toBe(403);
		expect(pack.headers.get("x-error-code")).toBe("GatedRepo");
		expect(Buffer.from(await pack.arrayBuffer()).toString("latin1")).not.toContain("PACK");
		// Through resolve at the ref, even the file dave sent himself is refused; the card is not.
		const resolve = (path: string) =>
			fetch(`${hub.url}/${REPO}/resolve/${encodeURIComponent(ref)}/${path}`, {
				headers: { authorization: `Bearer ${dave}` },
			});
		for (const path of ["dave.txt", "config.json"]) {
			const file = await resolve(path);
			expect(file.status, path).toBe(403);
			expect(file.headers.get("x-error-code"), path).toBe("GatedRepo");
		}
		expect((await resolve("README.md")).status).toBe(200);

		// Granted access, dave fetches his ref: his file and the gated ones.
		const granted = await hubCall(hub.url, `/api/models/${REPO}/user-access-request/grant`, tokens.alice, {
			user: "dave",
		});
		expect(granted.status).toBe(200);
		const fetched = await fetchRef();
		expect(fetched.code, fetched.stderr).toBe(0);
		const show = (path: string) => gitOutcome(home, ["show", `mine:${path}`], repo);
		expect((await show("dave.txt")).stdout).toBe("dave's\n");
		expect((await show("config.json")).stdout).toBe(CONFIG);
		expect((await resolve("dave.txt")).status).toBe(200);
	}, 60_000);
});
