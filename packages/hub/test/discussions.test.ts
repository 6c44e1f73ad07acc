import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { bytes } from "./support/hf-client-suite.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "discussions-admin-token-0123456789abcdef";
const SCRIPT = "hf_hub_discussions.py";

/** What the Python script recorded: each call's result (read loosely: the script's JSON). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the script's results are asserted field by field
type Outcomes = Record<string, Attempt<any>>;

type Attempt<T = unknown> = { ok: T } | { error: string; status: number | null; message: string };

function ok<T>(attempt: Attempt<T> | undefined): T {
	if (!attempt || !("ok" in attempt)) throw new Error(`expected success, got ${JSON.stringify(attempt)}`);
	return attempt.ok;
}

function failed(attempt: Attempt | undefined): { error: string; status: number | null; message: string } {
	if (!attempt || !("error" in attempt)) throw new Error(`expected an error, got ${JSON.stringify(attempt)}`);
	return attempt;
}

describe("pull requests and discussions through huggingface_hub 2.x", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	let large: string;
	const tokens: Record<string, string> = {};

	function client<T>(group: string, params: Record<string, unknown>): Promise<T> {
		return runHubClient<T>(
			group,
			hub.url,
			join(dir, `${group}-${Math.random().toString(36).slice(2)}`),
			params,
			{},
			SCRIPT,
		);
	}

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-discussions-"));
		large = join(dir, "weights.bin");
		writeFileSync(large, bytes(11 * 1024 * 1024 + 3, 7));
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, seed: false, adminToken: ADMIN });
		for (const name of ["alice", "bob", "carol"]) tokens[name] = await createUser(hub.url, ADMIN, name);
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	for (const repoType of ["model", "dataset"] as const) {
		it(`reviews changes to a ${repoType} through discussions and pull requests`, async () => {
			const out = await client<Outcomes>("flow", {
				token: tokens.alice,
				other_token: tokens.bob,
				third_token: tokens.carol,
				other_name: "bob",
				repo: `alice/review-${repoType}`,
				private_repo: `alice/private-${repoType}`,
				repo_type: repoType,
				large,
			});
			const discussion = ok(out.discussion);
			expect(discussion).toMatchObject({
				num: 1,
				title: "A question",
				status: "open",
				author: "bob",
				is_pull_request: false,
				repo_type: repoType,
			});
			expect(ok(out.edit)).toBe("Edited **text**");
			expect(failed(out.edit_by_owner).status).toBe(403);
			expect(failed(out.hide_by_reader).status).toBe(403);
			expect(ok(out.hide_by_owner)).toBe(true);
			expect(ok(out.rename)).toEqual(["A question", "A better question"]);
			expect(failed(out.close_by_third).status).toBe(403);
			expect(ok(out.close)).toBe("closed");
			expect(ok(out.reopen)).toBe("open");
			expect(failed(out.anonymous_comment).status).toBe(401);
			expect(failed(out.short_title)).toMatchObject({
				status: 400,
				message: expect.stringContaining("3 to 200 characters"),
			});
			const after = ok(out.discussion_after);
			expect(after.title).toBe("A better question");
			expect(after.events.map((e: { type: string }) => e.type)).toEqual([
				"comment",
				"comment",
				"comment",
				"title-change",
				"comment",
				"status-change",
				"status-change",
			]);
			// The hidden comment's text is gone, for everyone.
			expect(after.events[1]).toMatchObject({ hidden: true, content: "" });

			// A draft pull request: its ref exists at once; drafts are not merged.
			const draft = ok(out.draft);
			expect(draft).toMatchObject({
				num: 2,
				status: "draft",
				is_pull_request: true,
				git_reference: "refs/pr/2",
				target_branch: "refs/heads/main",
			});
			expect(ok(out.draft_info)).toBe(ok(out.seed));
			expect(ok(out.draft_commit)).toMatch(/^[0-9a-f]{40}$/);
			expect(failed(out.draft_merge)).toMatchObject({
				status: 400,
				message: expect.stringContaining("draft"),
			});

			// create_pr=True by a reader: refs/pr/3 gets the file, main does not; the author adds a commit.
			const pr = ok(out.pr);
			expect(pr.pr_num).toBe(3);
			expect(pr.pr_revision).toBe("refs/pr/3");
			expect(pr.pr_url).toBe(
				`${hub.url}/${repoType === "dataset" ? "datasets/" : ""}alice/review-${repoType}/discussions/3`,
			);
			expect(ok(out.pr_file)).toBe("new file\n");
			expect(failed(out.main_file).status).toBe(404);
			expect(ok(out.pr_second)).toMatch(/^[0-9a-f]{40}$/);
			expect(failed(out.pr_by_third)).toMatchObject({ status: 403 });
			expect(failed(out.main_by_reader)).toMatchObject({ status: 403 });
			expect(ok(out.refs)).toEqual(["refs/pr/2", "refs/pr/3"]);
			const details = ok(out.pr_details);
			expect(
				details.events
					.filter((e: { type: string }) => e.type === "commit")
					.map((e: { oid: string }) => e.oid),
			).toEqual([pr.oid, ok(out.pr_second)]);
			expect(details.diff).toContain(
				"diff --git a/a.txt b/a.txt\nindex 4cb29ea..f04eb26 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n",
			);
			expect(details.diff).toContain("diff --git a/new.txt b/new.txt\nnew file mode 100644\n");

			// Merging needs write access; a merge is a fast-forward here, and happens once.
			expect(failed(out.merge_by_reader).status).toBe(403);
			expect(out.merge).toEqual({ ok: null });
			expect(failed(out.merge_again)).toMatchObject({
				status: 409,
				message: expect.stringContaining("already merged"),
			});
			const merged = ok(out.merged);
			expect(merged.status).toBe("merged");
			expect(merged.merge_commit_oid).toBe(ok(out.pr_second));
			expect(merged.events.at(-1)).toMatchObject({
				type: "status-change",
				new_status: "merged",
				author: "alice",
			});
			expect(ok(out.main_after)).toEqual(["new file\n", "one\n2\nthree\n"]);
			expect(ok(out.main_sha)).toBe(ok(out.pr_second));

			// The target moved: another file merges as a new commit, the same file conflicts.
			const side = ok(out.side_details);
			expect(side.status).toBe("merged");
			expect(side.merge_commit_oid).not.toBe(
				side.events.find((e: { type: string }) => e.type === "commit").oid,
			);
			expect(ok(out.main_files)).toEqual([
				".gitattributes",
				"README.md",
				"a.txt",
				"b.txt",
				"new.txt",
				"side.txt",
			]);
			expect(ok(out.clash_details).conflicting_files).toEqual(["b.txt"]);
			expect(failed(out.clash_merge)).toMatchObject({
				status: 409,
				message: expect.stringContaining(
					"cannot be merged: 1 file(s) changed on main since it was opened conflict with it (b.txt)",
				),
			});
			expect(ok(out.main_b)).toBe("BEE\n");

			// A large file through Xet into a pull request.
			expect(ok(out.large_pr)).toBe("refs/pr/6");
			expect(ok(out.large_pr_file)).toBe(11 * 1024 * 1024 + 3);

			expect(ok(out.list_all)).toEqual([6, 5, 4, 3, 2, 1]);
			expect(ok(out.list_prs)).toEqual([6, 5, 4, 3, 2]);
			expect(ok(out.list_discussions)).toEqual([1]);
			expect(ok(out.list_closed)).toEqual([4, 3]);
			expect(ok(out.list_open)).toEqual([6, 5, 2, 1]);
			expect(ok(out.list_author)).toEqual([3, 2, 1]);

			// A private repository's discussions are not found by those who cannot read it.
			expect(ok(out.private_discussion)).toBe(1);
			for (const key of ["private_list", "private_details", "private_comment", "private_pr"]) {
				expect(failed(out[key])).toMatchObject({ error: "RepositoryNotFoundError", status: 404 });
			}
			expect(ok(out.private_owner_list)).toEqual([1]);
		}, 300_000);
	}
	async function call(
		method: string,
		path: string,
		token: string,
		body?: unknown,
		type = "application/json",
	) {
		const response = await fetch(`${hub.url}${path}`, {
			method,
			headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": type } : {}) },
			...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
		});
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	}

	/** One file committed as huggingface_hub's NDJSON. */
	function commit(repo: string, revision: string, path: string, text: string, createPr = false) {
		const lines = [
			{ key: "header", value: { summary: `Add ${path}`, description: "" } },
			{ key: "file", value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" } },
		];
		return call(
			"POST",
			`/api/models/${repo}/commit/${encodeURIComponent(revision)}${createPr ? "?create_pr=1" : ""}`,
			tokens.alice as string,
			lines.map((line) => JSON.stringify(line)).join("\n"),
			"application/x-ndjson",
		);
	}

	it("merges a pull request once when two merges race, and over a commit landing on main meanwhile", async () => {
		const alice = tokens.alice as string;
		expect((await call("POST", "/api/repos/create", alice, { name: "race" })).status).toBe(200);
		const first = await commit("alice/race", "main", "p.txt", "p\n", true);
		expect(first.body.pullRequestUrl).toBe(`${hub.url}/alice/race/discussions/1`);
		const merges = await Promise.all([
			call("POST", "/api/models/alice/race/discussions/1/merge", alice),
			call("POST", "/api/models/alice/race/discussions/1/merge", alice),
		]);
		expect(merges.map((m) => m.status).sort()).toEqual([200, 409]);
		expect(merges.find((m) => m.status === 409)?.body.error).toBe("Pull request #1 is already merged");

		await commit("alice/race", "main", "q.txt", "q\n", true);
		const [landed, merged] = await Promise.all([
			commit("alice/race", "main", "r.txt", "r\n"),
			call("POST", "/api/models/alice/race/discussions/2/merge", alice),
		]);
		expect([landed.status, merged.status]).toEqual([200, 200]);
		const tree = await call("GET", "/api/models/alice/race/tree/main", alice);
		const paths = (tree.body as unknown as Array<{ path: string }>).map((entry) => entry.path);
		expect(paths).toEqual(expect.arrayContaining(["p.txt", "q.txt", "r.txt"]));
	}, 60_000);

	// huggingface_hub 2.0.0 never sends a multipart/form-data commit (its commits are NDJSON; "multipart" in
	// its lfs.py is the LFS chunked transfer, which this hub does not offer): the web's upload panel does
	// (apps/web src/view/upload.ts buildCommitForm: a `header` field, then a `file` part per file). So the
	// request is sent as the web sends it, by a reader, and what it made is read back through huggingface_hub.
	for (const repoType of ["model", "dataset"] as const) {
		it(`opens a pull request on a ${repoType} from a reader's multipart commit with create_pr=1: refs/pr/1 holds the files, main does not`, async () => {
			const name = `multipart-pr-${repoType}`;
			const repo = `alice/${name}`;
			const created = await call("POST", "/api/repos/create", tokens.alice as string, {
				name,
				...(repoType === "dataset" ? { type: "dataset" } : {}),
			});
			expect(created.status).toBe(200);
			// One small text file (kept in the database) and one past the small-blob limit (a file of its own).
			const small = Buffer.from("from the browser\n");
			const large = bytes(200_000, 31);
			const form = new FormData();
			form.append("header", JSON.stringify({ summary: "Add two files", description: "Sent as a form" }));
			form.append("file", new Blob([new Uint8Array(small)]), "notes/small.txt");
			form.append("file", new Blob([new Uint8Array(large)]), "large.bin");
			const prefix = repoType === "dataset" ? "datasets" : "models";
			const response = await fetch(`${hub.url}/api/${prefix}/${repo}/commit/main?create_pr=1`, {
				method: "POST",
				headers: { authorization: `Bearer ${tokens.bob as string}`, accept: "application/json" },
				body: form,
			});
			const answer = (await response.json()) as Record<string, unknown>;
			expect(response.status, JSON.stringify(answer)).toBe(200);
			expect(answer.pullRequestUrl).toBe(
				`${hub.url}/${repoType === "dataset" ? "datasets/" : ""}${repo}/discussions/1`,
			);
			const out = await client<Outcomes>("read_pr", {
				token: tokens.bob,
				repo,
				repo_type: repoType,
				num: 1,
				paths: ["notes/small.txt", "large.bin"],
			});
			expect(ok(out.details)).toMatchObject({
				num: 1,
				title: "Add two files",
				status: "open",
				author: "bob",
				is_pull_request: true,
				git_reference: "refs/pr/1",
			});
			expect(ok(out.refs)).toEqual(["refs/pr/1"]);
			const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");
			expect(ok(out["pr:notes/small.txt"])).toBe(sha(small));
			expect(ok(out["pr:large.bin"])).toBe(sha(large));
			for (const key of ["main:notes/small.txt", "main:large.bin"]) {
				expect(failed(out[key]), key).toMatchObject({ error: "RemoteEntryNotFoundError", status: 404 });
			}
			expect(ok(out.main_files)).toEqual([".gitattributes"]);
		}, 120_000);
	}

	it("answers comments on a repository deleted meanwhile as not found, never with a server error", async () => {
		const alice = tokens.alice as string;
		const bob = tokens.bob as string;
		expect((await call("POST", "/api/repos/create", alice, { name: "doomed" })).status).toBe(200);
		const opened = await call("POST", "/api/models/alice/doomed/discussions", bob, {
			title: "Before it goes",
			description: "hi",
		});
		expect(opened.body.num).toBe(1);
		const results = await Promise.all([
			call("DELETE", "/api/repos/delete", alice, { name: "doomed" }),
			...Array.from({ length: 6 }, (_, i) =>
				call("POST", "/api/models/alice/doomed/discussions/1/comment", bob, { comment: `comment ${i}` }),
			),
		]);
		expect(results[0]?.status).toBe(200);
		for (const result of results.slice(1)) expect([200, 404]).toContain(result.status);
		const late = await call("POST", "/api/models/alice/doomed/discussions/1/comment", bob, {
			comment: "late",
		});
		expect(late).toMatchObject({ status: 404, body: { error: "Repository not found" } });
	}, 60_000);

	it("takes a reader's large files into the pull requests they open and commit to, never into main", async () => {
		const repo = "alice/reader-large";
		const out = await client<Outcomes>("reader_large", {
			token: tokens.alice,
			other_token: tokens.bob,
			third_token: tokens.carol,
			repo,
			repo_type: "model",
		});
		const sha256 = out.sha256 as unknown as Record<string, string>;
		expect(ok(out.xet_pr)).toBe("refs/pr/1");
		expect(ok(out.lfs_pr)).toBe("refs/pr/2");
		expect(ok(out.lfs_more)).toMatch(/^[0-9a-f]{40}$/);
		expect(ok(out.xet_more)).toMatch(/^[0-9a-f]{40}$/);
		expect(ok(out.xet_pr_files)).toEqual({
			"xet.bin": sha256["xet.bin"],
			"xet-more.bin": sha256["xet-more.bin"],
		});
		expect(ok(out.lfs_pr_files)).toEqual({
			"lfs.bin": sha256["lfs.bin"],
			"lfs-more.bin": sha256["lfs-more.bin"],
		});
		// main needs write access, and another's pull request its author (or a writer), whichever the protocol.
		for (const key of ["xet_main", "lfs_main", "xet_third", "lfs_third"]) {
			expect(failed(out[key]), key).toMatchObject({ status: 403 });
		}
		// The client stops at preupload; the upload routes themselves refuse too.
		const bob = tokens.bob as string;
		const carol = tokens.carol as string;
		const batch = (token: string, ref?: string) =>
			call("POST", `/${repo}.git/info/lfs/objects/batch`, token, {
				operation: "upload",
				objects: [{ oid: "ab".repeat(32), size: 10 }],
				...(ref !== undefined ? { ref: { name: ref } } : {}),
			});
		const xetToken = (token: string, revision: string, createPr = false) =>
			call("GET", `/api/models/${repo}/xet-write-token/${revision}${createPr ? "?create_pr=1" : ""}`, token);
		expect((await batch(bob, "refs/heads/main")).status).toBe(403);
		expect((await batch(carol, "refs/pr/2")).status).toBe(403);
		expect((await xetToken(bob, "main")).status).toBe(403);
		expect((await xetToken(carol, "refs%2Fpr%2F1")).status).toBe(403);
		const forPr = await batch(carol);
		const href = (forPr.body.objects as Array<{ actions: { upload: { href: string } } }>)[0]?.actions.upload
			.href;
		expect(new URL(href ?? "").searchParams.get("right")).toBe("pull-request");
		expect((await xetToken(carol, "None", true)).status).toBe(200);
		expect((await xetToken(bob, "refs%2Fpr%2F1")).status).toBe(200);
		expect(ok(out.main_files)).toEqual([".gitattributes", "README.md"]);

		// The objects bob uploaded are the repository's now, but his commit naming one still cannot go to main.
		const lines = [
			{ key: "header", value: { summary: "Sneak onto main", description: "" } },
			{ key: "lfsFile", value: { path: "x.bin", algo: "sha256", oid: sha256["lfs.bin"], size: 300_001 } },
		];
		const sneak = await call(
			"POST",
			`/api/models/${repo}/commit/main`,
			tokens.bob as string,
			lines.map((line) => JSON.stringify(line)).join("\n"),
			"application/x-ndjson",
		);
		expect(sneak.status).toBe(403);
	}, 300_000);

	it("opens a pull request from parent_commit, and refuses a commit to its ref from a stale parent", async () => {
		const out = await client<Outcomes>("stale_parent", {
			token: tokens.alice,
			other_token: tokens.bob,
			repo: "alice/stale-parent",
		});
		expect(ok(out.pr)).toBe("refs/pr/1");
		// Created from the first commit: the second one's file is not in it.
		expect(ok(out.pr_files)).toEqual([".gitattributes", "a.txt", "c.txt"]);
		for (const key of ["stale_pr_commit", "stale_main"]) {
			expect(failed(out[key]), key).toMatchObject({
				status: 412,
				message: expect.stringContaining("A commit has happened since"),
			});
		}
		expect(ok(out.pr_commit)).toMatch(/^[0-9a-f]{40}$/);
		expect(out.merge).toEqual({ ok: null });
		expect(ok(out.main_files)).toEqual([".gitattributes", "a.txt", "b.txt", "c.txt", "d.txt"]);
	}, 300_000);

	it("gives a pull request's diff as git's hunks through get_discussion_details, LFS files as their pointers", async () => {
		const lines = (changed: Record<number, string>) =>
			Array.from({ length: 40 }, (_, i) => `${changed[i + 1] ?? `note ${i + 1}`}\n`).join("");
		const weightsBefore = bytes(4096, 1);
		const weightsAfter = bytes(4100, 2);
		const out = await client<Outcomes>("pr_diff", {
			token: tokens.alice,
			other_token: tokens.bob,
			repo: "alice/pr-diff",
			notes_before: `Notes:\n${lines({})}`,
			notes_after: `Notes:\n${lines({ 3: "note three", 35: "note thirty-five" })}`,
			weights_before: weightsBefore.toString("hex"),
			weights_after: weightsAfter.toString("hex"),
		});
		expect(ok(out.pr)).toBe(1);
		const blob = (text: string) =>
			createHash("sha1")
				.update(`blob ${Buffer.byteLength(text)}\0${text}`)
				.digest("hex")
				.slice(0, 7);
		const pointer = (data: Buffer) =>
			`version https://git-lfs.github.com/spec/v1\noid sha256:${createHash("sha256").update(data).digest("hex")}\nsize ${data.length}\n`;
		const [before, after] = [pointer(weightsBefore), pointer(weightsAfter)];
		const notes = (n: number) => `note ${n}`;
		expect(ok(out.diff)).toBe(
			[
				"diff --git a/notes.txt b/notes.txt",
				`index ${blob(`Notes:\n${lines({})}`)}..${blob(`Notes:\n${lines({ 3: "note three", 35: "note thirty-five" })}`)} 100644`,
				"--- a/notes.txt",
				"+++ b/notes.txt",
				"@@ -1,7 +1,7 @@",
				" Notes:",
				` ${notes(1)}`,
				` ${notes(2)}`,
				`-${notes(3)}`,
				"+note three",
				` ${notes(4)}`,
				` ${notes(5)}`,
				` ${notes(6)}`,
				// git's default function context: the nearest line above starting with a letter.
				`@@ -33,7 +33,7 @@ ${notes(31)}`,
				` ${notes(32)}`,
				` ${notes(33)}`,
				` ${notes(34)}`,
				`-${notes(35)}`,
				"+note thirty-five",
				` ${notes(36)}`,
				` ${notes(37)}`,
				` ${notes(38)}`,
				"diff --git a/weights.bin b/weights.bin",
				`index ${blob(before)}..${blob(after)} 100644`,
				"--- a/weights.bin",
				"+++ b/weights.bin",
				"@@ -1,3 +1,3 @@",
				" version https://git-lfs.github.com/spec/v1",
				...before
					.split("\n")
					.slice(1, 3)
					.map((line) => `-${line}`),
				...after
					.split("\n")
					.slice(1, 3)
					.map((line) => `+${line}`),
				"",
			].join("\n"),
		);
		expect(ok(out.public_diff)).toBe(ok(out.diff));
	}, 300_000);

	it('takes transformers\' push_to_hub(create_pr=True), and from_pretrained(revision="refs/pr/1")', async () => {
		const out = await client<Outcomes>("transformers", {
			token: tokens.alice,
			repo: "alice/tiny-bert",
		});
		expect(ok(out.push)).toEqual({
			pr_url: `${hub.url}/alice/tiny-bert/discussions/1`,
			pr_revision: "refs/pr/1",
		});
		expect(ok(out.main_files)).toEqual([".gitattributes"]);
		expect(ok(out.pr_files)).toEqual([".gitattributes", "README.md", "config.json", "model.safetensors"]);
		expect(ok(out.loaded)).toBe(16);
		expect(out.merge).toEqual({ ok: null });
		expect(ok(out.main_after)).toEqual([".gitattributes", "README.md", "config.json", "model.safetensors"]);
	}, 300_000);
});

