// Repositories without a namespace (`gpt2`, `squad`) beyond commits: likes, gated access requests and
// super_squash_history through the real huggingface_hub 2.x, exactly as for `ns/name`; super-squash itself
// for both id shapes; and git over HTTP (clone, fetch, push) of `/gpt2` and `/datasets/squad` with the real
// git, where a first segment the web app or the API owns stays theirs.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESERVED_REPO_NAMES } from "@modelhub/tasks/repositories";
import { ndjson } from "../../../test-support/ndjson.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { repoWriteTarget } from "../src/routes/repo-paths.js";
import { gitOutcome, runGit } from "./support/git.js";
import { callHub, createUser, type HubAnswer, type RunningHub, startHub } from "./support/hub.js";
import { type Attempt, failed, ok, runHubClient } from "./support/python.js";

const ADMIN = "bare-community-admin-token-0123456789abcdef";
const SCRIPT = "hf_hub_bare_ids.py";

type Step = [string | null, string, ...unknown[]];

describe("namespace-less repositories: community, super-squash and git", () => {
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

	function steps(repo: string, repoType: string, list: Step[]): Promise<Record<string, Attempt>> {
		return runHubClient<Record<string, Attempt>>(
			"steps",
			hub.url,
			join(dir, `${repo}-${Math.random().toString(36).slice(2)}`),
			{ repo, repo_type: repoType, tokens, steps: list },
			{},
			SCRIPT,
		);
	}

	const git = (args: string[], cwd = dir) => runGit(dir, args, cwd);
	const credentials = (user: string, token: string) => [
		"-c",
		`credential.helper=!f() { echo username=${user}; echo password=${token}; }; f`,
	];

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-bare-community-"));
		writeFileSync(join(dir, "gitconfig"), "[user]\n\tname = Test Pusher\n\temail = pusher@example.com\n");
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, seed: false, adminToken: ADMIN });
		for (const name of ["staff", "bob", "carol", "alice"])
			tokens[name] = await createUser(hub.url, ADMIN, name);
		tokens.admin = ADMIN;
		expect((await call("PUT", "/api/admin/users/staff/site-admin", ADMIN, { siteAdmin: true })).status).toBe(
			200,
		);
		for (const [name, type] of [
			["gpt2", "model"],
			["squad", "dataset"],
			["sq", "model"],
			["sqd", "dataset"],
		] as const) {
			expect((await call("POST", "/api/repos/create", ADMIN, { name, type })).status, name).toBe(200);
		}
		for (const [name, type] of [
			["tiny", "model"],
			["rows", "dataset"],
		] as const) {
			expect((await call("POST", "/api/repos/create", tokens.alice, { name, type })).status, name).toBe(200);
		}
	}, 240_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	for (const [repo, repoType, api] of [
		["gpt2", "model", "/api/models/gpt2"],
		["squad", "dataset", "/api/datasets/squad"],
	] as const) {
		it(`likes and gated access requests on the ${repoType} ${repo}, as for ns/name`, async () => {
			const files = { "README.md": "# gated\n", "config.json": '{"n": 1}\n' };
			expect((await call("POST", `${api}/commit/main`, ADMIN, ndjson(files, "Files"))).status).toBe(200);
			// Gating is a visibility change: the hub admin's for a bare repository.
			expect((await call("PUT", `${api}/settings`, ADMIN, { gated: "manual" })).status).toBe(200);

			const first = await steps(repo, repoType, [
				["bob", "download", "config.json"],
				["bob", "like"],
				["carol", "like"],
				["bob", "likers"],
				["carol", "unlike"],
				["bob", "likers"],
				["bob", "liked", "bob"],
				["bob", "likes"],
			]);
			expect(failed(first["0:download"]), JSON.stringify(first["0:download"])).toMatchObject({
				error: "GatedRepoError",
				status: 403,
			});
			expect(ok(first["1:like"])).toEqual({ liked: true, likes: 1 });
			expect(ok(first["2:like"])).toEqual({ liked: true, likes: 2 });
			expect(ok(first["3:likers"])).toEqual(["bob", "carol"]);
			ok(first["4:unlike"]);
			expect(ok(first["5:likers"])).toEqual(["bob"]);
			expect(ok(first["6:liked"])).toContain(repo);
			expect(ok(first["7:likes"])).toBe(1);

			// The requester's form (this hub's; huggingface_hub has no call for it).
			for (const who of ["bob", "carol"]) {
				const asked = await call("POST", `${api}/ask-access`, tokens[who], {});
				expect(asked.status, who).toBe(200);
				expect(asked.json.access).toBe("pending");
			}

			// The owner's side is the site admins' (and the hub admin's); others get the bare-repository 403.
			const second = await steps(repo, repoType, [
				["alice", "requests", "pending"],
				["staff", "requests", "pending"],
				["staff", "accept", "bob"],
				["staff", "reject", "carol", "not this time"],
				["admin", "grant", "alice"],
				["staff", "cancel", "alice"],
				["staff", "requests", "accepted"],
				["staff", "requests", "rejected"],
				["bob", "download", "config.json"],
				["carol", "download", "config.json"],
				["staff", "download", "config.json"],
			]);
			expect(failed(second["0:requests"])).toMatchObject({
				status: 403,
				message: expect.stringContaining(
					`You (alice) don't have write access to ${repo}: it has no namespace, and only the hub admin and site admins change such repositories`,
				),
			});
			expect(ok(second["1:requests"])).toEqual(["bob", "carol"]);
			ok(second["2:accept"]);
			ok(second["3:reject"]);
			ok(second["4:grant"]);
			// Cancelling sends a handled request back to pending (huggingface_hub's cancel_access_request).
			ok(second["5:cancel"]);
			expect(ok(second["6:requests"])).toEqual(["bob"]);
			expect(ok(second["7:requests"])).toEqual(["carol"]);
			expect(ok(second["8:download"])).toBe('{"n": 1}\n');
			expect(failed(second["9:download"]).error).toBe("GatedRepoError");
			// A site admin handles the requests and reads the files, as a namespace's members do.
			expect(ok(second["10:download"])).toBe('{"n": 1}\n');
			const pending = await steps(repo, repoType, [["staff", "requests", "pending"]]);
			expect(ok(pending["0:requests"])).toEqual(["alice"]);
			expect((await call("PUT", `${api}/settings`, ADMIN, { gated: false })).status).toBe(200);
		}, 300_000);
	}

	it("squashes a branch's history with super_squash_history, for ns/name and bare ids, models and datasets", async () => {
		for (const [repo, repoType, api, writer] of [
			["alice/tiny", "model", "/api/models/alice/tiny", "alice"],
			["alice/rows", "dataset", "/api/datasets/alice/rows", "alice"],
			["sq", "model", "/api/models/sq", "staff"],
			["sqd", "dataset", "/api/datasets/sqd", "staff"],
		] as const) {
			const token = tokens[writer];
			for (const [index, content] of ["one", "two", "three"].entries()) {
				const made = await call(
					"POST",
					`${api}/commit/main`,
					token,
					ndjson({ "a.txt": content }, `Commit ${index}`),
				);
				expect(made.status, repo).toBe(200);
			}
			expect((await call("POST", `${api}/branch/dev`, token, {})).status).toBe(200);
			expect((await call("POST", `${api}/tag/main`, token, { tag: "v1" })).status).toBe(200);
			const before = await call("GET", `${api}/revision/main`, token);
			const tree = (await call("GET", `${api}/tree/main`, token)).json;

			const out = await steps(repo, repoType, [
				[writer === "alice" ? "bob" : "alice", "squash", "main", "Refused"],
				[null, "squash", "main", "Refused"],
				[writer, "squash", "v1", "A tag"],
				[writer, "squash", "nowhere", "No branch"],
				[writer, "squash", "main", "Squashed\n\nThree commits in one."],
				[writer, "commits", "main"],
				[writer, "files", "main"],
				[writer, "commits", "dev"],
				[writer, "download", "a.txt", "main"],
			]);
			const refused = failed(out["0:squash"]);
			expect(refused.status, repo).toBe(403);
			if (writer === "staff") expect(refused.message).toContain("it has no namespace");
			expect(failed(out["1:squash"]).status).toBe(401);
			expect(failed(out["2:squash"])).toMatchObject({
				error: "BadRequestError",
				message: expect.stringContaining("Only a branch's history can be squashed: v1 is not a branch"),
			});
			expect(failed(out["3:squash"]).error).toBe("RevisionNotFoundError");
			ok(out["4:squash"]);
			expect(ok(out["5:commits"]), repo).toEqual(["Squashed"]);
			expect(ok(out["6:files"])).toEqual([".gitattributes", "a.txt"]);
			// Other refs keep their history.
			expect(ok(out["7:commits"])).toEqual(["Commit 2", "Commit 1", "Commit 0", "initial commit"]);
			expect(ok(out["8:download"])).toBe("three");

			// The same tree under one commit without a parent; the tag still names the old head.
			const after = await call("GET", `${api}/revision/main`, token);
			expect(after.json.sha).not.toBe(before.json.sha);
			expect((await call("GET", `${api}/tree/main`, token)).json).toEqual(tree);
			expect((await call("GET", `${api}/revision/v1`, token)).json.sha).toBe(before.json.sha);
			const commits = await call("GET", `${api}/commits/main`, token);
			expect(commits.json).toMatchObject([{ title: "Squashed", message: "Three commits in one." }]);
			// A commit after the squash goes on the squashed one.
			expect(
				(await call("POST", `${api}/commit/main`, token, ndjson({ "b.txt": "b" }, "After"))).status,
			).toBe(200);
			const latest = (await call("GET", `${api}/commits/main`, token)).json as unknown as Array<{
				title: string;
			}>;
			expect(latest.map((c) => c.title)).toEqual(["After", "Squashed"]);
		}
	}, 300_000);

	it("clones, fetches and pushes /gpt2 and /datasets/squad with git; the hub's own first segments stay theirs", async () => {
		for (const [page, api] of [
			["/gpt2", "/api/models/gpt2"],
			["/datasets/squad", "/api/datasets/squad"],
		] as const) {
			const head = (await call("GET", `${api}/revision/main`, undefined)).json.sha as string;
			const clone = join(dir, `clone-${page.replaceAll("/", "-")}`);
			await git(["clone", "-q", `${hub.url}${page}`, clone]);
			expect((await git(["rev-parse", "HEAD"], clone)).stdout.trim(), page).toBe(head);
			// `.git` form, and a fetch after an API commit.
			const dotGit = join(dir, `clone-dotgit-${page.replaceAll("/", "-")}`);
			await git(["clone", "-q", `${hub.url}${page}.git`, dotGit]);
			const next = await call(
				"POST",
				`${api}/commit/main`,
				ADMIN,
				ndjson({ "fetched.txt": "f" }, "For fetch"),
			);
			expect(next.status).toBe(200);
			await git(["pull", "-q", "--ff-only"], dotGit);
			expect((await git(["log", "-1", "--format=%s"], dotGit)).stdout.trim()).toBe("For fetch");

			// A site admin pushes; another user is refused with the reason, anonymous asked to sign in.
			writeFileSync(join(dotGit, "pushed.txt"), "pushed\n");
			await git(["add", "pushed.txt"], dotGit);
			await git(["commit", "-q", "-m", "Pushed by git"], dotGit);
			const pushedId = (await git(["rev-parse", "HEAD"], dotGit)).stdout.trim();
			const refused = await gitOutcome(
				dir,
				[...credentials("bob", tokens.bob!), "push", "origin", "main"],
				dotGit,
			);
			expect(refused.code).not.toBe(0);
			expect(refused.stderr).toContain("main");
			const anonymous = await gitOutcome(dir, ["push", "origin", "main"], dotGit);
			expect(anonymous.code).not.toBe(0);
			expect((await call("GET", `${api}/revision/main`, undefined)).json.sha).not.toBe(pushedId);
			const pushed = await gitOutcome(
				dir,
				[...credentials("staff", tokens.staff!), "push", "origin", "main"],
				dotGit,
			);
			expect(pushed.code, pushed.stderr).toBe(0);
			expect((await call("GET", `${api}/revision/main`, undefined)).json.sha).toBe(pushedId);
		}
		// The web app's and the API's first segments: never a bare model's git URL, and no bare model's name.
		const api404 = await call("GET", "/api/info/refs?service=git-upload-pack", undefined);
		expect(api404.status).toBe(404);
		expect(api404.json.error).toBe("no such API route");
		const settingsPage = await call(
			"GET",
			"/settings/info/refs?service=git-upload-pack",
			undefined,
			undefined,
			{
				accept: "text/html",
			},
		);
		expect(settingsPage.headers.get("content-type")).toContain("text/html");
		// Without the rule git would ask anonymous callers to sign in for a model `models` (401, Basic).
		const modelsPack = await call("POST", "/models/git-upload-pack", undefined);
		expect(modelsPack.status).toBe(404);
		expect(modelsPack.headers.get("www-authenticate")).toBeNull();
		for (const name of ["models", "Api", "login", "assets"]) {
			const made = await call("POST", "/api/repos/create", ADMIN, { name, type: "model" });
			expect(made.status, name).toBe(400);
			expect(made.json.error).toContain(`model name '${name}' is reserved without a namespace`);
		}
		// Datasets live under /datasets/: a bare dataset may take such a name.
		expect((await call("POST", "/api/repos/create", ADMIN, { name: "login", type: "dataset" })).status).toBe(
			200,
		);
		// The mirror's write guard reads super-squash as the other write actions.
		expect(repoWriteTarget("/api/models/gpt2/super-squash/main")).toEqual({ type: "model", id: "gpt2" });
		expect(repoWriteTarget("/api/datasets/a/b/super-squash/main")).toEqual({ type: "dataset", id: "a/b" });
		// The API's action words are no new repository names, so `/api/models/x/likers` is always x's.
		for (const word of ["like", "likers", "ask-access", "user-access-request", "super-squash"]) {
			expect(RESERVED_REPO_NAMES).toContain(word);
			expect((await call("POST", "/api/repos/create", tokens.alice, { name: word })).status, word).toBe(400);
		}
	}, 300_000);
});
