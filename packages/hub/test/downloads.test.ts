// Download counts (src/services/downloads.ts) on the embedded database and on PostgreSQL: the real
// huggingface_hub downloading files of models that follow different rules, then reading model_info
// (expand downloads/downloadsAllTime) and a listing sorted by downloads; GET and HEAD over HTTP; the
// bound of one count per client, repository and file per window; a dataset's files, one count per
// client and dataset per 5-minute window; the hub's own reads; a restart
// flushing what was waiting; two hub processes on one PostgreSQL database; the 30-day window rolling.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DownloadCounter, utcDay } from "../src/downloads/counter.js";
import { addDownloads, type DownloadIncrement } from "../src/downloads/store.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { openBlobStore } from "../src/storage/open.js";
import type { BlobStore } from "../src/storage/types.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "downloads-admin-token-0123456789abcdef";
const INTERNAL = "x-modelhub-internal-read";

let cluster: PostgresCluster | undefined;
afterAll(() => cluster?.stop());

async function postgresUrl(name: string): Promise<string> {
	cluster ??= await startPostgresCluster();
	return cluster.createDatabase(name);
}

const BACKENDS: Array<[string, (name: string) => Promise<Database>]> = [
	["PGlite", () => openDatabase({ databaseUrl: undefined, dataDir: "memory://" })],
	[
		"PostgreSQL",
		async (name) => openDatabase({ databaseUrl: await postgresUrl(name), dataDir: "memory://" }),
	],
];

async function admin(hub: RunningHub, method: string, path: string, body: unknown): Promise<Response> {
	return fetch(`${hub.url}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${ADMIN}`,
			...(body === undefined ? {} : { "content-type": "application/json" }),
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	});
}

async function counts(hub: RunningHub, id: string): Promise<{ downloads: number; downloadsAllTime: number }> {
	const res = await fetch(`${hub.url}/api/models/${id}?expand[]=downloads&expand[]=downloadsAllTime`);
	expect(res.status).toBe(200);
	const body = (await res.json()) as { downloads: number; downloadsAllTime: number };
	return { downloads: body.downloads, downloadsAllTime: body.downloadsAllTime };
}

/** A file request from a client address (the hub trusts X-Forwarded-For in these tests). */
function request(
	hub: RunningHub,
	method: "GET" | "HEAD",
	id: string,
	path: string,
	client: string,
	headers: Record<string, string> = {},
): Promise<Response> {
	return fetch(`${hub.url}/${id}/resolve/main/${path}`, {
		method,
		headers: { "x-forwarded-for": client, ...headers },
	});
}

const CARD = (library: string) => `---\nlibrary_name: ${library}\nlicense: mit\n---\n# A test model\n`;

/** Models of different counting rules, each file's text small. */
const REPOS: Record<string, Record<string, string>> = {
	// No library: the default files (config.json at the root).
	"alice/plain": {
		"README.md": "# plain\n",
		"config.json": '{"model_type": "bert"}\n',
		"model.safetensors": "not really weights\n",
		"sub/config.json": "{}\n",
	},
	// peft counts adapter_config.json, not config.json.
	"alice/adapter": {
		"README.md": CARD("peft"),
		"adapter_config.json": '{"peft_type": "LORA"}\n',
		"config.json": "{}\n",
	},
	// Every GGUF file counts, whatever the library.
	"alice/quantized": {
		"README.md": CARD("llama-cpp-python"),
		"model-q4.gguf": "GGUF q4\n",
		"model-q8.gguf": "GGUF q8\n",
	},
};