/**
 * The bounds of discussions (MODELHUB_DISCUSSION_MAX_COMMENT_BYTES, MODELHUB_DISCUSSIONS_PER_REPO,
 * MODELHUB_PR_DIFF_MAX_BYTES, MODELHUB_DISCUSSIONS_PAGE_SIZE), set small for a hub of their own, through
 * huggingface_hub 2.x: its HfHubHTTPError carries the 413 and the hub's message; get_repo_discussions walks
 * the pages itself.
 */
describe("discussion limits through huggingface_hub 2.x", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	const tokens: Record<string, string> = {};
	const limits = { maxCommentBytes: 100, maxPerRepo: 4, pageSize: 2, maxDiffBytes: 200 };

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-discussion-limits-"));
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, seed: false, adminToken: ADMIN, discussions: limits });
		for (const name of ["alice", "bob"]) tokens[name] = await createUser(hub.url, ADMIN, name);
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("refuses comments over the size limit and discussions over the cap with 413, cuts diffs, pages listings", async () => {
		// 100 bytes of UTF-8 in 50 characters: the limit counts bytes.
		const at = "é".repeat(50);
		const out = await runHubClient<Outcomes>(
			"limits",
			hub.url,
			join(dir, "client"),
			{
				token: tokens.alice,
				other_token: tokens.bob,
				repo: "alice/limits",
				before: { "a.txt": "old a\n", "b.txt": "old b\n" },
				after: { "a.txt": "new a\n", "b.txt": "new b\n" },
				at,
				over: `${at}x`,
				cap: limits.maxPerRepo,
			},
			{},
			SCRIPT,
		);
		expect(ok(out.pr)).toBe(1);

		// The diff stops before the file that would pass MODELHUB_PR_DIFF_MAX_BYTES (200): a.txt's section only.
		const diff = ok(out.diff) as string;
		expect(diff.startsWith("diff --git a/a.txt b/a.txt\n")).toBe(true);
		expect(diff).toContain("-old a\n+new a\n");
		expect(diff).not.toContain("b.txt");
		expect(Buffer.byteLength(diff)).toBeLessThanOrEqual(limits.maxDiffBytes);
		const details = await fetch(`${hub.url}/api/models/alice/limits/discussions/1?diff=1`);
		expect(details.status).toBe(200);
		expect(await details.json()).toMatchObject({ diff, diffTruncated: true });

		// A comment and a description one byte over: 413, huggingface_hub's HfHubHTTPError with the hub's message.
		for (const [key, field] of [
			["comment_over", "comment"],
			["description_over", "description"],
		] as const) {
			expect(failed(out[key]), key).toMatchObject({ error: "HfHubHTTPError", status: 413 });
			expect(failed(out[key]).message).toContain(
				`'${field}' is larger than 100 bytes (MODELHUB_DISCUSSION_MAX_COMMENT_BYTES)`,
			);
		}
		expect(ok(out.comment_at)).toBe(at);

		// The refused discussion took no number: the pull request and three discussions make the cap of 4.
		expect((out.opened as unknown as Attempt[]).map((attempt) => ok(attempt))).toEqual([2, 3, 4]);
		for (const key of ["discussion_over_cap", "pr_over_cap", "commit_pr_over_cap"]) {
			expect(failed(out[key]), key).toMatchObject({ error: "HfHubHTTPError", status: 413 });
			expect(failed(out[key]).message).toContain(
				"alice/limits has 4 discussions and pull requests, the most a repository may have (MODELHUB_DISCUSSIONS_PER_REPO)",
			);
		}

		// get_repo_discussions walks pages of 2 (p=0, 1; and p=0, 1 for the three discussions), newest first.
		expect(ok(out.listed)).toEqual([4, 3, 2, 1]);
		expect(ok(out.listed_discussions)).toEqual([4, 3, 2]);
		const page = async (query: string) => {
			const res = await fetch(`${hub.url}/api/models/alice/limits/discussions?${query}`);
			expect(res.status).toBe(200);
			const body = (await res.json()) as {
				discussions: Array<{ num: number }>;
				count: number;
				start: number;
			};
			return { nums: body.discussions.map((d) => d.num), count: body.count, start: body.start };
		};
		expect(await page("p=0")).toEqual({ nums: [4, 3], count: 4, start: 0 });
		expect(await page("p=1")).toEqual({ nums: [2, 1], count: 4, start: 2 });
		expect(await page("p=2")).toEqual({ nums: [], count: 4, start: 4 });
		expect(await page("p=1&type=discussion")).toEqual({ nums: [2], count: 3, start: 2 });
	}, 300_000);
});
