import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, MIGRATIONS } from "../src/db/migrations.js";
import { openDatabase } from "../src/db/open.js";
import { openPglite } from "../src/db/pglite.js";
import { openPostgres } from "../src/db/postgres.js";
import type { Database } from "../src/db/types.js";
import { packageRoot } from "../src/paths.js";
import { GENERATED_COMMIT_TITLES, HUB_AUTHOR_TEXT } from "../src/repos/catalogue-commit.js";
import { listFiles, treePage } from "../src/repos/read.js";
import { openBlobStore } from "../src/storage/open.js";
import type { BlobStore } from "../src/storage/types.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres.js";
import { runHubClient } from "./support/python.js";

// The upgrade fixture: a hub's whole database and files as made by the hub at schema version 3 (see
// test/upgrade/make-fixture.mjs, which made it, and the README's "Upgrades"), with the answers that hub
// gave to a sample of read routes. Each database is created at version 3 with migrations 1–3 (which
// never change), loaded with the fixture, and opened by the current hub, which migrates it.
const FIXTURE = join(packageRoot(), "test", "upgrade", "fixture-v3");
const FIXTURE_VERSION = 3;

interface RecordedRequest {
	token: string | null;
	method: string;
	path: string;
	body?: unknown;
}
interface RecordedAnswer {
	request: RecordedRequest;
	status: number;
	headers: Record<string, string>;
	body?: string;
	sha256?: string;
	size?: number;
}
interface Recording {
	madeAt: string;
	schemaVersion: number;
	adminToken: string;
	tokens: Record<string, string>;
	origin: string;
	answers: RecordedAnswer[];
}

const recording = JSON.parse(
	gunzipSync(readFileSync(join(FIXTURE, "answers.json.gz"))).toString("utf8"),
) as Recording;
const fixtureSql = gunzipSync(readFileSync(join(FIXTURE, "database.sql.gz"))).toString("utf8");
/** Rows of each table in the fixture, from the dump's `-- table: N rows` lines. */
const fixtureRows = new Map(
	[...fixtureSql.matchAll(/^-- (\w+): (\d+) rows$/gm)].map((match) => [match[1] as string, Number(match[2])]),
);
/** Tables the upgrade renamed: fixture name → current name. */
const RENAMED: Record<string, string> = { models: "repos" };
/** Tables the upgrade replaced: every commit's file and folder lists, now trees (migration 9). */
const REPLACED = new Set(["commit_files", "commit_folders"]);

/** Every commit's files and folders as the fixture stored them, one line each, sorted. */
async function fixtureListings(): Promise<string[]> {
	const db = await openPglite("memory://");
	try {
		await loadFixture(db);
		const files = await db.query<{ line: string }>(
			`SELECT f.model_id || ' ' || f.commit_id || ' ' || f.path || ' ' || f.sha256 || ' ' || f.lfs || ' ' || b.size
				AS line FROM commit_files f JOIN blobs b ON b.sha256 = f.sha256`,
		);
		const folders = await db.query<{ line: string }>(
			"SELECT model_id || ' ' || commit_id || ' ' || path || '/ ' || tree_id AS line FROM commit_folders",
		);
		return [...files.rows, ...folders.rows].map((row) => row.line).sort();
	} finally {
		await db.close();
	}
}

/** The same lines, read from an upgraded database through the store (src/repos/read.ts). */
async function upgradedListings(db: Database): Promise<string[]> {
	const commits = await db.query<{ repo_id: string; id: string }>(
		"SELECT repo_id, id FROM commits WHERE repo_type = 'model'",
	);
	const lines: string[] = [];
	for (const commit of commits.rows) {
		const repo = { type: "model" as const, id: commit.repo_id };
		for (const file of await listFiles(db, repo, commit.id))
			lines.push(`${commit.repo_id} ${commit.id} ${file.path} ${file.sha256} ${file.lfs} ${file.size}`);
		const all = await treePage(db, {
			repo,
			commitId: commit.id,
			path: "",
			recursive: true,
			limit: 1_000_000,
		});
		for (const entry of all)
			if (entry.type === "directory")
				lines.push(`${commit.repo_id} ${commit.id} ${entry.path}/ ${entry.treeId}`);
	}
	return lines.sort();
}

