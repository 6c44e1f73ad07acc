// git push over smart HTTP (receive-pack) with the real git client against one running hub: pushed
// commits keep their ids and show through the API, a read token and anonymous pushes are refused with
// git's own output, a non-fast-forward is refused, a push racing an API commit loses cleanly, and
// hostile pushes (a `.git` path, an executable file, an oversized pack, a thin pack whose base the hub
// lacks) are refused without a crash, the branch unchanged.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { gitEnv, gitOutcome, hubCall, ndjsonCommit, runGit } from "./support/git.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "git-push-admin-token-0123456789abcdef";

let cluster: PostgresCluster | undefined;
afterAll(() => cluster?.stop());

/** The suite runs on the embedded database and on PostgreSQL (a cluster of its own). */
const BACKENDS: Array<[string, (name: string) => Promise<Database>]> = [
	["PGlite", () => openDatabase({ databaseUrl: undefined, dataDir: "memory://" })],
	[
		"PostgreSQL",
		async (name) => {
			cluster ??= await startPostgresCluster();
			return openDatabase({ databaseUrl: await cluster.createDatabase(name), dataDir: "memory://" });
		},
	],
];

let db: Database;
let hub: RunningHub;
let home: string;
const tokens: Record<string, string> = {};

const git = (args: string[], cwd = home, extraEnv?: Record<string, string>) =>
	runGit(home, args, cwd, extraEnv);
const gitResult = (args: string[], cwd = home) => gitOutcome(home, args, cwd);
const api = (path: string, token: string | undefined, body?: unknown, type?: string) =>
	hubCall(hub.url, path, token, body, type);
const apiCommit = (id: string, token: string, files: Record<string, string>, summary: string) =>
	ndjsonCommit(hub.url, { api: "models", id }, token, files, summary);

async function head(id: string, branch = "main"): Promise<string> {
	const res = await api(`/api/models/${id}/revision/${branch}`, tokens.alice);
	return ((await res.json()) as { sha: string }).sha;
}

/** git's credential helper answering `user` and a token: never in the URL. */
function credentials(user: string, token: string): string[] {
	return ["-c", `credential.helper=!f() { echo username=${user}; echo password=${token}; }; f`];
}

/** A fresh clone of alice/tiny, with alice's write token for pushing. */
async function cloneTiny(): Promise<string> {
	const dir = mkdtempSync(join(home, "clone-"));
	await git(["clone", "-q", `${hub.url}/alice/tiny`, dir]);
	return dir;
}

async function commitFile(dir: string, path: string, content: string | Buffer, message: string) {
	writeFileSync(join(dir, path), content);
	await git(["add", path], dir);
	await git(["commit", "-q", "-m", message], dir);
	return (await git(["rev-parse", "HEAD"], dir)).stdout.trim();
}

