// Commits store what changed: trees shared between commits and repositories (src/repos/trees.ts), so
// that a one-file commit to a large repository writes the trees on its path, not the whole file list.
// Real hub, embedded database, commits over HTTP as huggingface_hub sends them (NDJSON).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { DEFAULT_TREE_CACHE_BYTES, setTreeCacheBytes } from "../src/repos/trees.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";

const ADMIN = "trees-admin-token-0123456789abcdef";

let db: Database;
let hub: RunningHub;
let token: string;

type Operation =
	{ key: "file"; path: string; content: string } | { key: "deletedFile" | "deletedFolder"; path: string };

async function commit(repo: string, summary: string, operations: readonly Operation[]): Promise<Response> {
	const lines = [
		{ key: "header", value: { summary } },
		...operations.map((op) =>
			op.key === "file"
				? {
						key: "file",
						value: { path: op.path, content: Buffer.from(op.content).toString("base64"), encoding: "base64" },
					}
				: { key: op.key, value: { path: op.path } },
		),
	];
	return fetch(`${hub.url}/api/models/alice/${repo}/commit/main`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
		body: lines.map((line) => JSON.stringify(line)).join("\n"),
	});
}

async function committed(repo: string, summary: string, operations: readonly Operation[]): Promise<string> {
	const res = await commit(repo, summary, operations);
	const text = await res.text();
	expect(res.status, text).toBe(200);
	return (JSON.parse(text) as { commitOid: string }).commitOid;
}

async function createRepo(name: string): Promise<void> {
	const res = await fetch(`${hub.url}/api/repos/create`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
		body: JSON.stringify({ name }),
	});
	expect(res.status).toBe(200);
}

/** Bytes the database takes on disk: every table of the hub's schema with its indexes and TOAST. */
async function databaseBytes(): Promise<number> {
	const result = await db.query<{ bytes: number | string }>(
		`SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'`,
	);
	return Number(result.rows[0]?.bytes ?? 0);
}

/** The files of main as the tree API lists them (recursive, every page). */
async function mainFiles(repo: string): Promise<string[]> {
	const files: string[] = [];
	let next: string | undefined = `${hub.url}/api/models/alice/${repo}/tree/main?recursive=true`;
	while (next !== undefined) {
		const res: Response = await fetch(next);
		expect(res.status).toBe(200);
		const entries = (await res.json()) as Array<{ type: string; path: string }>;
		for (const entry of entries) if (entry.type === "file") files.push(entry.path);
		next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
	}
	return files;
}

/** `count` small files: in one folder (flat) or in folders of 100 (nested). */
function manyFiles(count: number, layout: "flat" | "nested"): Operation[] {
	return Array.from({ length: count }, (_, index) => {
		const name = `file-${String(index).padStart(5, "0")}.txt`;
		const path = layout === "flat" ? `data/${name}` : `data/part-${Math.floor(index / 100)}/${name}`;
		return { key: "file", path, content: `row ${index}\n` };
	});
}

/**
 * What the packed trees of a one-file change in a folder of `count` such files take at most: each
 * entry is 5 bytes, its name and 60 bytes of ids and size (src/repos/trees.ts), plus the root's and
 * the parent's few entries.
 */
function treeBytes(count: number): number {
	return count * (5 + "file-00000.txt".length + 60) + 4 * 100;
}

beforeAll(async () => {
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({ db, seed: false, adminToken: ADMIN });
	token = await createUser(hub.url, ADMIN, "alice");
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
});