describe.each(BACKENDS)("download counts on %s", (backend, open) => {
	let db: Database;
	let storage: BlobStore;
	let hub: RunningHub;
	let dir: string;
	let token: string;

	/** Stops the server (which flushes its counts) and starts another on the same database and files. */
	async function restart(flushIntervalMs = 100): Promise<void> {
		await hub.close();
		hub = await startHub({
			db,
			storage,
			seed: false,
			adminToken: ADMIN,
			trustProxy: true,
			downloads: { flushIntervalMs },
		});
	}

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-downloads-"));
		db = await open("downloads");
		storage = await openBlobStore({ kind: "disk", dir: join(dir, "files") });
		hub = await startHub({
			db,
			storage,
			seed: false,
			adminToken: ADMIN,
			trustProxy: true,
			downloads: { flushIntervalMs: 100 },
		});
		const res = await admin(hub, "POST", "/api/admin/users", { name: "alice" });
		token = ((await res.json()) as { token: string }).token;
		await runHubClient(
			"publish",
			hub.url,
			join(dir, "publish"),
			{ token, repos: REPOS },
			{},
			"hf_hub_downloads.py",
		);
	}, 180_000);

	afterAll(async () => {
		await hub?.close();
		await storage?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("counts huggingface_hub downloads by each model's rule: once per client and file", async () => {
		const clients = ["10.0.0.1", "10.0.0.2", "10.0.0.3"];
		const files = {
			"alice/plain": ["config.json"],
			"alice/adapter": ["adapter_config.json"],
			"alice/quantized": ["model-q4.gguf"],
		};
		const fetched = await runHubClient<{ fetched: Record<string, string[]> }>(
			"download",
			hub.url,
			join(dir, "download"),
			{ clients, files },
			{},
			"hf_hub_downloads.py",
		);
		expect(fetched.fetched["alice/plain"]).toContain("sub/config.json");
		// Stopping flushed; a new server on the same database reads what was written.
		await restart();
		const seen = await runHubClient<{
			counts: Record<string, { downloads: number; downloads_all_time: number }>;
			listed: Array<{ id: string; downloads: number }>;
		}>(
			"counts",
			hub.url,
			join(dir, "counts"),
			{ repos: Object.keys(REPOS), author: "alice" },
			{},
			"hf_hub_downloads.py",
		);
		// Three clients, each counted once per counted file (hf_hub_download's HEAD and GET, then the
		// snapshot's, are one download): config.json (not sub/config.json, not the weights); peft's
		// adapter_config.json (not its config.json); both GGUF files.
		expect(seen.counts).toEqual({
			"alice/plain": { downloads: 3, downloads_all_time: 3 },
			"alice/adapter": { downloads: 3, downloads_all_time: 3 },
			"alice/quantized": { downloads: 6, downloads_all_time: 6 },
		});
		expect(seen.listed.map((model) => model.id)).toEqual(["alice/quantized", "alice/plain", "alice/adapter"]);
		expect(seen.listed[0]?.downloads).toBe(6);
	}, 300_000);

	it("counts GET and HEAD of a counted file, ranged or not, once per client address in the window", async () => {
		const before = await counts(hub, "alice/plain");
		expect((await request(hub, "HEAD", "alice/plain", "config.json", "10.1.0.1")).status).toBe(200);
		expect((await request(hub, "GET", "alice/plain", "config.json", "10.1.0.1")).status).toBe(200);
		expect(
			(await request(hub, "GET", "alice/plain", "config.json", "10.1.0.2", { range: "bytes=0-3" })).status,
		).toBe(206);
		// Not counted: another file, a missing one, an unsatisfiable range, the hub's own read.
		expect((await request(hub, "GET", "alice/plain", "README.md", "10.1.0.3")).status).toBe(200);
		expect((await request(hub, "GET", "alice/plain", "model.safetensors", "10.1.0.3")).status).toBe(200);
		expect((await request(hub, "GET", "alice/plain", "missing/config.json", "10.1.0.3")).status).toBe(404);
		expect(
			(await request(hub, "GET", "alice/plain", "config.json", "10.1.0.4", { range: "bytes=9999-" })).status,
		).toBe(416);
		expect(
			(await request(hub, "GET", "alice/plain", "config.json", "10.1.0.5", { [INTERNAL]: "web" })).status,
		).toBe(200);
		// Many requests of one client count once.
		for (let i = 0; i < 20; i++)
			await request(hub, i % 2 ? "GET" : "HEAD", "alice/plain", "config.json", "10.1.0.6");
		await expect
			.poll(async () => (await counts(hub, "alice/plain")).downloads, { timeout: 10_000 })
			.toBe(before.downloads + 3);
		expect((await counts(hub, "alice/plain")).downloadsAllTime).toBe(before.downloadsAllTime + 3);
	});

	it("counts all files of a dataset one client downloads within the window as one download", async () => {
		const dataset = "alice/tiny-ds";
		const files = {
			"README.md": "---\nlicense: mit\n---\n# A tiny dataset\n",
			"data/train-00000-of-00002.csv": "text,label\na,0\nb,1\n",
			"data/train-00001-of-00002.csv": "text,label\nc,0\nd,1\n",
			"data/test-00000-of-00001.csv": "text,label\ne,1\n",
		};
		const client = (script: string, params: Record<string, unknown>) =>
			runHubClient<Record<string, unknown>>(
				script,
				hub.url,
				join(dir, `dataset-${script}`),
				{ token, repo_type: "dataset", ...params },
				{},
				"hf_hub_downloads.py",
			);
		await client("publish", { repos: { [dataset]: files } });
		// Two clients, each hf_hub_download of two files (HEAD and GET each) then snapshot_download of all.
		const fetched = (await client("download", {
			clients: ["10.2.0.1", "10.2.0.2"],
			files: { [dataset]: ["data/train-00000-of-00002.csv", "data/test-00000-of-00001.csv"] },
		})) as { fetched: Record<string, string[]> };
		expect(fetched.fetched[dataset]).toEqual([".gitattributes", ...Object.keys(files)].sort());
		// More files of the first client, and requests that never count: a missing file, the hub's own read.
		const resolve = (path: string, address: string, headers: Record<string, string> = {}) =>
			fetch(`${hub.url}/datasets/${dataset}/resolve/main/${path}`, {
				headers: { "x-forwarded-for": address, ...headers },
			});
		expect((await resolve("README.md", "10.2.0.1")).status).toBe(200);
		expect((await resolve("missing.csv", "10.2.0.3")).status).toBe(404);
		expect((await resolve("README.md", "10.2.0.4", { [INTERNAL]: "web" })).status).toBe(200);
		const seen = async () =>
			(await client("counts", { repos: [dataset], author: "alice" })) as {
				counts: Record<string, { downloads: number; downloads_all_time: number }>;
				listed: Array<{ id: string; downloads: number }>;
			};
		await expect.poll(async () => (await seen()).counts[dataset]?.downloads, { timeout: 30_000 }).toBe(2);
		const after = await seen();
		expect(after.counts[dataset]).toEqual({ downloads: 2, downloads_all_time: 2 });
		expect(after.listed).toEqual([{ id: dataset, downloads: 2 }]);
	}, 300_000);

	it("adds the hub's counts to the imported ones, in model info, listings and the downloads sort", async () => {
		const put = await admin(hub, "PUT", "/api/models/imported/bert-like", {
			downloads: 5,
			likes: 1,
			config: { model_type: "bert", architectures: ["BertModel"] },
		});
		expect(put.status).toBe(201);
		expect(await counts(hub, "imported/bert-like")).toEqual({ downloads: 5, downloadsAllTime: 5 });
		for (const client of ["10.2.0.1", "10.2.0.2"])
			expect((await request(hub, "GET", "imported/bert-like", "config.json", client)).status).toBe(200);
		await expect
			.poll(async () => (await counts(hub, "imported/bert-like")).downloads, { timeout: 10_000 })
			.toBe(7);
		expect(await counts(hub, "imported/bert-like")).toEqual({ downloads: 7, downloadsAllTime: 7 });
		// Importing the model again replaces the imported count; the hub's own counts stay.
		expect(
			(
				await admin(hub, "PUT", "/api/models/imported/bert-like", {
					downloads: 10,
					config: { model_type: "bert" },
				})
			).status,
		).toBe(200);
		expect(await counts(hub, "imported/bert-like")).toEqual({ downloads: 12, downloadsAllTime: 12 });
		// The sort and its cursor follow the shown count (limit 1 walks page by page).
		const ids: string[] = [];
		let next: string | undefined = `${hub.url}/api/models?sort=downloads&direction=-1&limit=1`;
		while (next && ids.length < 10) {
			const res: Response = await fetch(next);
			const page = (await res.json()) as Array<{ id: string; downloads: number }>;
			ids.push(...page.map((model) => `${model.id}:${model.downloads}`));
			next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
		}
		expect(ids.slice(0, 2)).toEqual(["imported/bert-like:12", "alice/quantized:6"]);
	});

	it("flushes what is waiting when the server stops, and never counts for a deleted model", async () => {
		await restart(600_000);
		const stored = async () =>
			Number(
				(await db.query<{ n: string }>("SELECT downloads_counted AS n FROM repos WHERE id = 'alice/adapter'"))
					.rows[0]?.n,
			);
		const before = await stored();
		for (const client of ["10.3.0.1", "10.3.0.2"])
			expect((await request(hub, "HEAD", "alice/adapter", "adapter_config.json", client)).status).toBe(200);
		// Nothing written yet: the interval is ten minutes, and one entry is below the batch size.
		expect(await stored()).toBe(before);
		await restart();
		expect(await stored()).toBe(before + 2);
		expect((await counts(hub, "alice/adapter")).downloadsAllTime).toBe(before + 2);
		// A deleted model's waiting counts are dropped at the flush, and the others still written.
		expect(
			(await admin(hub, "PUT", "/api/models/imported/short-lived", { config: { model_type: "bert" } }))
				.status,
		).toBe(201);
		await restart(600_000);
		await request(hub, "GET", "imported/short-lived", "config.json", "10.3.0.3");
		await request(hub, "GET", "alice/adapter", "adapter_config.json", "10.3.0.3");
		expect((await admin(hub, "DELETE", "/api/models/imported/short-lived", undefined)).status).toBe(200);
		await restart();
		expect(await stored()).toBe(before + 3);
	});
});

