import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MirrorCacheStats, MirrorPrefetchProgress } from "../src/api/admin.js";
import { mirrorHubAnswers, runMirrorCommand, runRemotePrefetch } from "../src/commands/mirror.js";
import { DEFAULT_UPSTREAM_SETTINGS } from "../src/mirror/settings.js";
import { bytes } from "./support/hf-client-suite.js";
import { createUser, type RunningHub } from "./support/hub.js";
import { startMirrorPair, type MirrorPair } from "./support/mirror.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "mirror-cache-admin-token-0123456789";
/** Each repository's one file; the budget holds two of them. */
const FILE_BYTES = 40_000;
const BUDGET = 100_000;
const MAX_FILE_BYTES = 1024 * 1024 * 1024;

/**
 * Mirror mode's cache budget (MODELHUB_MIRROR_CACHE_BYTES), its pins, statistics and the prefetch
 * command: an upstream hub and a downstream one, the real huggingface_hub downloading through it.
 */
describe("mirror cache: a byte budget with least-recently-used eviction, pins, stats, prefetch", () => {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-mirror-cache-"));
	let pair: MirrorPair;
	let upstream: RunningHub;
	let downstream: RunningHub;
	const content = new Map<string, Buffer>();
	const sha = (repo: string): string =>
		createHash("sha256")
			.update(content.get(repo) ?? "")
			.digest("hex");
	const admin = { authorization: `Bearer ${ADMIN}` };

	async function stats(): Promise<MirrorCacheStats> {
		const res = await fetch(`${downstream.url}/api/admin/mirror`, { headers: admin });
		expect(res.status).toBe(200);
		return (await res.json()) as MirrorCacheStats;
	}

	/**
	 * The statistics once they match: a file is stored (and the budget enforced) just after its client
	 * has it all, so the client's exit may come first.
	 */
	async function statsReaching(expected: Partial<MirrorCacheStats>): Promise<MirrorCacheStats> {
		return vi.waitFor(
			async () => {
				const now = await stats();
				expect(now).toMatchObject(expected);
				return now;
			},
			{ timeout: 10_000, interval: 50 },
		);
	}

	async function download(...repos: string[]): Promise<string[]> {
		const result = await runHubClient<{ sha256: string[] }>(
			"download",
			downstream.url,
			join(dir, `client-${Math.random().toString(36).slice(2)}`),
			{ downloads: repos.map((repo) => [repo, "data.txt"]) },
			{},
			"hf_hub_mirror_cache.py",
		);
		return result.sha256;
	}

	beforeAll(async () => {
		pair = await startMirrorPair({
			adminToken: ADMIN,
			downstream: { maxFileBytes: MAX_FILE_BYTES },
			settings: {
				cacheBytes: BUDGET,
				outbound: { ...DEFAULT_UPSTREAM_SETTINGS.outbound, timeoutMs: 5000, retries: 0 },
			},
		});
		({ upstream, downstream } = pair);
		const token = await createUser(upstream.url, ADMIN, "alice");
		const headers = { authorization: `Bearer ${token}` };
		for (const [index, name] of ["keep", "a", "b", "c", "d"].entries()) {
			const repo = `alice/${name}`;
			const data = bytes(FILE_BYTES, 100 + index);
			content.set(repo, data);
			const created = await fetch(`${upstream.url}/api/repos/create`, {
				method: "POST",
				headers: { ...headers, "content-type": "application/json" },
				body: JSON.stringify({ name }),
			});
			expect(created.status).toBe(200);
			const committed = await fetch(`${upstream.url}/api/models/${repo}/commit/main`, {
				method: "POST",
				headers: { ...headers, "content-type": "application/x-ndjson" },
				body: [
					{ key: "header", value: { summary: "data" } },
					{ key: "file", value: { path: "data.txt", encoding: "base64", content: data.toString("base64") } },
				]
					.map((line) => JSON.stringify(line))
					.join("\n"),
			});
			expect(committed.status).toBe(200);
		}
	}, 120_000);

	afterAll(async () => {
		await pair?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it("evicts the file served longest ago past the budget, never a pinned repository's, and fetches it again on demand", async () => {
		const pinned = await fetch(`${downstream.url}/api/admin/mirror/pins`, {
			method: "PUT",
			headers: { ...admin, "content-type": "application/json" },
			body: JSON.stringify({ repo: "alice/keep", pinned: true }),
		});
		expect(pinned.status).toBe(200);
		expect(((await pinned.json()) as MirrorCacheStats).pinned).toEqual([{ type: "model", id: "alice/keep" }]);

		// keep (pinned, the oldest) and a fit; b passes the budget: a goes, keep stays.
		expect(await download("alice/keep", "alice/a")).toEqual([sha("alice/keep"), sha("alice/a")]);
		await statsReaching({ files: 2, evictions: 0 });
		expect(await download("alice/b")).toEqual([sha("alice/b")]);
		await statsReaching({
			budgetBytes: BUDGET,
			usedBytes: 2 * FILE_BYTES,
			files: 2,
			repos: 2,
			evictions: 1,
			evictedBytes: FILE_BYTES,
			upstreamFetches: 3,
			misses: 3,
		});
		expect(await downstream.storage.stat(sha("alice/a"))).toBeUndefined();
		expect(await downstream.storage.stat(sha("alice/keep"))).toEqual({ size: FILE_BYTES });
		expect(await downstream.storage.stat(sha("alice/b"))).toEqual({ size: FILE_BYTES });

		// a again: fetched again, whole and right; b is now the least recently used one.
		expect(await download("alice/a")).toEqual([sha("alice/a")]);
		await statsReaching({ upstreamFetches: 4, evictions: 2, usedBytes: 2 * FILE_BYTES });
		expect(await downstream.storage.stat(sha("alice/b"))).toBeUndefined();
		expect(await downstream.storage.stat(sha("alice/keep"))).toEqual({ size: FILE_BYTES });

		// The pinned file is served from storage: a hit, no upstream fetch.
		expect(await download("alice/keep")).toEqual([sha("alice/keep")]);
		await statsReaching({ upstreamFetches: 4, hits: 1, evictions: 2 });
	}, 180_000);

	it("says in a mirrored repository's info where it comes from (mirroredFrom, for the web's badge)", async () => {
		const info = (await (await fetch(`${downstream.url}/api/models/alice/b`)).json()) as Record<
			string,
			unknown
		>;
		expect(info).toMatchObject({ id: "alice/b", mirroredFrom: upstream.url });
		const atRevision = await fetch(`${downstream.url}/api/models/alice/b/revision/main`);
		expect(((await atRevision.json()) as Record<string, unknown>).mirroredFrom).toBe(upstream.url);
		// The upstream's own answer has no such field: it is this hub's.
		const own = (await (await fetch(`${upstream.url}/api/models/alice/b`)).json()) as Record<string, unknown>;
		expect(own.mirroredFrom).toBeUndefined();
	});

	it("refuses the statistics and pins to non-admins, and bad pin requests with a clear message", async () => {
		expect((await fetch(`${downstream.url}/api/admin/mirror`)).status).toBe(401);
		const bad = await fetch(`${downstream.url}/api/admin/mirror/pins`, {
			method: "PUT",
			headers: { ...admin, "content-type": "application/json" },
			body: JSON.stringify({ repo: "../etc", pinned: true }),
		});
		expect(bad.status).toBe(400);
		expect(((await bad.json()) as { error: string }).error).toContain("'repo' is a repository id");
	});

	it("prefetches every file of a revision (the mirror prefetch command), then finds them cached", async () => {
		const run = (...args: string[]) =>
			runMirrorCommand(pair.downstreamDb, downstream.storage, pair.settings, MAX_FILE_BYTES, [
				"prefetch",
				...args,
			]);
		const first = await run("--concurrency", "2", "alice/c");
		expect(first.exitCode).toBe(0);
		expect(first.text).toMatch(
			/^alice\/c@main \([0-9a-f]{12}\): (\d+) files, \1 fetched \(\d+ bytes\), 0 already cached, complete$/m,
		);
		expect(first.text).toContain("Prefetched 1 repository: 1 complete, 0 failed.");
		expect(await downstream.storage.stat(sha("alice/c"))).toEqual({ size: FILE_BYTES });

		const again = await run("alice/c@main", "alice/never-there");
		expect(again.exitCode).toBe(1);
		expect(again.text).toMatch(
			/^alice\/c@main \([0-9a-f]{12}\): (\d+) files, 0 fetched \(0 bytes\), \1 already cached, complete$/m,
		);
		expect(again.text).toMatch(/^alice\/never-there@main: failed: /m);
		expect(again.text).toContain("Prefetched 2 repositories: 1 complete, 1 failed.");

		// The downstream hub serves the prefetched file without asking the upstream for its bytes.
		const before = await stats();
		expect(await download("alice/c")).toEqual([sha("alice/c")]);
		await statsReaching({ upstreamFetches: before.upstreamFetches, hits: before.hits + 1 });

		await expect(run("not a repo")).rejects.toThrow("is not REPO or REPO@REVISION");
		await expect(run("--concurrency", "99", "alice/c")).rejects.toThrow(
			"--concurrency is a number from 1 to 32",
		);
	}, 120_000);

	it("prefetches through the running hub (the admin route, and the CLI using it), bounded by a byte limit", async () => {
		const post = (body: unknown) =>
			fetch(`${downstream.url}/api/admin/mirror/prefetch`, {
				method: "POST",
				headers: { ...admin, "content-type": "application/json" },
				body: JSON.stringify(body),
			});
		const done = (id: string) =>
			vi.waitFor(
				async () => {
					const res = await fetch(`${downstream.url}/api/admin/mirror/prefetch/${id}`, { headers: admin });
					const progress = (await res.json()) as MirrorPrefetchProgress;
					expect(["complete", "failed"]).toContain(progress.state);
					return progress;
				},
				{ timeout: 20_000, interval: 50 },
			);
		// Over the asked limit: sized, refused, nothing fetched.
		const limited = await post({ repo: "alice/d", maxBytes: 10 });
		expect(limited.status).toBe(202);
		const refused = await done(((await limited.json()) as MirrorPrefetchProgress).id);
		expect(refused).toMatchObject({ state: "failed", maxBytes: 10, fetched: 0 });
		// data.txt, and .gitattributes unless an earlier case cached its bytes (the same in every repository).
		expect(refused.bytesToFetch).toBeGreaterThanOrEqual(FILE_BYTES);
		expect(refused.error).toContain("more than this prefetch's limit of 10");
		expect(await downstream.storage.stat(sha("alice/d"))).toBeUndefined();

		// The CLI finds the running hub (and none where nothing listens); a wrong token is an error.
		expect(await mirrorHubAnswers(downstream.url, ADMIN)).toBe(true);
		expect(await mirrorHubAnswers("http://127.0.0.1:9", ADMIN)).toBe(false);
		await expect(mirrorHubAnswers(downstream.url, "wrong-token")).rejects.toThrow(
			/\/api\/admin\/mirror answered 40[13]: is the hub there in mirror mode with this MODELHUB_ADMIN_TOKEN/,
		);
		// The CLI's path through the running hub: POST, then its progress until done.
		const outcome = await runRemotePrefetch(
			downstream.url,
			ADMIN,
			["prefetch", "--concurrency", "2", "alice/d"],
			50,
		);
		expect(outcome.exitCode).toBe(0);
		expect(outcome.text).toMatch(
			new RegExp(
				`^alice/d@main \\([0-9a-f]{12}\\): 2 files, \\d fetched \\(${refused.bytesToFetch} bytes\\), \\d already cached, complete$`,
				"m",
			),
		);
		expect(await downstream.storage.stat(sha("alice/d"))).toEqual({ size: FILE_BYTES });
		const listed = await fetch(`${downstream.url}/api/admin/mirror/prefetch`, { headers: admin });
		const { prefetches } = (await listed.json()) as { prefetches: MirrorPrefetchProgress[] };
		expect(prefetches.map((entry) => entry.state)).toEqual(["complete", "failed"]);
		expect(prefetches[0]).toMatchObject({ repo: "alice/d", revision: "main", files: 2, failures: 0 });

		// Bad requests, a missing one, and no admin token.
		const bad = await post({ repo: "alice/d", concurrency: 99 });
		expect(bad.status).toBe(400);
		expect(((await bad.json()) as { error: string }).error).toContain(
			"'concurrency' is a number from 1 to 32",
		);
		expect((await post({ repo: "../d" })).status).toBe(400);
		expect((await post({ repo: "alice/d", maxBytes: -1 })).status).toBe(400);
		expect((await fetch(`${downstream.url}/api/admin/mirror/prefetch/nope`, { headers: admin })).status).toBe(
			404,
		);
		expect((await fetch(`${downstream.url}/api/admin/mirror/prefetch`, { method: "POST" })).status).toBe(401);
	}, 120_000);
});
