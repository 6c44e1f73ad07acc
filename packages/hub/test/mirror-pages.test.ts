// Mirror mode's browsing pages (issue 25): a page load of `/{id}/tree|blob|commits|commit/…` (and the same
// under `/datasets/…`) of a repository only the upstream has answers like a local repository's
// (test/browse.test.ts): 200 with the page's title when the upstream has the revision, folder, file or
// commit, 404 otherwise; a private local repository of the same id wins; with the upstream stopped, the
// pages whose answers were kept still answer, the others as before mirror mode (a 404 document).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ndjsonCommit } from "./support/git.js";
import { createRepo, createUser, type RunningHub } from "./support/hub.js";
import { startMirrorPair, type MirrorPair } from "./support/mirror.js";

const ADMIN = "mirror-pages-admin-token-0123456789";
const TEMPLATE = `<!doctype html><html><head><title>ModelHub</title></head><body><div id="root"></div></body></html>`;

describe("mirror mode: the browsing pages of a repository only the upstream has", () => {
	let pair: MirrorPair | undefined;
	let upstream: RunningHub;
	let downstream: RunningHub;
	let webDir: string;
	const commits: string[] = [];
	let datasetCommit: string;

	async function page(path: string): Promise<{ status: number; title: string | undefined }> {
		const res = await fetch(`${downstream.url}${path}`, { headers: { accept: "text/html" } });
		const html = await res.text();
		return { status: res.status, title: /<title>([^<]*)<\/title>/.exec(html)?.[1] };
	}

	beforeAll(async () => {
		webDir = mkdtempSync(join(tmpdir(), "mirror-pages-web-"));
		writeFileSync(join(webDir, "index.html"), TEMPLATE);
		pair = await startMirrorPair({ adminToken: ADMIN, downstream: { webDir } });
		({ upstream, downstream } = pair);
		const token = await createUser(upstream.url, ADMIN, "alice");
		const model = { api: "models", id: "alice/browsed" } as const;
		await createRepo(upstream, token, "browsed");
		commits.push(
			await ndjsonCommit(
				upstream.url,
				model,
				token,
				{ "README.md": "# Browsed\n", "config.json": '{"a":1}\n', "docs/old.txt": "old\n" },
				"Add the files",
			),
		);
		commits.push(
			await ndjsonCommit(
				upstream.url,
				model,
				token,
				{ "config.json": '{"a":2}\n', "docs/deep/new.txt": "new\n" },
				"Change config",
			),
		);
		await createRepo(upstream, token, "hidden", true);
		await ndjsonCommit(
			upstream.url,
			{ api: "models", id: "alice/hidden" },
			token,
			{ "s.txt": "s\n" },
			"Secret",
		);
		await createRepo(upstream, token, "shadowed");
		await ndjsonCommit(
			upstream.url,
			{ api: "models", id: "alice/shadowed" },
			token,
			{ "a.txt": "a\n" },
			"Up",
		);
		await createRepo(upstream, token, "rows", false, "dataset");
		datasetCommit = await ndjsonCommit(
			upstream.url,
			{ api: "datasets", id: "alice/rows" },
			token,
			{ "data/train.csv": "text,n\nfirst,1\n" },
			"Add rows",
		);
		// The downstream's own private repository of an id the upstream has too: local ones win.
		const local = await createUser(downstream.url, ADMIN, "alice");
		await createRepo(downstream, local, "shadowed", true);
	}, 120_000);

	afterAll(async () => {
		await pair?.close();
		rmSync(webDir, { recursive: true, force: true });
	});

	it("answers a model's and a dataset's pages 200 with a local repository's titles", async () => {
		const [first, second] = commits;
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
		expect(await page(`/alice/browsed/blob/${first}/docs/old.txt`)).toEqual({
			status: 200,
			title: `docs/old.txt · alice/browsed at ${first} · ModelHub`,
		});
		expect(await page("/alice/browsed/commits/main")).toEqual({
			status: 200,
			title: "Commits · alice/browsed at main · ModelHub",
		});
		expect(await page(`/alice/browsed/commit/${first}`)).toEqual({
			status: 200,
			title: `Add the files · alice/browsed@${first?.slice(0, 7)} · ModelHub`,
		});
		expect(await page("/alice/browsed/commit/main")).toEqual({
			status: 200,
			title: `Change config · alice/browsed@${second?.slice(0, 7)} · ModelHub`,
		});
		expect(await page("/datasets/alice/rows/tree/main/data")).toEqual({
			status: 200,
			title: "data · alice/rows at main · ModelHub",
		});
		expect(await page("/datasets/alice/rows/blob/main/data/train.csv")).toEqual({
			status: 200,
			title: "data/train.csv · alice/rows at main · ModelHub",
		});
		expect(await page("/datasets/alice/rows/commits/main")).toEqual({
			status: 200,
			title: "Commits · alice/rows at main · ModelHub",
		});
		expect(await page(`/datasets/alice/rows/commit/${datasetCommit}`)).toEqual({
			status: 200,
			title: `Add rows · alice/rows@${datasetCommit.slice(0, 7)} · ModelHub`,
		});
	});

	it("answers 404 for missing revisions, folders, files and commits, private upstream and shadowed repositories", async () => {
		const missing = [
			"/alice/browsed/tree/no-such-branch",
			"/alice/browsed/tree/main/no-such-folder",
			"/alice/browsed/tree/main/config.json",
			// At the first commit, the file of the second is missing.
			`/alice/browsed/blob/${commits[0]}/docs/deep/new.txt`,
			`/alice/browsed/tree/${commits[0]}/docs/deep`,
			"/alice/browsed/blob/main/docs",
			"/alice/browsed/blob/main/nope.txt",
			"/alice/browsed/commits/nope",
			`/alice/browsed/commit/${"0".repeat(40)}`,
			"/alice/nobody/tree/main",
			"/alice/hidden/tree/main",
			"/alice/hidden/blob/main/s.txt",
			"/alice/hidden/commits/main",
			"/alice/shadowed/tree/main",
			"/alice/shadowed/blob/main/a.txt",
			"/alice/shadowed/commits/main",
			"/datasets/alice/rows/blob/main/data/nope.csv",
			"/datasets/alice/rows/commits/nope",
			"/datasets/alice/browsed/tree/main",
			// Discussions are not mirrored: the Community tab of a mirrored repository has none here.
			"/alice/browsed/discussions",
		];
		for (const path of missing) expect((await page(path)).status, path).toBe(404);
		expect((await fetch(`${downstream.url}/api/models/alice/browsed/discussions`)).status).toBe(404);
		expect((await page("/alice/browsed/blob/main/nope.txt")).title).toBe("File not found · ModelHub");
		expect((await page("/alice/browsed/commits/nope")).title).toBe("Revision not found · ModelHub");
	});

	it("with the upstream stopped, answers the pages it kept and sends the others as 404 documents", async () => {
		expect((await page("/alice/browsed/blob/main/README.md")).status).toBe(200);
		await upstream.close();
		expect(await page("/alice/browsed/blob/main/README.md")).toEqual({
			status: 200,
			title: "README.md · alice/browsed at main · ModelHub",
		});
		expect((await page("/alice/browsed/blob/main/docs/deep/new.txt")).status).toBe(404);
	});
});