describe("download counts and client addresses", () => {
	it("ignore X-Forwarded-For unless the hub trusts its proxy", async () => {
		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const hub = await startHub({ db, seed: false, adminToken: ADMIN, downloads: { flushIntervalMs: 100 } });
		try {
			const put = await admin(hub, "PUT", "/api/models/imported/untrusted", {
				config: { model_type: "bert" },
			});
			expect(put.status).toBe(201);
			for (const client of ["10.9.0.1", "10.9.0.2", "10.9.0.3"])
				expect((await request(hub, "GET", "imported/untrusted", "config.json", client)).status).toBe(200);
			await hub.server.app.close();
			const reopened = await startHub({ db, seed: false });
			expect(await counts(reopened, "imported/untrusted")).toEqual({ downloads: 1, downloadsAllTime: 1 });
			await reopened.close();
		} finally {
			await hub.close().catch(() => {});
			await db.close();
		}
	});
});

describe("download counts of several hub processes on one PostgreSQL database", () => {
	it("neither lose nor double counts when each process flushes its own", async () => {
		const url = await postgresUrl("downloads_many");
		const dbs = await Promise.all(
			[0, 1, 2].map(() => openDatabase({ databaseUrl: url, dataDir: "memory://" })),
		);
		const hubs: RunningHub[] = [];
		// One store of files, as hub processes on one database share one (S3, or a shared disk).
		const storage = await openBlobStore({ kind: "disk", dir: undefined });
		try {
			for (const db of dbs)
				hubs.push(
					await startHub({
						storage,
						db,
						seed: false,
						adminToken: ADMIN,
						trustProxy: true,
						downloads: { flushIntervalMs: 20 },
					}),
				);
			const [first] = hubs as [RunningHub];
			expect(
				(await admin(first, "PUT", "/api/models/shared/model", { config: { model_type: "bert" } })).status,
			).toBe(201);
			// 3 processes × 40 clients each, all at once; every process flushes every 20 ms meanwhile.
			const statuses = await Promise.all(
				hubs.flatMap((hub, process) =>
					Array.from({ length: 40 }, (_, client) =>
						request(hub, "GET", "shared/model", "config.json", `10.${process}.5.${client}`).then(
							async (res) => {
								await res.arrayBuffer();
								return res.status;
							},
						),
					),
				),
			);
			expect(new Set(statuses)).toEqual(new Set([200]));
			await Promise.all(hubs.map((hub) => hub.server.app.close()));
			const reader = await startHub({ db: dbs[0] as Database, seed: false });
			expect(await counts(reader, "shared/model")).toEqual({ downloads: 120, downloadsAllTime: 120 });
			await reader.close();
		} finally {
			await Promise.all(hubs.map((hub) => hub.close().catch(() => {})));
			await storage.close();
			await Promise.all(dbs.map((db) => db.close()));
		}
	}, 120_000);
});