describe.each(BACKENDS)("on %s", (label, open) => {
	beforeAll(async () => {
		home = mkdtempSync(join(tmpdir(), "modelhub-git-push-"));
		// The user, and what `git lfs install` writes, in the throwaway global config.
		writeFileSync(
			join(home, "gitconfig"),
			[
				"[user]\n\tname = Test Pusher\n\temail = pusher@example.com",
				'[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true',
				"",
			].join("\n"),
		);
		db = await open(`git_push_${label === "PGlite" ? "pglite" : "pg"}`);
		hub = await startHub({ db, seed: false, adminToken: ADMIN, git: { maxPushBytes: 256 * 1024 } });
		for (const name of ["alice", "bob", "carol"]) {
			const res = await api("/api/admin/users", ADMIN, { name });
			tokens[name] = ((await res.json()) as { token: string }).token;
		}
		const read = await api("/api/admin/users/alice/tokens", ADMIN, { scope: "read" });
		tokens.aliceRead = ((await read.json()) as { token: string }).token;
		expect((await api("/api/repos/create", tokens.alice, { name: "tiny" })).status).toBe(200);
		await apiCommit("alice/tiny", tokens.alice as string, { "README.md": "# tiny\n" }, "Add card");
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (home) rmSync(home, { recursive: true, force: true });
	});

	// Each case runs several real git processes against the hub (clone, push, fetch, git-lfs); at CI load
	// ~15 they outlast the 30 s default, which holds for unit tests, not for these.
	describe("git push over smart HTTP", { timeout: 120_000 }, () => {
		it("pushes commits that keep their ids, their files served by the API", async () => {
			const dir = await cloneTiny();
			await commitFile(dir, "notes.txt", "first\n", "Add notes");
			await git(["mv", "README.md", "CARD.md"], dir);
			await git(
				["commit", "-q", "-m", "Rename the card\n\nWith a body line.\n\nAnd a second paragraph."],
				dir,
			);
			// A committer unlike the author, in another time zone: bytes the hub would not make itself.
			await git(["commit", "-q", "--allow-empty", "-m", "Empty, by someone else"], dir, {
				GIT_COMMITTER_NAME: "Other",
				GIT_COMMITTER_DATE: "1700000000 +0530",
			});
			mkdirSync(join(dir, "sub"));
			await commitFile(dir, "sub/data.txt", "x".repeat(3000), "Add data");
			const local = (await git(["rev-parse", "HEAD"], dir)).stdout.trim();
			const pushed = await gitResult(
				[...credentials("alice", tokens.alice as string), "push", "origin", "main"],
				dir,
			);
			expect(pushed.code, pushed.stderr).toBe(0);
			expect(await head("alice/tiny")).toBe(local);
			const history = (await (
				await api("/api/models/alice/tiny/commits/main", tokens.alice)
			).json()) as Array<{
				id: string;
				title: string;
				message: string;
				authors: Array<{ user: string }>;
			}>;
			expect(history.slice(0, 4).map((commit) => commit.title)).toEqual([
				"Add data",
				"Empty, by someone else",
				"Rename the card",
				"Add notes",
			]);
			expect(history[2]?.message).toBe("With a body line.\n\nAnd a second paragraph.");
			const file = await fetch(`${hub.url}/alice/tiny/resolve/main/sub/data.txt`);
			expect(await file.text()).toBe("x".repeat(3000));
			expect((await fetch(`${hub.url}/alice/tiny/resolve/main/README.md`)).status).toBe(404);
			// A fresh clone has the very same history, commit bytes included.
			const again = await cloneTiny();
			expect((await git(["rev-parse", "HEAD"], again)).stdout.trim()).toBe(local);
			await git(["fsck", "--strict"], again);
			const original = (await git(["cat-file", "commit", "HEAD~1"], dir)).stdout;
			expect((await git(["cat-file", "commit", "HEAD~1"], again)).stdout).toBe(original);
			expect(original).toContain("+0530");
		});

		it("pushes an LFS file uploaded by git-lfs; huggingface_hub downloads it byte-identical", async () => {
			const dir = await cloneTiny();
			// git-lfs's pre-push hook uploads through the LFS batch API with the same basic credentials.
			await git(["lfs", "install", "--local"], dir);
			await git(
				["config", "credential.helper", `!f() { echo username=alice; echo password=${tokens.alice}; }; f`],
				dir,
			);
			await git(["config", "lfs.locksverify", "false"], dir);
			const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, index) => (index * 7919 + 13) % 251));
			await commitFile(dir, "weights.bin", bytes, "Add weights through git-lfs");
			expect((await git(["cat-file", "-p", "HEAD:weights.bin"], dir)).stdout).toMatch(
				/^version https:\/\/git-lfs/,
			);
			const pushed = await gitResult(["push", "origin", "main"], dir);
			expect(pushed.code, pushed.stderr).toBe(0);
			const local = (await git(["rev-parse", "HEAD"], dir)).stdout.trim();
			const read = await runHubClient<{ sha256: string; sha: string }>(
				"download",
				hub.url,
				mkdtempSync(join(home, "hf-")),
				{ repo: "alice/tiny", filename: "weights.bin" },
				{},
				"hf_hub_git.py",
			);
			expect(read).toEqual({ sha256: createHash("sha256").update(bytes).digest("hex"), sha: local });
			const tree = (await (await api("/api/models/alice/tiny/tree/main", tokens.alice)).json()) as Array<{
				path: string;
				lfs?: { oid: string; size: number };
			}>;
			expect(tree.find((entry) => entry.path === "weights.bin")?.lfs?.size).toBe(bytes.length);
			// A pointer to an object never uploaded here is refused, naming the fix.
			const other = await cloneTiny();
			const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${"ab".repeat(32)}\nsize 12345\n`;
			writeFileSync(join(other, "ghost.txt"), pointer);
			await git(["add", "ghost.txt"], other); // .txt is not tracked by LFS: the pointer text goes as is
			await git(["commit", "-q", "-m", "Ghost pointer"], other);
			expect((await git(["cat-file", "-p", "HEAD:ghost.txt"], other)).stdout).toBe(pointer);
			// --no-verify: git-lfs's pre-push hook would stop it first (it has no such object to upload).
			const ghost = await gitResult(
				[...credentials("alice", tokens.alice as string), "push", "--no-verify", "origin", "main"],
				other,
			);
			expect(ghost.code).not.toBe(0);
			expect(ghost.stderr).toMatch(/remote rejected.*was never uploaded to this repository/s);
			expect(await head("alice/tiny")).toBe(local);
		});

		it("pushes new branches (with and without new commits) and lightweight tags, and deletes them", async () => {
			const dir = await cloneTiny();
			const push = (...args: string[]) =>
				gitResult([...credentials("alice", tokens.alice as string), "push", "origin", ...args], dir);
			const main = (await git(["rev-parse", "HEAD"], dir)).stdout.trim();
			// A branch at a commit the hub has, one with two new commits, and a tag on one of those.
			await git(["branch", "same", main], dir);
			await git(["checkout", "-q", "-b", "feature/x"], dir);
			await commitFile(dir, "feature.txt", "one\n", "Feature one");
			const tip = await commitFile(dir, "feature.txt", "two\n", "Feature two");
			await git(["tag", "v1.0", tip], dir);
			const created = await push("same", "feature/x", "v1.0");
			expect(created.code, created.stderr).toBe(0);
			const refs = (await (await api("/api/models/alice/tiny/refs", tokens.alice)).json()) as {
				branches: Array<{ name: string; targetCommit: string }>;
				tags: Array<{ name: string; targetCommit: string }>;
			};
			const target = (list: Array<{ name: string; targetCommit: string }>, name: string) =>
				list.find((ref) => ref.name === name)?.targetCommit;
			expect(target(refs.branches, "same")).toBe(main);
			expect(target(refs.branches, "feature/x")).toBe(tip);
			expect(target(refs.tags, "v1.0")).toBe(tip);
			expect(await (await fetch(`${hub.url}/alice/tiny/resolve/v1.0/feature.txt`)).text()).toBe("two\n");
			expect(await head("alice/tiny")).toBe(main);
			// An annotated tag and a moved tag are refused with the reason; a branch name the hub refuses too.
			await git(["tag", "-a", "-m", "Annotated", "v2.0", tip], dir);
			const annotated = await push("v2.0");
			expect(annotated.stderr).toMatch(/\[remote rejected\] v2\.0 -> v2\.0 \(annotated tags are not kept/);
			await git(["tag", "-f", "v1.0", main], dir);
			const moved = await push("--force", "v1.0");
			expect(moved.stderr).toMatch(/tags cannot be moved/);
			// Deleting a branch and a tag; main cannot be deleted.
			const deleted = await push("--delete", "same", "v1.0");
			expect(deleted.code, deleted.stderr).toBe(0);
			const after = (await (await api("/api/models/alice/tiny/refs", tokens.alice)).json()) as typeof refs;
			expect(target(after.branches, "same")).toBeUndefined();
			expect(target(after.tags, "v1.0")).toBeUndefined();
			const mainGone = await push("--delete", "main");
			expect(mainGone.stderr).toMatch(/The main branch cannot be deleted/);
			expect(await head("alice/tiny")).toBe(main);
		});

		it("refuses anonymous pushes with a credential prompt and read tokens with the reason", async () => {
			const dir = await cloneTiny();
			await commitFile(dir, "anon.txt", "a\n", "Anonymous");
			const before = await head("alice/tiny");
			const anonymous = await gitResult(["push", "origin", "main"], dir);
			expect(anonymous.code).not.toBe(0);
			expect(anonymous.stderr).toMatch(/could not read Username|Authentication failed/);
			const read = await gitResult(
				[...credentials("alice", tokens.aliceRead as string), "push", "origin", "main"],
				dir,
			);
			expect(read.code).not.toBe(0);
			expect(read.stderr).toMatch(/remote: Your token '[^']+' is read-only/);
			const other = await gitResult(
				[...credentials("bob", tokens.bob as string), "push", "origin", "main"],
				dir,
			);
			expect(other.code).not.toBe(0);
			expect(other.stderr).toMatch(/remote: /);
			expect(await head("alice/tiny")).toBe(before);
		});

		it("refuses a non-fast-forward push and a push on a stale head, keeping the hub's commits", async () => {
			const dir = await cloneTiny();
			const apiId = await apiCommit(
				"alice/tiny",
				tokens.alice as string,
				{ "api.txt": "api\n" },
				"From the API",
			);
			await commitFile(dir, "late.txt", "late\n", "Late");
			const stale = await gitResult(
				[...credentials("alice", tokens.alice as string), "push", "origin", "main"],
				dir,
			);
			expect(stale.code).not.toBe(0);
			expect(stale.stderr).toMatch(/fetch first|rejected/);
			const forced = await gitResult(
				[...credentials("alice", tokens.alice as string), "push", "--force", "origin", "main"],
				dir,
			);
			expect(forced.code).not.toBe(0);
			expect(forced.stderr).toMatch(/\[remote rejected\] main -> main \(non-fast-forward/);
			expect(await head("alice/tiny")).toBe(apiId);
			// After a fetch and a rebase, it goes.
			await git(["pull", "-q", "--rebase"], dir);
			const again = await gitResult(
				[...credentials("alice", tokens.alice as string), "push", "origin", "main"],
				dir,
			);
			expect(again.code, again.stderr).toBe(0);
			expect(await head("alice/tiny")).toBe((await git(["rev-parse", "HEAD"], dir)).stdout.trim());
		});

		it("a push racing an API commit on the same base: exactly one lands, the other is told to fetch", async () => {
			const dir = await cloneTiny();
			const base = await head("alice/tiny");
			const tip = await commitFile(dir, "race.txt", "race\n", "Racing push");
			const lines = [
				{ key: "header", value: { summary: "Racing API commit", description: "", parentCommit: base } },
				{
					key: "file",
					value: {
						path: "api-race.txt",
						content: Buffer.from("api\n").toString("base64"),
						encoding: "base64",
					},
				},
			];
			const [pushed, committed] = await Promise.all([
				gitResult([...credentials("alice", tokens.alice as string), "push", "origin", "main"], dir),
				api(
					"/api/models/alice/tiny/commit/main",
					tokens.alice,
					lines.map((line) => JSON.stringify(line)).join("\n"),
					"application/x-ndjson",
				),
			]);
			const apiWon = committed.status === 200;
			expect(
				apiWon ? pushed.code !== 0 : committed.status === 412,
				`${pushed.stderr} ${committed.status}`,
			).toBe(true);
			const now = await head("alice/tiny");
			if (apiWon) {
				expect(now).toBe(((await committed.json()) as { commitOid: string }).commitOid);
				expect(pushed.stderr).toMatch(/fetch first|A commit has happened since/);
			} else expect(now).toBe(tip);

			// The hub's own check, whatever the client saw: a pack built on a head that has since moved.
			const stale = await cloneTiny();
			const old = await head("alice/tiny");
			const next = await commitFile(stale, "stale.txt", "stale\n", "On a stale head");
			const moved = await apiCommit(
				"alice/tiny",
				tokens.alice as string,
				{ "moved.txt": "m\n" },
				"Moves main",
			);
			const answer = await receivePack(
				`${old} ${next} refs/heads/main`,
				await packOf(stale, [next, `^${old}`]),
			);
			expect(answer).toMatch(/ng refs\/heads\/main A commit has happened since: main is at [0-9a-f]{40}/);
			expect(await head("alice/tiny")).toBe(moved);
		});

		it("refuses hostile content with the reason in git's output, the branch unchanged", async () => {
			const before = await head("alice/tiny");
			const push = (dir: string) =>
				gitResult(
					[...credentials("alice", tokens.alice as string), "push", "-f", "origin", "HEAD:main"],
					dir,
				);

			// An executable file: the hub keeps mode 100644 only, so its tree could not keep its id.
			const exec = await cloneTiny();
			writeFileSync(join(exec, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
			await git(["add", "run.sh"], exec);
			await git(["commit", "-q", "-m", "Script"], exec);
			const executable = await push(exec);
			expect(executable.code).not.toBe(0);
			expect(executable.stderr).toMatch(/remote rejected.*run\.sh is an executable file/s);

			// A `.git` folder in a tree, made with git's plumbing (git add refuses it).
			const dotgit = await cloneTiny();
			const hook = await hashObject(dotgit, "#!/bin/sh\necho owned\n");
			const inner = await mktree(dotgit, `100644 blob ${hook}\tconfig\n`);
			const root = (await git(["write-tree"], dotgit)).stdout.trim();
			const listing = (await git(["ls-tree", root], dotgit)).stdout;
			const tree = await mktree(dotgit, `${listing}040000 tree ${inner}\t.git\n`);
			const commit = (await git(["commit-tree", tree, "-p", "HEAD", "-m", "Hostile"], dotgit)).stdout.trim();
			await git(["update-ref", "refs/heads/main", commit], dotgit);
			const hostile = await push(dotgit);
			expect(hostile.code).not.toBe(0);
			expect(hostile.stderr).toMatch(/remote unpack failed: .*hasDotgit: contains '\.git'/);

			// A pack over MODELHUB_GIT_MAX_PUSH_BYTES (256 KiB here): random bytes do not compress.
			const big = await cloneTiny();
			await commitFile(
				big,
				"noise.txt",
				Buffer.from(Array.from({ length: 400_000 }, () => Math.floor(Math.random() * 256))),
				"Noise",
			);
			const oversized = await push(big);
			expect(oversized.code).not.toBe(0);
			expect(oversized.stderr).toMatch(/remote: the pack was refused: .*MODELHUB_GIT_MAX_PUSH_BYTES/);
			expect(await head("alice/tiny")).toBe(before);
			expect((await fetch(`${hub.url}/api/models/alice/tiny`)).status).toBe(200);
		});

		it("refuses a thin pack whose delta base the hub does not have, and a garbage body", async () => {
			const before = await head("alice/tiny");
			const dir = await cloneTiny();
			// A base object only this clone has, then a thin pack with a delta against it.
			const base = await commitFile(dir, "base.txt", "base line\n".repeat(500), "Base (never pushed)");
			const tip = await commitFile(dir, "base.txt", `${"base line\n".repeat(500)}one more\n`, "Tip");
			const answer = await receivePack(
				`${before} ${tip} refs/heads/main`,
				await packOf(dir, [tip, `^${base}`]),
			);
			expect(answer).toMatch(/unpack (?!ok)/);
			expect(answer).toMatch(/ng refs\/heads\/main/);
			const garbage = await fetch(`${hub.url}/alice/tiny/git-receive-pack`, {
				method: "POST",
				headers: {
					authorization: `Basic ${Buffer.from(`alice:${tokens.alice}`).toString("base64")}`,
					"content-type": "application/x-git-receive-pack-request",
				},
				body: "zzzz not pkt-lines",
			});
			expect(garbage.status).toBe(400);
			expect(await head("alice/tiny")).toBe(before);
		});
	});

	describe("git push to pull requests and stale pushes", () => {
		it("lands commits on refs/pr/N for its author; new refs/pr/*, others and deletions are refused", async () => {
			const opened = await api("/api/models/alice/tiny/discussions", tokens.bob, {
				title: "Bob's changes",
				pullRequest: true,
			});
			expect(opened.status).toBe(200);
			const { num, gitReference } = (await opened.json()) as { num: number; gitReference: string };
			expect(gitReference).toBe(`refs/pr/${num}`);
			const main = await head("alice/tiny");
			const dir = await cloneTiny();
			await commitFile(dir, "bob.txt", "from bob\n", "Bob's first");
			const tip = await commitFile(dir, "bob.txt", "from bob, again\n", "Bob's second");
			const asBob = (...args: string[]) =>
				gitResult([...credentials("bob", tokens.bob as string), "push", "origin", ...args], dir);
			// bob may not write to the repository: main is refused, his pull request's ref is not.
			const toMain = await asBob("HEAD:main");
			expect(toMain.code).not.toBe(0);
			const pushed = await asBob(`HEAD:${gitReference}`);
			expect(pushed.code, pushed.stderr).toBe(0);
			expect(await head("alice/tiny", encodeURIComponent(gitReference))).toBe(tip);
			expect(await head("alice/tiny")).toBe(main);
			expect(
				await (
					await fetch(`${hub.url}/alice/tiny/resolve/${encodeURIComponent(gitReference)}/bob.txt`)
				).text(),
			).toBe("from bob, again\n");
			// Each pushed commit shows in the pull request's timeline, as API commits do.
			const details = (await (await api(`/api/models/alice/tiny/discussions/${num}`, tokens.bob)).json()) as {
				events: Array<{ type: string; data?: { subject?: string; oid?: string } }>;
			};
			expect(
				details.events.filter((event) => event.type === "commit").map((event) => event.data?.subject),
			).toEqual(["Bob's first", "Bob's second"]);
			// carol may read but did not open it: refused with the reason.
			await commitFile(dir, "carol.txt", "c\n", "Carol's");
			const carol = await gitResult(
				[...credentials("carol", tokens.carol as string), "push", "origin", `HEAD:${gitReference}`],
				dir,
			);
			expect(carol.code).not.toBe(0);
			expect(carol.stderr).toMatch(
				new RegExp(`remote: ${gitReference}: Only the author of pull request #${num}`),
			);
			// A refs/pr/N no pull request has, and deleting one, are refused with what to do.
			const invented = await asBob("HEAD:refs/pr/999");
			expect(invented.code).not.toBe(0);
			expect(invented.stderr).toMatch(
				/remote: refs\/pr\/999: refs\/pr\/999 is not a pull request of this repository: open one first/,
			);
			const deleted = await asBob("--delete", gitReference);
			expect(deleted.code).not.toBe(0);
			expect(deleted.stderr).toMatch(/belongs to its pull request: close the pull request instead/);
			expect(await head("alice/tiny", encodeURIComponent(gitReference))).toBe(tip);
			// A writer may push to it too (alice, the repository's owner).
			const more = await commitFile(dir, "alice.txt", "a\n", "Alice's review fix");
			const byAlice = await gitResult(
				[...credentials("alice", tokens.alice as string), "push", "origin", `HEAD:${gitReference}`],
				dir,
			);
			expect(byAlice.code, byAlice.stderr).toBe(0);
			expect(await head("alice/tiny", encodeURIComponent(gitReference))).toBe(more);
		}, 180_000);

		it("refuses a deletion or update whose expected old value has moved since git read the refs", async () => {
			const dir = await cloneTiny();
			const push = (...args: string[]) =>
				gitResult([...credentials("alice", tokens.alice as string), "push", "origin", ...args], dir);
			await commitFile(dir, "moving.txt", "one\n", "On moving");
			expect((await push("HEAD:refs/heads/moving")).code).toBe(0);
			// git's pre-push hook runs after git has read the hub's refs and before it sends its commands:
			// an API commit there moves the branch under the push, as a concurrent writer would.
			const mover = join(home, `mover-${Date.now()}.mjs`);
			writeFileSync(
				mover,
				`const lines = [{ key: "header", value: { summary: "Moved by the API" } }, { key: "file", value: { path: "api-" + process.hrtime.bigint() + ".txt", content: "YQ==", encoding: "base64" } }];
const res = await fetch(${JSON.stringify(`${hub.url}/api/models/alice/tiny/commit/moving`)}, { method: "POST", headers: { authorization: "Bearer " + process.env.MOVER_TOKEN, "content-type": "application/x-ndjson" }, body: lines.map((line) => JSON.stringify(line)).join("\\n") });
if (res.status !== 200) { console.error(await res.text()); process.exit(1); }
`,
			);
			const hook = join(dir, ".git", "hooks", "pre-push");
			writeFileSync(
				hook,
				`#!/bin/sh\nMOVER_TOKEN=${tokens.alice} exec ${JSON.stringify(process.execPath)} ${JSON.stringify(mover)}\n`,
				{
					mode: 0o755,
				},
			);
			const seen = await head("alice/tiny", "moving");
			const stale = await push("--delete", "moving");
			expect(stale.code).not.toBe(0);
			expect(stale.stderr).toMatch(
				/remote rejected\].*moving.*\(stale: moving has moved since it was fetched/,
			);
			const moved = await head("alice/tiny", "moving");
			expect(moved).not.toBe(seen);
			// An update on the moved branch: the commits build on what git saw, not on the new head.
			await git(["fetch", "-q", "origin", "moving"], dir);
			await git(["reset", "-q", "--hard", "FETCH_HEAD"], dir);
			await commitFile(dir, "late-on-moving.txt", "late\n", "Late on moving");
			const update = await push("HEAD:moving");
			expect(update.code).not.toBe(0);
			expect(update.stderr).toMatch(/A commit has happened since: moving is at/);
			// Without the concurrent writer, the deletion goes.
			rmSync(hook);
			const now = await head("alice/tiny", "moving");
			const gone = await push("--delete", "moving");
			expect(gone.code, gone.stderr).toBe(0);
			expect((await api("/api/models/alice/tiny/revision/moving", tokens.alice)).status).toBe(404);
			expect(now).not.toBe(moved);
		}, 180_000);
	});
});

