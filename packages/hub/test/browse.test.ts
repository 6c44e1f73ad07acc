import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RepoCommitDetail } from "../src/api/repos.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";

/**
 * The browsing pages' server side (issue 22): `GET /api/models/{id}/commit/{rev}` (a commit and the
 * files it changed) and the status and title of `/{id}/tree|blob|commits|commit/…` page loads,
 * 404 for missing models, revisions, paths and commits, and for a private model's pages.
 */
const ADMIN = "browse-admin-token-0123456789abcdef";
const TEMPLATE = `<!doctype html><html><head><title>ModelHub</title></head><body><div id="root"></div></body></html>`;

describe("repository browsing", () => {
	let db: Database;
	let hub: RunningHub;
	let webDir: string;
	let token: string;
	const commits: string[] = [];

	async function commit(
		repo: string,
		summary: string,
		operations: Array<{ key: string; value: Record<string, unknown> }>,
	): Promise<string> {
		const body = [{ key: "header", value: { summary, description: `${summary}, in detail` } }, ...operations]
			.map((line) => JSON.stringify(line))
			.join("\n");
		const res = await fetch(`${hub.url}/api/models/${repo}/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
			body,
		});
		const answer = (await res.json()) as { commitOid: string };
		expect(res.status, JSON.stringify(answer)).toBe(200);
		return answer.commitOid;
	}

	const file = (path: string, text: string) => ({
		key: "file",
		value: { path, encoding: "base64", content: Buffer.from(text).toString("base64") },
	});

	async function page(path: string): Promise<{ status: number; title: string | undefined }> {
		const res = await fetch(`${hub.url}${path}`, { headers: { accept: "text/html" } });
		const html = await res.text();
		return { status: res.status, title: /<title>([^<]*)<\/title>/.exec(html)?.[1] };
	}

	beforeAll(async () => {
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		webDir = mkdtempSync(join(tmpdir(), "browse-web-"));
		writeFileSync(join(webDir, "index.html"), TEMPLATE);
		hub = await startHub({ db, seed: false, adminToken: ADMIN, webDir });
		token = await createUser(hub.url, ADMIN, "alice");
		for (const [name, isPrivate] of [
			["browsed", false],
			["hidden", true],
		] as const) {
			const res = await fetch(`${hub.url}/api/repos/create`, {
				method: "POST",
				headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
				body: JSON.stringify({ name, private: isPrivate }),
			});
			expect(res.status).toBe(200);
		}
		// Many files in one folder, so a later one-file commit's diff must skip the unchanged folders.
		commits.push(
			await commit("alice/browsed", "Add the files", [
				file("README.md", "# Browsed\n"),
				file("config.json", '{"a":1}\n'),
				file("docs/old.txt", "old\n"),
				...Array.from({ length: 40 }, (_, index) => file(`many/file-${index}.txt`, `${index}\n`)),
			]),
		);
		commits.push(
			await commit("alice/browsed", "Change config, move a doc", [
				file("config.json", '{"a":2}\n'),
				file("docs/deep/new.txt", "new\n"),
				{ key: "deletedFile", value: { path: "docs/old.txt" } },
			]),
		);
		await commit("alice/hidden", "Secret", [file("secret.txt", "s\n")]);
	}, 60_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		rmSync(webDir, { recursive: true, force: true });
	});

	it("answers a commit with its parent and the files it added, modified and deleted", async () => {
		const res = await fetch(`${hub.url}/api/models/alice/browsed/commit/${commits[1]}`);
		expect(res.status).toBe(200);
		const detail = (await res.json()) as RepoCommitDetail;
		expect(detail).toMatchObject({
			id: commits[1],
			title: "Change config, move a doc",
			message: "Change config, move a doc, in detail",
			authors: [{ user: "alice" }],
			parents: [commits[0]],
			filesTruncated: false,
		});
		expect(detail.files.map((change) => [change.path, change.status])).toEqual([
			["config.json", "modified"],
			["docs/deep/new.txt", "added"],
			["docs/old.txt", "deleted"],
		]);
		const config = detail.files[0];
		expect(config?.before?.size).toBe(8);
		expect(config?.before?.oid).not.toBe(config?.after?.oid);
		// A branch name is a revision too: main is the latest commit.
		const byBranch = (await (
			await fetch(`${hub.url}/api/models/alice/browsed/commit/main`)
		).json()) as RepoCommitDetail;
		expect(byBranch.id).toBe(commits[1]);
	});

	it("lists every file of a first commit as added, and only the added ones of the next", async () => {
		const history = (await (
			await fetch(`${hub.url}/api/models/alice/browsed/commits/main`)
		).json()) as Array<{
			id: string;
		}>;
		const first = history[history.length - 1]?.id;
		expect(history.length).toBe(3);
		const initial = (await (
			await fetch(`${hub.url}/api/models/alice/browsed/commit/${first}`)
		).json()) as RepoCommitDetail;
		expect(initial.parents).toEqual([]);
		expect(initial.files.map((change) => [change.path, change.status])).toEqual([
			[".gitattributes", "added"],
		]);
		const detail = (await (
			await fetch(`${hub.url}/api/models/alice/browsed/commit/${commits[0]}`)
		).json()) as RepoCommitDetail;
		expect(detail.parents).toEqual([first]);
		expect(detail.files.length).toBe(43);
		expect(new Set(detail.files.map((change) => change.status))).toEqual(new Set(["added"]));
		// In path order (byte order, as the tree API lists them).
		const paths = detail.files.map((change) => change.path);
		expect(paths).toEqual([...paths].sort());
	});

	it("pages a commit of more than 1000 files in path order, each page linking the next, none cut off", async () => {
		const res = await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "wide" }),
		});
		expect(res.status).toBe(200);
		// Nested folders and names around "/" in code-point order ("a-b" < "a/…" < "a0"), 2,005 files in all.
		const paths = [
			"a-b.txt",
			"a0.txt",
			...Array.from({ length: 1000 }, (_, index) => `a/${String(index).padStart(4, "0")}.txt`),
			...Array.from({ length: 1000 }, (_, index) => `z/deep/${index}.txt`),
			"b.txt",
			"a/sub/x.txt",
			"README.md",
		];
		const id = await commit(
			"alice/wide",
			"Many files",
			paths.map((path) => file(path, `${path}\n`)),
		);
		const seen: string[] = [];
		let url: string | undefined = `${hub.url}/api/models/alice/wide/commit/${id}`;
		const pages: number[] = [];
		while (url) {
			const answer: Response = await fetch(url);
			expect(answer.status).toBe(200);
			const detail = (await answer.json()) as RepoCommitDetail;
			pages.push(detail.files.length);
			seen.push(...detail.files.map((change) => change.path));
			const next: string | undefined = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get("link") ?? "")?.[1];
			expect(detail.filesTruncated).toBe(next !== undefined);
			url = next ? `${hub.url}${new URL(next).pathname}${new URL(next).search}` : undefined;
		}
		expect(pages).toEqual([1000, 1000, 5]);
		const byCodePoint = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
		expect(seen).toEqual([...paths].sort(byCodePoint));
		// A bad cursor is a clear 400.
		const bad = await fetch(`${hub.url}/api/models/alice/wide/commit/${id}?cursor=${"x".repeat(5000)}`);
		expect(bad.status).toBe(400);
		expect(((await bad.json()) as { error: string }).error).toContain("cursor");
	}, 120_000);

	it("answers 404 for an unknown commit and for a private model's commit to others", async () => {
		const unknown = await fetch(`${hub.url}/api/models/alice/browsed/commit/${"0".repeat(40)}`);
		expect(unknown.status).toBe(404);
		const hidden = await fetch(`${hub.url}/api/models/alice/hidden/commit/main`);
		expect(hidden.status).toBe(404);
		const own = await fetch(`${hub.url}/api/models/alice/hidden/commit/main`, {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(own.status).toBe(200);
	});

	it("answers browsing pages 200 with their titles", async () => {
		expect(await page("/alice/browsed/tree/main")).toEqual({
			status: 200,
			title: "alice/browsed at main · ModelHub",
		});
		expect(await page("/alice/browsed/tree/main/docs/deep")).toEqual({
			status: 200,
			title: "docs/deep · alice/browsed at main · ModelHub",
		});
		expect(await page("/alice/browsed/blob/main/config.json")).toEqual({
			status: 200,
			title: "config.json · alice/browsed at main · ModelHub",
		});
		expect(await page(`/alice/browsed/blob/${commits[0]}/docs/old.txt`)).toEqual({
			status: 200,
			title: `docs/old.txt · alice/browsed at ${commits[0]} · ModelHub`,
		});
		expect(await page("/alice/browsed/commits/main")).toEqual({
			status: 200,
			title: "Commits · alice/browsed at main · ModelHub",
		});
		expect(await page(`/alice/browsed/commit/${commits[1]}`)).toEqual({
			status: 200,
			title: `Change config, move a doc · alice/browsed@${commits[1]?.slice(0, 7)} · ModelHub`,
		});
	});

	it("answers 404 for missing models, revisions, folders, files and commits, and a private model's pages", async () => {
		const missing = [
			"/alice/nobody/tree/main",
			"/alice/browsed/tree/no-such-branch",
			"/alice/browsed/tree/main/no-such-folder",
			"/alice/browsed/tree/main/config.json",
			"/alice/browsed/blob/main/docs/old.txt",
			"/alice/browsed/blob/main/docs",
			"/alice/browsed/blob/main",
			"/alice/browsed/commits/nope",
			`/alice/browsed/commit/${"0".repeat(40)}`,
			"/alice/browsed/commits/main/extra",
			"/alice/hidden/tree/main",
			"/alice/hidden/blob/main/secret.txt",
			"/alice/hidden/commits/main",
			"/alice/hidden/commit/main",
			"/tasks/x/tree/main",
		];
		for (const path of missing) expect((await page(path)).status, path).toBe(404);
		expect((await page("/alice/browsed/blob/main/nope.txt")).title).toBe("File not found · ModelHub");
		expect((await page("/alice/hidden/commit/main")).title).toBe("Commit not found · ModelHub");
	});

	it("answers the Community tab's pages (`/discussions`, `/discussions/{num}`, `…/files`) with their titles, 404 otherwise", async () => {
		const open = async (repo: string, title: string, pullRequest: boolean) => {
			const res = await fetch(`${hub.url}/api/models/${repo}/discussions`, {
				method: "POST",
				headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
				body: JSON.stringify({ title, description: "Details", pullRequest }),
			});
			expect(res.status).toBe(200);
			return ((await res.json()) as { num: number }).num;
		};
		const question = await open("alice/browsed", "A question <about> it", false);
		const change = await open("alice/browsed", "A change", true);
		const secret = await open("alice/hidden", "Secret plans", false);
		expect(await page("/alice/browsed/discussions")).toEqual({
			status: 200,
			title: "Discussions · alice/browsed · ModelHub",
		});
		expect(await page(`/alice/browsed/discussions/${question}`)).toEqual({
			status: 200,
			title: `A question &#60;about&#62; it #${question} · alice/browsed · ModelHub`,
		});
		expect(await page(`/Alice/Browsed/discussions/${change}/files`)).toEqual({
			status: 200,
			title: `Files changed · A change #${change} · alice/browsed · ModelHub`,
		});
		const missing = [
			"/alice/nobody/discussions",
			"/alice/browsed/discussions/99",
			"/alice/browsed/discussions/0",
			"/alice/browsed/discussions/x",
			`/alice/browsed/discussions/${question}/files`,
			`/alice/browsed/discussions/${change}/other`,
			"/alice/hidden/discussions",
			`/alice/hidden/discussions/${secret}`,
			"/datasets/alice/browsed/discussions",
		];
		for (const path of missing) expect((await page(path)).status, path).toBe(404);
		expect((await page(`/alice/hidden/discussions/${secret}`)).title).toBe("Discussion not found · ModelHub");
		expect((await page(`/alice/browsed/discussions/${question}/files`)).title).toBe(
			"Pull request not found · ModelHub",
		);
	});

	it("answers a namespace-less repository's Community tab at `/{name}/discussions`, page and API; its words are no repository names", async () => {
		const create = (body: Record<string, unknown>, as: string) =>
			fetch(`${hub.url}/api/repos/create`, {
				method: "POST",
				headers: { authorization: `Bearer ${as}`, "content-type": "application/json" },
				body: JSON.stringify(body),
			});
		expect((await create({ name: "legacy" }, ADMIN)).status).toBe(200);
		expect((await create({ name: "legacy-data", type: "dataset" }, ADMIN)).status).toBe(200);
		for (const [name, as] of [
			["discussions", token],
			["Tree", token],
			["settings", ADMIN],
		] as const) {
			const res = await create({ name, type: "dataset" }, as);
			expect(res.status, name).toBe(400);
			expect(((await res.json()) as { error: string }).error).toContain(
				`repository name '${name}' is reserved`,
			);
		}
		for (const [api, page_] of [
			["/api/models/legacy", "/legacy"],
			["/api/datasets/legacy-data", "/datasets/legacy-data"],
		] as const) {
			const opened = await fetch(`${hub.url}${api}/discussions`, {
				method: "POST",
				headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
				body: JSON.stringify({ title: "Old model", description: "Still works?" }),
			});
			expect(opened.status).toBe(200);
			const { num } = (await opened.json()) as { num: number };
			const listed = (await (await fetch(`${hub.url}${api}/discussions`)).json()) as {
				discussions: Array<{ num: number; title: string }>;
			};
			expect(listed.discussions.map((d) => [d.num, d.title])).toEqual([[num, "Old model"]]);
			const one = (await (await fetch(`${hub.url}${api}/discussions/${num}`)).json()) as { title: string };
			expect(one.title).toBe("Old model");
			const id = page_.replace(/^\/(datasets\/)?/, "");
			expect(await page(`${page_}/discussions`)).toEqual({
				status: 200,
				title: `Discussions · ${id} · ModelHub`,
			});
			expect(await page(`${page_}/discussions/${num}`)).toEqual({
				status: 200,
				title: `Old model #${num} · ${id} · ModelHub`,
			});
			expect(await page(page_)).toEqual({ status: 200, title: `${id} · ModelHub` });
		}
		expect(await page("/nobody/discussions")).toEqual({
			status: 404,
			title: "Repository not found · ModelHub",
		});
		expect((await fetch(`${hub.url}/api/models/nobody/discussions`)).status).toBe(404);
	});
});