describe("the 30-day window", () => {
	it("rolls daily: old days leave downloads, stay in downloadsAllTime", async () => {
		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const hub = await startHub({ db, seed: false, adminToken: ADMIN });
		try {
			expect((await admin(hub, "PUT", "/api/models/old/model", { downloads: 100 })).status).toBe(201);
			const at = (day: string, count: number): DownloadIncrement => ({
				type: "model",
				id: "old/model",
				day,
				count,
			});
			await db.transaction((tx) =>
				addDownloads(tx, [at("2026-01-01", 4), at("2026-01-15", 2)], "2026-01-15"),
			);
			hub.server.cache.clear();
			expect(await counts(hub, "old/model")).toEqual({ downloads: 106, downloadsAllTime: 106 });
			// 2026-01-31: the window is 01-02 … 01-31, the 4 of 01-01 left it.
			await db.transaction((tx) => addDownloads(tx, [at("2026-01-31", 1)], "2026-01-31"));
			hub.server.cache.clear();
			expect(await counts(hub, "old/model")).toEqual({ downloads: 103, downloadsAllTime: 107 });
			// A flush with nothing to add still moves the window (to 01-31 … 03-01: the 1 of 01-31 stays); a
			// lagging clock does not move it back, and its day outside the window only counts all-time.
			await db.transaction((tx) => addDownloads(tx, [], "2026-03-01"));
			await db.transaction((tx) => addDownloads(tx, [at("2026-01-20", 5)], "2026-01-20"));
			hub.server.cache.clear();
			expect(await counts(hub, "old/model")).toEqual({ downloads: 101, downloadsAllTime: 112 });
			// Increments of a model deleted since are dropped, the others kept.
			const deleted = await db.transaction((tx) =>
				addDownloads(
					tx,
					[{ type: "model", id: "gone/model", day: "2026-03-01", count: 3 }, at("2026-03-01", 1)],
					"2026-03-01",
				),
			);
			expect(deleted).toBe(1);
		} finally {
			await hub.close();
			await db.close();
		}
	});
});