describe("commits store what changed", () => {
	it("a one-file commit to a 3,000-file repository grows the database by its changed trees, not by the file count", async () => {
		for (const layout of ["nested", "flat"] as const) {
			const repo = `big-${layout}`;
			await createRepo(repo);
			await committed(repo, "Add 3,000 files", manyFiles(3000, layout));
			// Warm the tables' last pages, then measure one-file commits.
			await committed(repo, "Warm up", [{ key: "file", path: "data/warm.txt", content: "warm\n" }]);
			const growth: number[] = [];
			for (let round = 0; round < 3; round++) {
				const before = await databaseBytes();
				await committed(repo, `Edit ${round}`, [
					{
						key: "file",
						path: layout === "flat" ? "data/file-00042.txt" : "data/part-0/file-00042.txt",
						content: `edited ${round}\n`,
					},
				]);
				growth.push((await databaseBytes()) - before);
			}
			// The changed folder holds 100 files (nested) or 3,000 (flat, stored in chunks of at most 1,024
			// entries: src/repos/trees.ts); rows per commit and file once took ~300 bytes per file of the
			// repository (about 1 MB per one-line commit here).
			const bound = treeBytes(layout === "nested" ? 100 : 1024) + 64 * 1024;
			for (const bytes of growth) expect(bytes, `${layout}: ${growth.join(", ")}`).toBeLessThanOrEqual(bound);
			const path = layout === "flat" ? "data/file-00042.txt" : "data/part-0/file-00042.txt";
			expect(await (await fetch(`${hub.url}/alice/${repo}/resolve/main/${path}`)).text()).toBe("edited 2\n");
			const files = await mainFiles(repo);
			expect(files.length).toBe(3002);
			// Read again from the database alone (trees and their chunks), with no parsed tree kept.
			setTreeCacheBytes(0);
			try {
				expect(await mainFiles(repo)).toEqual(files);
				expect(await (await fetch(`${hub.url}/alice/${repo}/resolve/main/${path}`)).text()).toBe(
					"edited 2\n",
				);
				await committed(repo, "Edit from the database", [{ key: "file", path, content: "edited 3\n" }]);
				expect(await mainFiles(repo)).toEqual(files);
			} finally {
				setTreeCacheBytes(DEFAULT_TREE_CACHE_BYTES);
			}
		}
	}, 300_000);

	it("edits keep every other file, delete files and folders, refuse missing paths and file/folder clashes", async () => {
		await createRepo("edits");
		await committed("edits", "Start", [
			{ key: "file", path: "a/b/c.txt", content: "c\n" },
			{ key: "file", path: "a/b/d.txt", content: "d\n" },
			{ key: "file", path: "a/e.txt", content: "e\n" },
			{ key: "file", path: "f.txt", content: "f\n" },
		]);
		await committed("edits", "Change", [
			{ key: "file", path: "a/b/c.txt", content: "c2\n" },
			{ key: "deletedFile", path: "a/b/d.txt" },
			{ key: "file", path: "g/h.txt", content: "h\n" },
		]);
		expect(await mainFiles("edits")).toEqual([".gitattributes", "a/b/c.txt", "a/e.txt", "f.txt", "g/h.txt"]);
		const resolved = await fetch(`${hub.url}/alice/edits/resolve/main/a/b/c.txt`);
		expect(await resolved.text()).toBe("c2\n");

		// A folder emptied by deletions is gone: deleting it then finds nothing.
		await committed("edits", "Empty a/b", [{ key: "deletedFile", path: "a/b/c.txt" }]);
		const gone = await commit("edits", "Again", [{ key: "deletedFolder", path: "a/b" }]);
		expect(gone.status).toBe(404);
		expect(await gone.text()).toMatch(/A folder with this name doesn't exist: a\/b/);
		const missing = await commit("edits", "Missing", [{ key: "deletedFile", path: "a/nope.txt" }]);
		expect(missing.status).toBe(404);
		expect(await missing.text()).toMatch(/A file with this name doesn't exist: a\/nope.txt/);
		const clash = await commit("edits", "Clash", [{ key: "file", path: "a", content: "x\n" }]);
		expect(clash.status).toBe(400);
		expect(await clash.text()).toMatch(/a is both a file and a folder/);
		// The same path first a file over a folder, then the folder deleted: valid, in order.
		await committed("edits", "Replace a folder by a file", [
			{ key: "file", path: "g", content: "now a file\n" },
			{ key: "deletedFolder", path: "g" },
		]);
		expect(await mainFiles("edits")).toEqual([".gitattributes", "a/e.txt", "f.txt", "g"]);
		await committed("edits", "Delete a", [{ key: "deletedFolder", path: "a" }]);
		expect(await mainFiles("edits")).toEqual([".gitattributes", "f.txt", "g"]);
	}, 120_000);

	it("shares trees between commits and repositories: the same folder is stored once", async () => {
		const trees = async () =>
			Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM trees")).rows[0]?.n);
		await createRepo("shared-a");
		await createRepo("shared-b");
		const files = manyFiles(300, "nested");
		await committed("shared-a", "Files", files);
		const afterFirst = await trees();
		await committed("shared-b", "Same files", files);
		// Only nothing new: same folders, same root (both repositories start with the same .gitattributes).
		expect(await trees()).toBe(afterFirst);
		// One changed file writes the three trees on its path (its folder, data/ and the root), nothing else.
		await committed("shared-b", "One change", [
			{ key: "file", path: "data/part-1/file-00100.txt", content: "x\n" },
		]);
		expect(await trees()).toBe(afterFirst + 3);
	}, 120_000);
});
