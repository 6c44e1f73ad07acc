// Files uploaded through Xet with the real hf_xet client are kept as their recipes and served from
// their xorbs (issue 21: every Xet upload wrote a second full copy of each file): hf_hub_download gets
// the same bytes, a range in the middle of a file made of two xorbs is read from the chunk that holds
// it, the collector keeps the xorbs a file reads, and the bytes stored are those of the xorbs alone.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { DEFAULT_GC_SETTINGS } from "../src/config.js";
import { CLI_ACTOR } from "../src/services/actor.js";
import { collectGarbage } from "../src/services/gc.js";
import { bytes } from "./support/hf-client-suite.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "xet-files-admin-token-0123456789abcdef";
const MIB = 1024 * 1024;

function sha(data: Buffer): string {
	return createHash("sha256").update(data).digest("hex");
}

let db: Database;
let hub: RunningHub;
let dir: string;
let token: string;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "modelhub-xet-files-"));
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({ db, seed: false, adminToken: ADMIN });
	token = await createUser(hub.url, ADMIN, "xavier");
	const created = await fetch(`${hub.url}/api/repos/create`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
		body: JSON.stringify({ name: "recipes" }),
	});
	expect(created.status).toBe(200);
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

async function upload(
	name: string,
	content: Buffer,
	session: string,
	env: Record<string, string> = {},
): Promise<void> {
	const path = join(dir, name);
	writeFileSync(path, content);
	const out = await runHubClient<{ result: { ok?: string } }>(
		"upload_path",
		hub.url,
		join(dir, session),
		{ token, repo: "xavier/recipes", path },
		env,
		"hf_hub_sharing.py",
	);
	expect(out.result.ok, JSON.stringify(out)).toMatch(/^[0-9a-f]{40}$/);
}

/** The bytes the file store holds, in all. */
async function storedBytes(): Promise<number> {
	let total = 0;
	for await (const blob of hub.storage.list()) total += blob.size;
	return total;
}