/** A thin pack of `revs` (git pack-objects --revs), as git push would send it. */
async function packOf(cwd: string, revs: string[]): Promise<Buffer> {
	return new Promise<Buffer>((resolve, reject) => {
		const child = spawn("git", ["pack-objects", "--thin", "--stdout", "--revs", "-q"], {
			cwd,
			env: gitEnv(home),
		});
		const out: Buffer[] = [];
		child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
		child.on("error", reject);
		child.on("close", () => resolve(Buffer.concat(out)));
		child.stdin.end(`${revs.join("\n")}\n`);
	});
}

/** A receive-pack request of one command (report-status, no side band) and its pack; the answer's text. */
async function receivePack(command: string, pack: Buffer): Promise<string> {
	const first = `${command}\0report-status\n`;
	const line = `${(Buffer.byteLength(first) + 4).toString(16).padStart(4, "0")}${first}`;
	const res = await fetch(`${hub.url}/alice/tiny/git-receive-pack`, {
		method: "POST",
		headers: {
			authorization: `Basic ${Buffer.from(`alice:${tokens.alice}`).toString("base64")}`,
			"content-type": "application/x-git-receive-pack-request",
		},
		body: Buffer.concat([Buffer.from(`${line}0000`), pack]),
	});
	expect(res.status).toBe(200);
	return Buffer.from(await res.arrayBuffer()).toString("latin1");
}

async function hashObject(cwd: string, content: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn("git", ["hash-object", "-w", "--stdin"], { cwd, env: gitEnv(home) });
		let out = "";
		child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
		child.on("error", reject);
		child.on("close", () => resolve(out.trim()));
		child.stdin.end(content);
	});
}

async function mktree(cwd: string, listing: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn("git", ["mktree"], { cwd, env: gitEnv(home) });
		let out = "";
		child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
		child.on("error", reject);
		child.on("close", () => resolve(out.trim()));
		child.stdin.end(listing);
	});
}
