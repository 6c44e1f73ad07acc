import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { gitBlobOid } from "../src/storage/digest.js";
import { openBlobStore } from "../src/storage/open.js";
import type { BlobStore } from "../src/storage/types.js";
import { createUser, seededRandom, startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";

// Small files kept in the database (src/blobs/small.ts): a commit's small files are rows, not a file
// each, and everything that reads files still gets their bytes; blob files written before stay served.

const ADMIN = "small-blobs-admin-token-0123456789";
const FILES = 300;

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** Blob files in a disk store's folder (`blobs/<2 hex>/<2 hex>/<sha256>`). */
function blobFiles(root: string): number {
	let count = 0;
	const walk = (dir: string): void => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			if (entry.isDirectory()) walk(join(dir, entry.name));
			else count++;
		}
	};
	walk(join(root, "blobs"));
	return count;
}

/** Printable bytes that differ from file to file (text: huggingface_hub sends them inline). */
function textFile(random: () => number, index: number): Buffer {
	const length = 1 + Math.floor(random() * 3000);
	let text = `file ${index}\n`;
	while (text.length < length) text += String.fromCharCode(32 + Math.floor(random() * 95));
	return Buffer.from(text, "utf8");
}

describe("small files kept in the database", () => {
	let dir: string;
	let db: Database;
	let storage: BlobStore;
	let hub: RunningHub;
	let token: string;
	const files = new Map<string, Buffer>();

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-small-blobs-"));
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		storage = await openBlobStore({ kind: "disk", dir: join(dir, "files") });
		hub = await startHub({ db, storage, seed: false, adminToken: ADMIN });
		token = await createUser(hub.url, ADMIN, "alice");
		const random = seededRandom(21);
		for (let index = 0; index < FILES; index++) {
			const path = index % 3 === 0 ? `data/part-${index % 7}/row-${index}.txt` : `notes/${index}.json`;
			files.set(path, textFile(random, index));
		}
	}, 180_000);

	afterAll(async () => {
		await hub?.close();
		await storage?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("takes huggingface_hub's upload of many small files without a blob file each, and gives them back byte-identical", async () => {
		const filesBefore = blobFiles(join(dir, "files"));
		await runHubClient(
			"publish",
			hub.url,
			join(dir, "publish"),
			{
				token,
				repo: "alice/many",
				files: Object.fromEntries([...files].map(([path, bytes]) => [path, bytes.toString("base64")])),
			},
			{},
			"hf_hub_small_files.py",
		);
		// The repository's .gitattributes and nothing else became a file.
		expect(blobFiles(join(dir, "files")) - filesBefore).toBeLessThanOrEqual(1);
		const rows = await db.query<{ n: string | number }>(
			"SELECT count(*) AS n FROM small_blobs WHERE sha256 = ANY($1)",
			[[...files.values()].map(sha256)],
		);
		expect(Number(rows.rows[0]?.n)).toBe(new Set([...files.values()].map(sha256)).size);

		const paths = [...files.keys()].slice(0, 12);
		const got = await runHubClient<{ snapshot: Record<string, string>; single: Record<string, string> }>(
			"download",
			hub.url,
			join(dir, "download"),
			{ repo: "alice/many", paths },
			{},
			"hf_hub_small_files.py",
		);
		for (const [path, bytes] of files) expect(got.snapshot[path], path).toBe(sha256(bytes));
		for (const path of paths) expect(got.single[path], path).toBe(sha256(files.get(path) as Buffer));
	}, 240_000);

	it("keeps a multipart commit's small parts in the database, not a file each, and still streams a large part to a file", async () => {
		const random = seededRandom(2121);
		const parts = new Map<string, Buffer>();
		for (let index = 0; index < 40; index++) parts.set(`web/${index}.txt`, textFile(random, index));
		// Larger than MODELHUB_SMALL_BLOB_MAX_BYTES (64 KiB by default): a file of its own, as before.
		const large = Buffer.alloc(200 * 1024);
		for (let index = 0; index < large.length; index++) large[index] = Math.floor(random() * 256);
		parts.set("web/large.bin", large);
		const filesBefore = blobFiles(join(dir, "files"));
		const form = new FormData();
		form.append("header", JSON.stringify({ summary: "the web's upload" }));
		for (const [path, bytes] of parts) form.append("file", new Blob([new Uint8Array(bytes)]), path);
		const res = await fetch(`${hub.url}/api/models/alice/many/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}` },
			body: form,
		});
		expect(res.status, await res.clone().text()).toBe(200);
		expect(blobFiles(join(dir, "files")) - filesBefore).toBe(1);
		const kept = await db.query<{ sha256: string }>(
			"SELECT sha256 FROM small_blobs WHERE sha256 = ANY($1::text[])",
			[[...parts.values()].map((bytes) => sha256(bytes))],
		);
		expect(kept.rows.length).toBe(40);
		expect(await storage.stat(sha256(large))).toEqual({ size: large.length });
		for (const [path, bytes] of parts) {
			const got = await fetch(`${hub.url}/alice/many/resolve/main/${path}`);
			expect(Buffer.from(await got.arrayBuffer()).equals(bytes), path).toBe(true);
		}
		// A small binary part is an LFS file kept in the table: the LFS batch API knows the repository
		// holds it (no upload asked again).
		const small = Buffer.from(Array.from({ length: 300 }, (_, index) => (index * 7) % 256));
		const binary = new FormData();
		binary.append("header", JSON.stringify({ summary: "a small binary" }));
		binary.append("file", new Blob([new Uint8Array(small)]), "web/small.bin");
		const committed = await fetch(`${hub.url}/api/models/alice/many/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}` },
			body: binary,
		});
		expect(committed.status).toBe(200);
		const info = await fetch(`${hub.url}/api/models/alice/many/tree/main/web`);
		const entries = (await info.json()) as Array<{ path: string; lfs?: unknown }>;
		expect(entries.find((entry) => entry.path === "web/small.bin")?.lfs).toBeTruthy();
		const batch = await fetch(`${hub.url}/alice/many.git/info/lfs/objects/batch`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.git-lfs+json" },
			body: JSON.stringify({ operation: "upload", objects: [{ oid: sha256(small), size: small.length }] }),
		});
		expect(batch.status).toBe(200);
		const [object] = ((await batch.json()) as { objects: Array<{ oid: string; actions?: unknown }> }).objects;
		expect(object?.oid).toBe(sha256(small));
		expect(object?.actions).toBeUndefined();
	});

	it("serves a database-kept file's ranges, HEAD, ETag and 304 as a blob file's", async () => {
		const [path, bytes] = [...files].find(([, content]) => content.length > 100) as [string, Buffer];
		const url = `${hub.url}/alice/many/resolve/main/${path}`;
		const head = await fetch(url, { method: "HEAD" });
		expect(head.status).toBe(200);
		expect(head.headers.get("content-length")).toBe(String(bytes.length));
		const etag = head.headers.get("etag");
		expect(etag).toBe(`"${gitBlobOid(bytes)}"`);

		const whole = await fetch(url);
		expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
		const ranged = await fetch(url, { headers: { range: "bytes=10-49" } });
		expect(ranged.status).toBe(206);
		expect(ranged.headers.get("content-range")).toBe(`bytes 10-49/${bytes.length}`);
		expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(10, 50))).toBe(true);
		const suffix = await fetch(url, { headers: { range: "bytes=-7" } });
		expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(bytes.length - 7))).toBe(true);
		expect((await fetch(url, { headers: { "if-none-match": etag as string } })).status).toBe(304);
	});

	it("still serves small files stored as blob files (by an older hub), alongside the new ones", async () => {
		// A hub keeping every file as a blob file (MODELHUB_SMALL_BLOB_MAX_BYTES=0), as hubs did before.
		const older = await startHub({
			db,
			storage,
			seed: false,
			adminToken: ADMIN,
			uploads: { smallBlobMaxBytes: 0 },
		});
		const old = Buffer.from("stored as a file by an older hub\n");
		const commit = async (base: string, content: Buffer, name: string): Promise<string> => {
			const body = [
				{ key: "header", value: { summary: `add ${name}` } },
				{ key: "file", value: { path: name, content: content.toString("base64"), encoding: "base64" } },
			]
				.map((line) => JSON.stringify(line))
				.join("\n");
			const res = await fetch(`${base}/api/models/alice/many/commit/main`, {
				method: "POST",
				headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
				body,
			});
			const text = await res.text();
			expect(res.status, text).toBe(200);
			return (JSON.parse(text) as { commitOid: string }).commitOid;
		};
		let oldCommit: string;
		try {
			oldCommit = await commit(older.url, old, "old.txt");
		} finally {
			await older.close();
		}
		expect(await storage.stat(sha256(old))).toEqual({ size: old.length });
		const inTable = await db.query("SELECT 1 FROM small_blobs WHERE sha256 = $1", [sha256(old)]);
		expect(inTable.rows.length).toBe(0);
		const res = await fetch(`${hub.url}/alice/many/resolve/${oldCommit}/old.txt`, {
			headers: { range: "bytes=7-8" },
		});
		expect(Buffer.from(await res.arrayBuffer()).toString()).toBe("as");

		// The same bytes committed again by this hub: kept in the database too, and read from there.
		await commit(hub.url, old, "again.txt");
		expect((await db.query("SELECT 1 FROM small_blobs WHERE sha256 = $1", [sha256(old)])).rows.length).toBe(
			1,
		);
		const again = await fetch(`${hub.url}/alice/many/resolve/main/again.txt`);
		expect(Buffer.from(await again.arrayBuffer()).equals(old)).toBe(true);
	});
});