async function download(path: string, range?: string): Promise<{ status: number; body: Buffer }> {
	const res = await fetch(`${hub.url}/xavier/recipes/resolve/main/${path}`, {
		headers: range ? { range } : {},
	});
	return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

describe("Xet files kept as recipes", () => {
	const first = bytes(3 * MIB + 11, 61);
	// Its first 3 MiB are the first file's: hf_xet's local shard cache (same HF_HOME) makes them a term
	// of the first upload's xorb, and the rest a term of a new xorb.
	const second = Buffer.concat([first, bytes(2 * MIB + 5, 62)]);
	let boundary: number;

	beforeAll(async () => {
		await upload("first.bin", first, "session");
		await upload("second.bin", second, "session");
	}, 120_000);

	it("writes no second copy of the files: the store holds their xorbs (~1x), the quota their sizes", async () => {
		const terms = await db.query<{ xorb_sha256: string; file_offset: string | number }>(
			"SELECT xorb_sha256, file_offset FROM xet_file_terms WHERE file_sha256 = $1 ORDER BY position",
			[sha(second)],
		);
		expect(new Set(terms.rows.map((row) => row.xorb_sha256)).size).toBe(2);
		boundary = Number(terms.rows[1]?.file_offset);
		expect(boundary).toBeGreaterThan(MIB);
		expect(await hub.storage.stat(sha(first))).toBeUndefined();
		expect(await hub.storage.stat(sha(second))).toBeUndefined();
		// Random bytes do not compress: the xorbs hold the distinct bytes once, plus chunk headers.
		const distinct = second.length;
		const stored = await storedBytes();
		expect(stored).toBeGreaterThanOrEqual(distinct);
		expect(stored).toBeLessThan(distinct * 1.05);
		const usage = (await (
			await fetch(`${hub.url}/api/accounts/xavier/storage`, { headers: { authorization: `Bearer ${token}` } })
		).json()) as { usedBytes: number };
		// The files' own sizes (and the repository's small .gitattributes).
		expect(usage.usedBytes).toBeGreaterThanOrEqual(first.length + second.length);
		expect(usage.usedBytes).toBeLessThan(first.length + second.length + 10_000);
	});

	it("serves the same bytes to hf_hub_download and snapshot_download", async () => {
		const out = await runHubClient<{ files: Record<string, string>; local_dir: Record<string, string> }>(
			"download",
			hub.url,
			join(dir, "download"),
			{ token, repo: "xavier/recipes", cache_dir: join(dir, "cache"), work_dir: join(dir, "download") },
			{},
			"hf_hub_sharing.py",
		);
		expect(out.files["first.bin"]).toBe(sha(first));
		expect(out.files["second.bin"]).toBe(sha(second));
	}, 120_000);

	it("answers ranges from the chunks that hold them, across the xorbs' boundary too", async () => {
		for (const [start, end] of [
			[boundary - 1000, boundary + 1000],
			[boundary + 70_000, boundary + 70_001],
			[12_345, 2 * MIB + 777],
			[second.length - 10, second.length - 1],
		] as const) {
			const got = await download("second.bin", `bytes=${start}-${end}`);
			expect(got.status).toBe(206);
			expect(got.body.equals(second.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
		}
		const suffix = await download("first.bin", "bytes=-100");
		expect(suffix.body.equals(first.subarray(first.length - 100))).toBe(true);
		expect(sha((await download("second.bin")).body)).toBe(sha(second));
	});

	it("marks the files kept as recipes in the tree answer (xetStored), not a file uploaded through LFS", async () => {
		await upload("plain-lfs.bin", bytes(MIB + 3, 63), "lfs-session", { HF_HUB_DISABLE_XET: "1" });
		const marks = (entries: Array<{ path: string; lfs?: unknown; xetStored?: unknown }>) =>
			Object.fromEntries(
				entries.map((entry) => [entry.path, [entry.lfs !== undefined, entry.xetStored ?? null]]),
			);
		const expected = {
			".gitattributes": [false, null],
			"first.bin": [true, true],
			"second.bin": [true, true],
			"plain-lfs.bin": [true, null],
		};
		for (const query of ["", "?expand=true"]) {
			const tree = await fetch(`${hub.url}/api/models/xavier/recipes/tree/main${query}`);
			expect(tree.status).toBe(200);
			expect(marks((await tree.json()) as never), query).toEqual(expected);
		}
		const info = await fetch(`${hub.url}/api/models/xavier/recipes/paths-info/main`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ paths: ["first.bin", "plain-lfs.bin"] }),
		});
		expect(marks((await info.json()) as never)).toEqual({
			"first.bin": [true, true],
			"plain-lfs.bin": [true, null],
		});
	}, 120_000);

	it("keeps the xorbs files read from past their age (dry run and real run), and reclaims them with the files", async () => {
		const eager = { ...DEFAULT_GC_SETTINGS, graceMs: 0, uploadMaxAgeMs: 0, xorbMaxAgeMs: 0 };
		const context = { db, storage: hub.storage };
		const before = await storedBytes();
		const dry = await collectGarbage(context, CLI_ACTOR, { dryRun: true, settings: eager });
		expect(dry.expiredXorbs.count).toBe(0);
		expect(dry.unreferencedBlobs.count).toBe(0);
		expect(dry.orphanedObjects.count).toBe(0);
		const real = await collectGarbage(context, CLI_ACTOR, { dryRun: false, settings: eager });
		expect(real.reclaimedBytes).toBe(0);
		expect(await storedBytes()).toBe(before);
		expect(sha((await download("second.bin")).body)).toBe(sha(second));

		// The repository deleted: its files go, then (their recipes gone with them) their xorbs.
		const deleted = await fetch(`${hub.url}/api/repos/delete`, {
			method: "DELETE",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "recipes", organization: "xavier" }),
		});
		expect(deleted.status).toBe(200);
		await collectGarbage(context, CLI_ACTOR, { dryRun: false, settings: eager });
		await collectGarbage(context, CLI_ACTOR, { dryRun: false, settings: eager });
		expect(await storedBytes()).toBe(0);
		expect((await db.query("SELECT 1 FROM xet_file_terms")).rows).toEqual([]);
	});
});