/** The blobs of blobs.gz: lines `<sha256> <size>` each followed by the bytes. */
function fixtureBlobs(): Array<{ sha256: string; bytes: Buffer }> {
	const packed = gunzipSync(readFileSync(join(FIXTURE, "blobs.gz")));
	const out: Array<{ sha256: string; bytes: Buffer }> = [];
	let offset = 0;
	while (offset < packed.length) {
		const newline = packed.indexOf(0x0a, offset);
		const [sha256, size] = packed.subarray(offset, newline).toString("utf8").split(" ");
		const start = newline + 1;
		out.push({ sha256: sha256 as string, bytes: packed.subarray(start, start + Number(size)) });
		offset = start + Number(size);
	}
	return out;
}

/** An empty database brought to the fixture's schema version, loaded with the fixture's rows. */
async function loadFixture(db: Database): Promise<void> {
	await migrate(
		db,
		MIGRATIONS.filter((migration) => migration.version <= FIXTURE_VERSION),
	);
	// The fixture holds the migration records of the hub that made it (with their dates).
	await db.query("DELETE FROM modelhub_migrations");
	await db.exec(fixtureSql);
}

/** Puts every blob of the fixture into a store; the store checks each digest. */
async function loadBlobs(storage: BlobStore): Promise<void> {
	for (const blob of fixtureBlobs()) {
		const stored = await storage.put(
			(async function* () {
				yield blob.bytes;
			})(),
			{ expectedSha256: blob.sha256 },
		);
		expect(stored.sha256).toBe(blob.sha256);
	}
}

function sha256(bytes: Uint8Array | string): string {
	return createHash("sha256").update(bytes).digest("hex");
}

/** Facts of the upgraded database that the answers' intended changes depend on. */
interface UpgradedFacts {
	/** Ids of private repositories. */
	privateRepos: ReadonlySet<string>;
	/** Ids of models whose main branch is still the commit an import generated (files of the catalogue). */
	catalogueCommits: ReadonlySet<string>;
}

/**
 * Answers changed on purpose since the fixture was recorded, each with the commit that changed it: the
 * recorded answer is rewritten by each in turn and then compared byte for byte, so that any other change
 * still fails.
 */
const INTENDED_CHANGES: ReadonlyArray<{
	commit: string;
	why: string;
	apply(answer: RecordedAnswer, facts: UpgradedFacts): RecordedAnswer;
}> = [
	{
		commit: "11dae22",
		why: "a private repository's files are sent Cache-Control: private (issue 21)",
		apply(answer, facts) {
			const match = /^\/([^?]+?)\/resolve\//.exec(answer.request.path);
			const cacheControl = answer.headers["cache-control"];
			if (!match || cacheControl === undefined) return answer;
			const repo = decodeURIComponent(match[1] as string).toLowerCase();
			if (!facts.privateRepos.has(repo)) return answer;
			return { ...answer, headers: { ...answer.headers, "cache-control": `private, ${cacheControl}` } };
		},
	},
	{
		commit: "5e9ae82",
		why: 'model info says "metadataOnly":true while the files are those an import generated (issue 20)',
		apply(answer, facts) {
			const match = /^\/api\/models\/([^?]+)/.exec(answer.request.path);
			const body = answer.body;
			if (!match || answer.status !== 200 || body === undefined || !body.includes('"siblings":'))
				return answer;
			if (!facts.catalogueCommits.has(decodeURIComponent(match[1] as string).toLowerCase())) return answer;
			const added = ',"metadataOnly":true';
			const headers = { ...answer.headers };
			if (headers["content-length"] !== undefined)
				headers["content-length"] = String(Number(headers["content-length"]) + added.length);
			return { ...answer, headers, body: `${body.slice(0, -1)}${added}}` };
		},
	},
];

async function upgradedFacts(db: Database): Promise<UpgradedFacts> {
	const ids = async (sql: string, params: unknown[] = []) =>
		new Set((await db.query<{ id: string }>(sql, params)).rows.map((row) => row.id.toLowerCase()));
	return {
		privateRepos: await ids("SELECT id FROM repos WHERE private"),
		// An import's generated commit: the first of its repository, by the hub, with a generated title.
		catalogueCommits: await ids(
			`SELECT r.repo_id AS id FROM refs r JOIN commits c
				ON c.repo_type = r.repo_type AND c.repo_id = r.repo_id AND c.id = r.commit_id
			WHERE r.kind = 'branch' AND r.name = 'main' AND c.parent_id IS NULL AND c.author = $1
				AND c.title = ANY($2::text[])`,
			[HUB_AUTHOR_TEXT, Object.values(GENERATED_COMMIT_TITLES)],
		),
	};
}