describe("DownloadCounter", () => {
	function counter(settings: Partial<ConstructorParameters<typeof DownloadCounter>[1]> = {}) {
		const flushed: DownloadIncrement[][] = [];
		let now = Date.parse("2026-05-01T10:00:00Z");
		let failing = false;
		const errors: number[] = [];
		const instance = new DownloadCounter(
			async (increments) => {
				if (failing) throw new Error("database down");
				flushed.push(increments);
			},
			{
				flushIntervalMs: 1000,
				flushEntries: 1000,
				maxBufferedEntries: 1000,
				dedupeWindowMs: 60_000,
				maxDedupeKeys: 1000,
				repositoryWindowMs: 300_000,
				...settings,
			},
			(_error, lost) => errors.push(lost),
			() => now,
		);
		return {
			instance,
			flushed,
			errors,
			advance: (ms: number) => (now += ms),
			fail: (value: boolean) => (failing = value),
		};
	}
	const download = (client: string, path = "config.json", id = "a/b") => ({
		type: "model" as const,
		id,
		path,
		client,
	});

	it("counts a client's file once per window, again after it", async () => {
		const c = counter();
		expect(c.instance.record(download("1.1.1.1"))).toBe(true);
		expect(c.instance.record(download("1.1.1.1"))).toBe(false);
		expect(c.instance.record(download("1.1.1.1", "model.gguf"))).toBe(true);
		expect(c.instance.record(download("2.2.2.2"))).toBe(true);
		c.advance(60_000);
		expect(c.instance.record(download("1.1.1.1"))).toBe(true);
		await c.instance.flush();
		expect(c.flushed).toEqual([[{ type: "model", id: "a/b", day: "2026-05-01", count: 4 }]]);
	});

	it("counts a client's requests of a whole repository once per repository window, fixed from the count", () => {
		const c = counter({ repositoryWindowMs: 300_000 });
		const dataset = (client: string, id = "a/ds") => ({ type: "dataset" as const, id, client });
		expect(c.instance.record(dataset("1.1.1.1"))).toBe(true);
		c.advance(299_999);
		// Within 5 minutes of the counted request: one download, whatever the file or how often.
		expect(c.instance.record(dataset("1.1.1.1"))).toBe(false);
		expect(c.instance.record(dataset("2.2.2.2"))).toBe(true);
		expect(c.instance.record(dataset("1.1.1.1", "a/other"))).toBe(true);
		// A file's key of the same repository is another key (models count per file, in their window).
		expect(c.instance.record({ ...dataset("1.1.1.1"), path: "data.csv" })).toBe(true);
		c.advance(1);
		expect(c.instance.record(dataset("1.1.1.1"))).toBe(true);
		expect(c.instance.record(dataset("1.1.1.1"))).toBe(false);
		expect(c.instance.pending).toBe(5);
	});

	it("remembers a bounded number of clients, oldest forgotten first", () => {
		const c = counter({ maxDedupeKeys: 10 });
		for (let i = 0; i < 11; i++) expect(c.instance.record(download(`10.0.0.${i}`))).toBe(true);
		// 10.0.0.0 was forgotten (one extra count per 10 other keys), 10.0.0.10 was not.
		expect(c.instance.record(download("10.0.0.10"))).toBe(false);
		expect(c.instance.record(download("10.0.0.0"))).toBe(true);
	});

	it("keeps what a failed flush held for the next, within its bound; counts nothing once closed", async () => {
		const c = counter({ maxBufferedEntries: 2 });
		c.instance.record(download("1.1.1.1", "config.json", "a/one"));
		c.fail(true);
		await c.instance.flush();
		expect(c.errors).toEqual([0]);
		expect(c.instance.pending).toBe(1);
		c.instance.record(download("1.1.1.1", "config.json", "a/two"));
		c.instance.record(download("1.1.1.1", "config.json", "a/three"));
		c.fail(false);
		await c.instance.close();
		expect(c.errors).toEqual([0, 1]);
		expect(c.flushed.flat().map((increment) => increment.id)).toEqual(["a/one", "a/two"]);
		expect(c.instance.record(download("3.3.3.3"))).toBe(false);
	});

	it("buckets by UTC day", () => {
		expect(utcDay(Date.parse("2026-05-01T23:59:59.999Z"))).toBe("2026-05-01");
		expect(utcDay(Date.parse("2026-05-02T00:00:00Z"))).toBe("2026-05-02");
		// Back to an earlier day (utcDay keeps the last day it formatted).
		expect(utcDay(Date.parse("2026-05-01T00:00:00Z"))).toBe("2026-05-01");
		expect(utcDay(Date.parse("1969-12-31T23:59:59.999Z"))).toBe("1969-12-31");
	});
});