/** A database at the fixture's version, loaded: how to open it with the current hub, and how to remove it. */
interface Prepared {
	open(): Promise<Database>;
	remove(): void | Promise<void>;
}

function defineUpgradeSuite(label: string, prepare: () => Promise<Prepared>): void {
	describe(`upgrade of a ${label} database made at schema version ${FIXTURE_VERSION}`, () => {
		let db: Database;
		let hub: RunningHub;
		let storage: BlobStore;
		let filesDir: string;
		let prepared: Prepared | undefined;

		beforeAll(async () => {
			prepared = await prepare();
			filesDir = mkdtempSync(join(tmpdir(), "modelhub-upgrade-files-"));
			storage = await openBlobStore({ kind: "disk", dir: filesDir });
			await loadBlobs(storage);
			db = await prepared.open();
			hub = await startHub({ db, storage, adminToken: recording.adminToken });
		}, 120_000);

		afterAll(async () => {
			await hub?.close();
			await db?.close();
			await storage?.close();
			await prepared?.remove();
			if (filesDir) rmSync(filesDir, { recursive: true, force: true });
		});

		const tokenOf = (name: string | null) => (name === null ? undefined : recording.tokens[name]);

		async function send(request: RecordedRequest): Promise<Response> {
			// The replay reads as the hub's own reader: its file requests are not downloads, so that the
			// recorded model answers (downloads) and rows stay as they were (src/services/downloads.ts).
			const headers: Record<string, string> = { "x-modelhub-internal-read": "upgrade-test" };
			const token = tokenOf(request.token);
			if (token) headers.authorization = `Bearer ${token}`;
			if (request.body !== undefined) headers["content-type"] = "application/json";
			return fetch(`${hub.url}${request.path}`, {
				method: request.method,
				headers,
				body: request.body === undefined ? undefined : JSON.stringify(request.body),
				redirect: "manual",
			});
		}

		it("records every migration, keeping those the fixture had", async () => {
			const rows = await db.query<{ version: number; applied_at: Date | string }>(
				"SELECT version, applied_at FROM modelhub_migrations ORDER BY version",
			);
			expect(rows.rows.map((row) => Number(row.version))).toEqual(MIGRATIONS.map((m) => m.version));
			const recorded = /INSERT INTO "modelhub_migrations"[^\n]*\n([^;]*);/.exec(fixtureSql)?.[1] ?? "";
			for (const row of rows.rows.filter((row) => Number(row.version) <= FIXTURE_VERSION)) {
				const at = new Date(row.applied_at)
					.toISOString()
					.replace("T", " ")
					.replace(/\.?0*Z$/, "");
				expect(recorded).toContain(`'${row.version}'`);
				expect(recorded.replace(/\+00'/g, "'")).toContain(at);
			}
		});

		it("answers the recorded read routes byte for byte (tokens, private repositories, files)", async () => {
			const mismatches: string[] = [];
			const here = (text: string) => text.split(recording.origin).join(hub.url);
			const facts = await upgradedFacts(db);
			let changed = 0;
			for (const recorded of recording.answers) {
				const answer = INTENDED_CHANGES.reduce((current, change) => change.apply(current, facts), recorded);
				if (answer !== recorded) changed++;
				const response = await send(answer.request);
				const bytes = Buffer.from(await response.arrayBuffer());
				const what = `${answer.request.token ?? "anonymous"} ${answer.request.method} ${answer.request.path}`;
				if (response.status !== answer.status) {
					mismatches.push(`${what}: status ${response.status}, recorded ${answer.status}`);
					continue;
				}
				if (answer.sha256 !== undefined) {
					if (sha256(bytes) !== answer.sha256 || bytes.length !== answer.size)
						mismatches.push(`${what}: file bytes differ`);
				} else if (bytes.toString("utf8") !== here(answer.body ?? "")) {
					mismatches.push(
						`${what}: body differs\n  got      ${bytes.toString("utf8").slice(0, 300)}\n  recorded ${answer.body?.slice(0, 300)}`,
					);
				}
				for (const [name, value] of Object.entries(answer.headers)) {
					const got = response.headers.get(name);
					if (got !== here(value)) mismatches.push(`${what}: header ${name} is ${got}, recorded ${value}`);
				}
			}
			expect(mismatches).toEqual([]);
			// Each intended change applies to some answers, and most answers are compared as recorded.
			for (const change of INTENDED_CHANGES) {
				expect(
					recording.answers.some((answer) => change.apply(answer, facts) !== answer),
					change.commit,
				).toBe(true);
			}
			expect(changed).toBeLessThan(recording.answers.length / 4);
			// What the sample covers (so that a thinner fixture cannot pass unnoticed).
			const statuses = recording.answers.map((answer) => answer.status);
			expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(200);
			expect(statuses.filter((status) => status === 404).length).toBeGreaterThan(10);
			expect(recording.answers.filter((answer) => answer.sha256 !== undefined).length).toBeGreaterThan(50);
		}, 120_000);

		it("keeps every row of every table", async () => {
			expect(fixtureRows.size).toBeGreaterThanOrEqual(16);
			for (const [table, rows] of fixtureRows) {
				if (table === "modelhub_migrations" || REPLACED.has(table)) continue;
				const name = RENAMED[table] ?? table;
				const counted = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM "${name}"`);
				expect(Number(counted.rows[0]?.n), name).toBe(rows);
			}
		});

		it("keeps every commit's files and folders (with their sizes and tree ids), now as shared trees", async () => {
			const expected = await fixtureListings();
			expect(expected.length).toBe(
				(fixtureRows.get("commit_files") ?? 0) + (fixtureRows.get("commit_folders") ?? 0),
			);
			expect(await upgradedListings(db)).toEqual(expected);
			for (const table of REPLACED) {
				const left = await db.query(
					"SELECT 1 FROM pg_tables WHERE schemaname = 'public' AND tablename = $1",
					[table],
				);
				expect(left.rows, table).toEqual([]);
			}
		});

		it("makes every repository of the fixture a model, in every table that names one", async () => {
			const types = async (sql: string) =>
				(await db.query<{ type: string | null }>(sql)).rows.map((row) => row.type);
			expect(await types("SELECT DISTINCT type FROM repos")).toEqual(["model"]);
			for (const table of ["provider_mappings", "commits", "refs", "repo_blobs"]) {
				expect(await types(`SELECT DISTINCT repo_type AS type FROM ${table}`), table).toEqual(["model"]);
			}
			expect(
				await types("SELECT DISTINCT repo_type AS type FROM audit_log WHERE repo IS NOT NULL ORDER BY 1"),
			).toEqual(["model"]);
			expect(await types("SELECT DISTINCT repo_type AS type FROM audit_log WHERE repo IS NULL")).toEqual([
				null,
			]);
			// The type is always written by the code: the column keeps no default.
			const defaults = await db.query<{ column_default: string | null }>(
				`SELECT column_default FROM information_schema.columns
				WHERE table_schema = 'public' AND column_name IN ('type', 'repo_type') AND column_default IS NOT NULL`,
			);
			expect(defaults.rows).toEqual([]);
		});

		it("serves every stored file with its bytes", async () => {
			const files = await db.query<{ sha256: string; size: number | string }>(
				"SELECT sha256, size FROM blobs ORDER BY sha256",
			);
			expect(files.rows.length).toBe(fixtureRows.get("blobs"));
			for (const file of files.rows) {
				const bytes = await new Promise<Buffer>((resolve, reject) => {
					void storage.read(file.sha256).then((stream) => {
						const parts: Buffer[] = [];
						stream.on("data", (part: Buffer) => parts.push(part));
						stream.on("end", () => resolve(Buffer.concat(parts)));
						stream.on("error", reject);
					}, reject);
				});
				expect(sha256(bytes)).toBe(file.sha256);
				expect(bytes.length).toBe(Number(file.size));
			}
		});

		it("takes new commits, branches and repositories on upgraded data", async () => {
			const alice = recording.tokens.alice as string;
			const commit = await fetch(`${hub.url}/api/models/alice/tiny-xet/commit/main`, {
				method: "POST",
				headers: { authorization: `Bearer ${alice}`, "content-type": "application/x-ndjson" },
				body: [
					{ key: "header", value: { summary: "After the upgrade" } },
					{
						key: "file",
						value: {
							path: "after.txt",
							content: Buffer.from("upgraded\n").toString("base64"),
							encoding: "base64",
						},
					},
				]
					.map((line) => JSON.stringify(line))
					.join("\n"),
			});
			expect(commit.status).toBe(200);
			const commitId = ((await commit.json()) as { commitOid: string }).commitOid;
			const after = await fetch(`${hub.url}/alice/tiny-xet/resolve/main/after.txt`);
			expect(after.headers.get("x-repo-commit")).toBe(commitId);
			expect(await after.text()).toBe("upgraded\n");
			// The commit's parent is the fixture's head of main, and the history goes on below it.
			const history = (await (
				await fetch(`${hub.url}/api/models/alice/tiny-xet/commits/main`)
			).json()) as Array<{ id: string; title: string }>;
			expect(history.map((entry) => entry.title).slice(0, 3)).toEqual([
				"After the upgrade",
				"Copy and prune",
				"Delete extra/notes/drop.txt with huggingface_hub",
			]);

			// Through huggingface_hub (Xet), by an organisation member, into a private repository.
			const dir = mkdtempSync(join(tmpdir(), "modelhub-upgrade-client-"));
			try {
				const path = join(dir, "extra.safetensors");
				const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 251));
				writeFileSync(path, bytes);
				const uploaded = await runHubClient<{ result: { ok?: string } }>(
					"upload_path",
					hub.url,
					join(dir, "work"),
					{ token: recording.tokens.carol, repo: "acme/Shared-Model", path },
					{},
					"hf_hub_sharing.py",
				);
				expect(uploaded.result.ok).toMatch(/^[0-9a-f]{40}$/);
				const download = await fetch(`${hub.url}/acme/Shared-Model/resolve/main/extra.safetensors`, {
					headers: { authorization: `Bearer ${recording.tokens.dave}` },
				});
				expect(download.status).toBe(200);
				expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
				const hidden = await fetch(`${hub.url}/acme/Shared-Model/resolve/main/extra.safetensors`);
				expect(hidden.status).toBe(404);
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}

			const branch = await fetch(`${hub.url}/api/models/alice/tiny-lfs/branch/after-upgrade`, {
				method: "POST",
				headers: { authorization: `Bearer ${alice}`, "content-type": "application/json" },
				body: JSON.stringify({ startingPoint: "v0.1" }),
			});
			expect(branch.status).toBe(200);
			const created = await fetch(`${hub.url}/api/repos/create`, {
				method: "POST",
				headers: { authorization: `Bearer ${alice}`, "content-type": "application/json" },
				body: JSON.stringify({ name: "after-upgrade", private: true }),
			});
			expect(created.status).toBe(200);
			// A repository of the fixture can be deleted (its rows in every table go with it) and made again.
			for (const step of ["delete", "create"] as const) {
				const response = await fetch(`${hub.url}/api/repos/${step}`, {
					method: step === "delete" ? "DELETE" : "POST",
					headers: { authorization: `Bearer ${alice}`, "content-type": "application/json" },
					body: JSON.stringify({ name: "tiny-lfs" }),
				});
				expect(response.status, step).toBe(200);
			}
			const remade = (await (await fetch(`${hub.url}/api/models/alice/tiny-lfs/refs`)).json()) as {
				branches: Array<{ name: string }>;
				tags: unknown[];
			};
			expect(remade.branches.map((entry) => entry.name)).toEqual(["main"]);
			expect(remade.tags).toEqual([]);
		}, 180_000);
	});
}

defineUpgradeSuite("PGlite (data folder)", async () => {
	const dataDir = mkdtempSync(join(tmpdir(), "modelhub-upgrade-pglite-"));
	const old = await openPglite(dataDir);
	try {
		await loadFixture(old);
	} finally {
		await old.close();
	}
	return {
		open: () => openDatabase({ databaseUrl: undefined, dataDir }),
		remove: () => rmSync(dataDir, { recursive: true, force: true }),
	};
});

defineUpgradeSuite("PostgreSQL", async () => {
	const cluster: PostgresCluster = await startPostgresCluster();
	const url = await cluster.createDatabase("upgrade");
	const old = await openPostgres(url);
	try {
		await loadFixture(old);
	} finally {
		await old.close();
	}
	return {
		open: () => openDatabase({ databaseUrl: url, dataDir: "memory://" }),
		remove: () => cluster.stop(),
	};
});
