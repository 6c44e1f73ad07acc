import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "../src/db/migrations.js";
import { openPostgres } from "../src/db/postgres.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { defineHfClientSuite } from "./support/hf-client-suite.js";
import { ADMIN_TOKEN, defineHubSuite } from "./support/hub-suite.js";
import { callHub, createUser, startHub } from "./support/hub.js";
import { openBlobStore } from "../src/storage/open.js";
import { parseModelList } from "../src/models/input.js";
import { saveModels } from "../src/services/import.js";
import { buildCli } from "./support/build-cli.mjs";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres.js";
import { defineSharingSuite } from "./support/sharing-suite.js";
import { defineDatasetSuite } from "./support/datasets-suite.js";

// A real PostgreSQL server, started for this file from Debian's binaries and removed afterwards. When
// the binaries are missing the suite fails (it is never skipped): install postgresql.
let cluster: PostgresCluster | undefined;
let clusterError: unknown;
const ready = startPostgresCluster().then(
	(started) => {
		cluster = started;
	},
	(error: unknown) => {
		clusterError = error;
	},
);

async function freshDatabase(name: string): Promise<string> {
	await ready;
	if (!cluster) throw clusterError instanceof Error ? clusterError : new Error(String(clusterError));
	return cluster.createDatabase(name);
}

afterAll(() => cluster?.stop());

describe("PostgreSQL cluster", () => {
	it("is available (install Debian's postgresql package when this fails)", async () => {
		await ready;
		if (clusterError) throw clusterError;
		expect(cluster).toBeDefined();
	});
});

defineHubSuite("PostgreSQL", async () =>
	openDatabase({ databaseUrl: await freshDatabase("hub_suite"), dataDir: "memory://" }),
);

// The client suites run under both huggingface_hub generations over PGlite; over PostgreSQL the database
// is what differs, so the current generation (2.x) suffices.
defineHfClientSuite(
	"PostgreSQL",
	async () => openDatabase({ databaseUrl: await freshDatabase("hf_client"), dataDir: "memory://" }),
	["hub2"],
);

defineSharingSuite(
	"PostgreSQL",
	async () => openDatabase({ databaseUrl: await freshDatabase("sharing"), dataDir: "memory://" }),
	["hub2"],
);

// Datasets' own SQL (info, listings, derived tags) over PostgreSQL; the datasets library's runs are the
// client's business and stay on PGlite.
defineDatasetSuite(
	"PostgreSQL",
	async () => openDatabase({ databaseUrl: await freshDatabase("datasets"), dataDir: "memory://" }),
	{ generations: ["hub2"], datasetsLibrary: false },
);

describe("several hub processes on one PostgreSQL database", () => {
	let url: string;
	let dbs: Database[] = [];

	beforeAll(async () => {
		url = await freshDatabase("hub_shared");
	});

	afterAll(async () => {
		await Promise.all(dbs.map((db) => db.close()));
		dbs = [];
	});

	it("migrate and seed once when they start together, and see each other's writes", async () => {
		dbs = await Promise.all([0, 1, 2].map(() => openDatabase({ databaseUrl: url, dataDir: "memory://" })));
		const hubs = await Promise.all(dbs.map((db) => startHub({ db, adminToken: ADMIN_TOKEN })));
		try {
			const migrations = await dbs[0]!.query<{ version: number }>("SELECT version FROM modelhub_migrations");
			expect(migrations.rows).toHaveLength(MIGRATIONS.length);
			const [a, b] = hubs as [(typeof hubs)[0], (typeof hubs)[0]];
			const path = "/api/models/openai/whisper-large-v3?expand[]=inferenceProviderMapping";
			// Warm hub B's cache, write through hub A, read through hub B.
			const before = (await (await fetch(`${b.url}${path}`)).json()) as { downloads: number };
			const put = await fetch(`${a.url}/api/models/openai/whisper-large-v3`, {
				method: "PUT",
				headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
				body: JSON.stringify({
					pipeline_tag: "automatic-speech-recognition",
					tags: [],
					downloads: before.downloads + 1,
				}),
			});
			expect(put.status).toBe(200);
			let after = before.downloads;
			for (let attempt = 0; attempt < 50 && after === before.downloads; attempt++) {
				await new Promise((resolve) => setTimeout(resolve, 20));
				after = ((await (await fetch(`${b.url}${path}`)).json()) as { downloads: number }).downloads;
			}
			expect(after).toBe(before.downloads + 1);
			const count = await dbs[0]!.query<{ count: number }>(
				"SELECT count(*) AS count FROM repos WHERE type = 'model'",
			);
			const seeded = await dbs[0]!.query<{ value: string }>(
				"SELECT value FROM hub_meta WHERE key = 'seeded_at'",
			);
			expect(seeded.rows).toHaveLength(1);
			expect(Number(count.rows[0]?.count)).toBeGreaterThanOrEqual(220);
		} finally {
			await Promise.all(hubs.map((hub) => hub.close()));
		}
	});
});

describe("hub processes serving files from one PostgreSQL database", () => {
	it("hear each other's commits and visibility changes: a cached revision is forgotten at once", async () => {
		const url = await freshDatabase("hub_serving");
		const dbs = await Promise.all([0, 1].map(() => openDatabase({ databaseUrl: url, dataDir: "memory://" })));
		// One file store for both, as hubs sharing a database share their storage.
		const storage = await openBlobStore({ kind: "disk", dir: undefined });
		const [a, b] = await Promise.all(
			dbs.map((db) => startHub({ db, storage, adminToken: ADMIN_TOKEN, seed: false, logLevel: "silent" })),
		);
		try {
			const json = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
			const user = await fetch(`${a!.url}/api/admin/users`, {
				method: "POST",
				headers: json,
				body: JSON.stringify({ name: "carol" }),
			});
			const { token } = (await user.json()) as { token: string };
			const auth = { authorization: `Bearer ${token}` };
			const created = await fetch(`${a!.url}/api/repos/create`, {
				method: "POST",
				headers: { ...auth, "content-type": "application/json" },
				body: JSON.stringify({ name: "served" }),
			});
			expect(created.status).toBe(200);
			const commit = async (text: string): Promise<string> => {
				const res = await fetch(`${a!.url}/api/models/carol/served/commit/main`, {
					method: "POST",
					headers: { ...auth, "content-type": "application/x-ndjson" },
					body: [
						{ key: "header", value: { summary: text } },
						{ key: "file", value: { path: "config.json", content: Buffer.from(text).toString("base64") } },
					]
						.map((line) => JSON.stringify(line))
						.join("\n"),
				});
				expect(res.status).toBe(200);
				return ((await res.json()) as { commitOid: string }).commitOid;
			};
			/** What hub B answers, once it answers `expected` (bounded: 1 s), or its last answer. */
			const fromB = async (expected: (res: Response) => boolean): Promise<Response> => {
				let res = await fetch(`${b!.url}/carol/served/resolve/main/config.json`);
				for (let attempt = 0; attempt < 50 && !expected(res); attempt++) {
					await new Promise((resolve) => setTimeout(resolve, 20));
					res = await fetch(`${b!.url}/carol/served/resolve/main/config.json`);
				}
				return res;
			};
			const first = await commit("one");
			expect((await fromB((res) => res.headers.get("x-repo-commit") === first)).status).toBe(200);
			// Hub B now answers from memory; a commit through hub A moves main.
			const second = await commit("two");
			const moved = await fromB((res) => res.headers.get("x-repo-commit") === second);
			expect(moved.headers.get("x-repo-commit")).toBe(second);
			expect(await moved.text()).toBe("two");
			const hidden = await fetch(`${a!.url}/api/models/carol/served/settings`, {
				method: "PUT",
				headers: { ...auth, "content-type": "application/json" },
				body: JSON.stringify({ private: true }),
			});
			expect(hidden.status).toBe(200);
			expect((await fromB((res) => res.status === 404)).status).toBe(404);
		} finally {
			await Promise.all([a, b].map((hub) => hub?.close()));
			await storage.close();
			await Promise.all(dbs.map((db) => db.close()));
		}
	});
});

describe("writes and outages on PostgreSQL", () => {
	let db: Database;
	let hub: Awaited<ReturnType<typeof startHub>>;

	beforeAll(async () => {
		db = await openDatabase({ databaseUrl: await freshDatabase("hub_races"), dataDir: "memory://" });
		hub = await startHub({ db, adminToken: ADMIN_TOKEN, seed: false, logLevel: "silent" });
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
	});

	const put = (id: string, body: Record<string, unknown>) =>
		fetch(`${hub.url}/api/models/${id}`, {
			method: "PUT",
			headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
			body: JSON.stringify(body),
		});

	it("serialise concurrent creates of one id: one 201, the rest 200, no deadlock and no 5xx", async () => {
		const statuses = await Promise.all(
			Array.from({ length: 24 }, (_, index) =>
				put("race/same-model", {
					tags: [`t${index}`],
					downloads: index,
					inferenceProviderMapping: {
						groq: { providerId: `m${index}`, task: "conversational", status: "live" },
					},
				}).then(async (res) => {
					await res.arrayBuffer();
					return res.status;
				}),
			),
		);
		expect(
			statuses.filter((status) => status === 201),
			JSON.stringify(statuses),
		).toHaveLength(1);
		expect(statuses.filter((status) => status === 200)).toHaveLength(23);
		const commits = await db.query(
			"SELECT id FROM commits WHERE repo_type = 'model' AND repo_id = 'race/same-model'",
		);
		expect(commits.rows).toHaveLength(1);
		const mappings = await db.query(
			"SELECT provider FROM provider_mappings WHERE repo_type = 'model' AND repo_id = 'race/same-model'",
		);
		expect(mappings.rows).toHaveLength(1);
		// Ids that differ only in case race too: one wins, the others get 409, never 500.
		const cased = await Promise.all(
			["race/Case", "race/CASE", "race/case", "RACE/case"].map((id) =>
				put(id, { tags: [] }).then(async (res) => {
					await res.arrayBuffer();
					return res.status;
				}),
			),
		);
		expect(cased.filter((status) => status === 201)).toHaveLength(1);
		expect(cased.filter((status) => status === 409)).toHaveLength(3);
	});

	it("answer every PUT racing a DELETE of the same repository with its documented JSON body", async () => {
		// Before: the admin PUT read its answer after its commit, and a DELETE committing in between left
		// nothing to read: 201/200 with an empty body (2 of 300 in the hostile review).
		const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
		const problems: string[] = [];
		const answer = async (what: string, response: Promise<Response>, expected: Record<number, string>) => {
			const res = await response;
			const text = await res.text();
			let body: unknown;
			try {
				body = JSON.parse(text);
			} catch {
				problems.push(`${what}: ${res.status} with a body that is not JSON: ${JSON.stringify(text)}`);
				return;
			}
			const field = expected[res.status];
			if (field === undefined || typeof body !== "object" || body === null || !(field in body)) {
				problems.push(`${what}: ${res.status} ${text.slice(0, 200)}`);
			}
		};
		const rounds = 300;
		for (let start = 0; start < rounds; start += 10) {
			await Promise.all(
				Array.from({ length: 10 }, async (_, offset) => {
					const id = `race-delete/model-${start + offset}`;
					await answer(`create ${id}`, put(id, { tags: [] }), { 201: "id" });
					await Promise.all([
						answer(`put ${id}`, put(id, { tags: ["again"], downloads: 3 }), { 200: "id", 201: "id" }),
						answer(
							`delete ${id}`,
							fetch(`${hub.url}/api/models/${id}`, { method: "DELETE", headers: admin }),
							{ 200: "deleted", 404: "error" },
						),
					]);
					// Visibility changed while the repository is deleted (update_repo_settings vs delete_repo).
					const repo = `race-delete/repo-${start + offset}`;
					await answer(`create ${repo}`, put(repo, { tags: [] }), { 201: "id" });
					await Promise.all([
						answer(
							`settings ${repo}`,
							fetch(`${hub.url}/api/models/${repo}/settings`, {
								method: "PUT",
								headers: { ...admin, "content-type": "application/json" },
								body: JSON.stringify({ private: true }),
							}),
							{ 200: "private", 404: "error" },
						),
						answer(
							`delete ${repo}`,
							fetch(`${hub.url}/api/repos/delete`, {
								method: "DELETE",
								headers: { ...admin, "content-type": "application/json" },
								body: JSON.stringify({
									type: "model",
									organization: "race-delete",
									name: `repo-${start + offset}`,
								}),
							}),
							{ 200: "deleted", 404: "error" },
						),
					]);
				}),
			);
		}
		expect(problems).toEqual([]);
	}, 300_000);

	it("serialise moves racing to one new id, and a move racing the delete of its source: one wins, no 5xx", async () => {
		const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
		const answer = async (response: Promise<Response>) => {
			const res = await response;
			const text = await res.text();
			return { status: res.status, text, json: JSON.parse(text) as Record<string, unknown> };
		};
		const move = (fromRepo: string, toRepo: string) =>
			answer(
				fetch(`${hub.url}/api/repos/move`, {
					method: "POST",
					headers: admin,
					body: JSON.stringify({ fromRepo, toRepo }),
				}),
			);
		const status = async (id: string) =>
			(await fetch(`${hub.url}/api/models/${id}`, { redirect: "manual" })).status;

		// Eight repositories moved to one free id at once: the transactions serialise on it.
		const sources = Array.from({ length: 8 }, (_, index) => `race-move/source-${index}`);
		for (const id of sources) expect((await put(id, { tags: [] })).status).toBe(201);
		const answers = await Promise.all(sources.map((id) => move(id, "race-move/target")));
		const statuses = answers.map((a) => a.status);
		expect([...statuses].sort(), JSON.stringify(answers)).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
		for (const refused of answers.filter((a) => a.status === 409))
			expect(refused.json.error).toEqual(expect.any(String));
		const winner = sources[statuses.indexOf(200)]!;
		expect(await status("race-move/target")).toBe(200);
		expect(await status(winner)).toBe(307);
		for (const id of sources.filter((id) => id !== winner)) expect(await status(id)).toBe(200);

		// A move racing the delete of its source: whichever commits first, the other finds no repository.
		for (let round = 0; round < 10; round++) {
			const id = `race-move/doomed-${round}`;
			const to = `race-move/saved-${round}`;
			expect((await put(id, { tags: [] })).status).toBe(201);
			const [moved, deleted] = await Promise.all([
				move(id, to),
				answer(
					fetch(`${hub.url}/api/models/${id}`, {
						method: "DELETE",
						headers: { authorization: admin.authorization },
					}),
				),
			]);
			expect([moved.status, deleted.status].sort(), `${moved.text} / ${deleted.text}`).toEqual([200, 404]);
			expect(await status(to)).toBe(moved.status === 200 ? 200 : 404);
			expect(await status(id)).toBe(moved.status === 200 ? 307 : 404);
		}
	}, 120_000);

	it("land every one of concurrent commits to one branch (each on the one before, none lost)", async () => {
		const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
		const created = await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: { ...admin, "content-type": "application/json" },
			body: JSON.stringify({ name: "landings", organization: "race" }),
		});
		expect(created.status).toBe(200);
		const statuses = await Promise.all(
			Array.from({ length: 12 }, (_, index) =>
				fetch(`${hub.url}/api/models/race/landings/commit/main`, {
					method: "POST",
					headers: { ...admin, "content-type": "application/x-ndjson" },
					body: [
						{ key: "header", value: { summary: `Add file ${index}` } },
						{
							key: "file",
							value: {
								path: `files/${index}.txt`,
								content: Buffer.from(`${index}\n`).toString("base64"),
								encoding: "base64",
							},
						},
					]
						.map((line) => JSON.stringify(line))
						.join("\n"),
				}).then(async (res) => {
					await res.arrayBuffer();
					return res.status;
				}),
			),
		);
		expect(statuses).toEqual(Array(12).fill(200));
		const tree = (await (
			await fetch(`${hub.url}/api/models/race/landings/tree/main/files`)
		).json()) as Array<{
			path: string;
		}>;
		expect(tree).toHaveLength(12);
		const history = (await (
			await fetch(`${hub.url}/api/models/race/landings/commits/main`)
		).json()) as unknown[];
		expect(history).toHaveLength(13);
	});

	it("take account commands from the CLI over DATABASE_URL while the hub runs", async () => {
		const cli = await buildCli("postgres-accounts");
		await ready;
		const databaseUrl = cluster!.url("hub_races");
		const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
			const child = spawn(process.execPath, [cli, "user", "create", "pgcli", "--json"], {
				env: { PATH: process.env.PATH ?? "", DATABASE_URL: databaseUrl, MODELHUB_LOG_LEVEL: "warn" },
				stdio: ["ignore", "pipe", "pipe"],
			});
			let output = "";
			child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
			child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
			child.on("exit", (code) => resolve({ code, output }));
		});
		expect(result.code, result.output).toBe(0);
		const { token } = JSON.parse(result.output) as { token: string };
		const whoami = await fetch(`${hub.url}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } });
		expect(whoami.status).toBe(200);
		expect(((await whoami.json()) as { name: string }).name).toBe("pgcli");
	}, 120_000);

	it("answer 503 with Retry-After while the database is down, and recover when it is back", async () => {
		expect((await fetch(`${hub.url}/api/models/race/same-model`)).status).toBe(200);
		await ready;
		cluster!.pause();
		try {
			for (const path of [
				"/api/models/race/other",
				"/api/models?search=zzz",
				"/healthz",
				"/race/same-model/resolve/main/README.md",
			]) {
				const started = Date.now();
				const res = await fetch(`${hub.url}${path}`);
				expect(res.status, path).toBe(503);
				expect(res.headers.get("retry-after"), path).toBe("5");
				await res.arrayBuffer();
				expect(Date.now() - started, path).toBeLessThan(10_000);
			}
		} finally {
			cluster!.resume();
		}
		let status = 0;
		for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
			status = (await fetch(`${hub.url}/api/models/race/same-model?expand[]=sha`)).status;
			if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
		}
		expect(status).toBe(200);
	}, 60_000);
});

/**
 * Issue 24's races over PostgreSQL, where requests run in transactions of their own at once (PGlite runs
 * one at a time: test/discussions.test.ts has the same races there). Each is repeated so that the
 * interleavings vary: two merges of one pull request, a merge while a commit lands on its target, comments
 * while the repository is deleted, and webhook deliveries claimed by two hub processes.
 */
describe("pull requests, discussions and webhooks racing on PostgreSQL", () => {
	const ROUNDS = 10;
	let db: Database;
	let hub: Awaited<ReturnType<typeof startHub>>;
	let alice = "";
	let bob = "";

	beforeAll(async () => {
		db = await openDatabase({ databaseUrl: await freshDatabase("community_races"), dataDir: "memory://" });
		hub = await startHub({ db, adminToken: ADMIN_TOKEN, seed: false, logLevel: "silent" });
		alice = await createUser(hub.url, ADMIN_TOKEN, "alice");
		bob = await createUser(hub.url, ADMIN_TOKEN, "bob");
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
	});

	/** One request to the hub (or to `hubUrl`), as support/hub.ts's callHub sends it. */
	const call = (method: string, path: string, token: string, body?: unknown, hubUrl = hub.url) =>
		callHub(hubUrl, method, path, token, body);

	/** One file committed to `repo`'s main as huggingface_hub sends it (NDJSON), or opened as a pull request. */
	function commit(
		repo: string,
		path: string,
		text: string,
		createPr = false,
		hubUrl = hub.url,
		token = alice,
	) {
		const lines = [
			{ key: "header", value: { summary: `Write ${path}`, description: "" } },
			{ key: "file", value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" } },
		];
		return call(
			"POST",
			`/api/models/${repo}/commit/main${createPr ? "?create_pr=1" : ""}`,
			token,
			lines.map((line) => JSON.stringify(line)).join("\n"),
			hubUrl,
		);
	}

	async function create(name: string): Promise<string> {
		const created = await call("POST", "/api/repos/create", alice, { name });
		expect(created.status, created.text).toBe(200);
		return `alice/${name}`;
	}

	async function history(repo: string): Promise<string[]> {
		const res = await call("GET", `/api/models/${repo}/commits/main`, alice);
		expect(res.status, res.text).toBe(200);
		return (JSON.parse(res.text) as Array<{ id: string }>).map((entry) => entry.id);
	}

	async function mainFile(repo: string, path: string): Promise<string> {
		const res = await fetch(`${hub.url}/${repo}/resolve/main/${path}`, {
			headers: { authorization: `Bearer ${alice}` },
		});
		expect(res.status, path).toBe(200);
		return res.text();
	}

	it(`merge a pull request once when two merges race (${ROUNDS} rounds): one 200, the other 409 already merged`, async () => {
		for (let round = 0; round < ROUNDS; round++) {
			const repo = await create(`twice-${round}`);
			const opened = await commit(repo, "p.txt", `p ${round}\n`, true);
			expect(opened.status, opened.text).toBe(200);
			const merges = await Promise.all([
				call("POST", `/api/models/${repo}/discussions/1/merge`, alice),
				call("POST", `/api/models/${repo}/discussions/1/merge`, alice),
			]);
			expect(
				merges.map((m) => m.status).sort(),
				merges.map((m) => `${m.status} ${m.text}`).join(" / "),
			).toEqual([200, 409]);
			expect(merges.find((m) => m.status === 409)?.json.error).toBe("Pull request #1 is already merged");
			const merged = merges.find((m) => m.status === 200)?.json.mergeCommitId;
			// Merged once: one status change, one commit on main (the pull request's, fast-forwarded).
			const changes = await db.query<{ n: number | string }>(
				`SELECT count(*) AS n FROM discussion_events
				WHERE repo_type = 'model' AND repo_id = $1 AND num = 1 AND type = 'status-change'`,
				[repo],
			);
			expect(Number(changes.rows[0]?.n)).toBe(1);
			const commits = await history(repo);
			expect(commits[0]).toBe(merged);
			expect(commits).toHaveLength(2);
			expect(await mainFile(repo, "p.txt")).toBe(`p ${round}\n`);
		}
	}, 120_000);

	it(`merge a pull request while a commit lands on main (${ROUNDS} rounds): merged over it or refused as a conflict, never a lost commit`, async () => {
		const outcomes: string[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			// Even rounds: the two touch different files (both land). Odd rounds: the same file differently
			// (whichever is second: the commit lands on the merge, or the merge is refused as a conflict).
			const clash = round % 2 === 1;
			const repo = await create(`over-${round}`);
			// main moves once after the pull request opens, so the merge is a merge commit, not a fast-forward.
			expect((await commit(repo, "shared.txt", "base\n")).status).toBe(200);
			const opened = await commit(repo, clash ? "shared.txt" : "pr.txt", "from the pull request\n", true);
			expect(opened.status, opened.text).toBe(200);
			expect((await commit(repo, "other.txt", "moved main\n")).status).toBe(200);
			const [landed, merged] = await Promise.all([
				commit(repo, clash ? "shared.txt" : "main.txt", "from main\n"),
				call("POST", `/api/models/${repo}/discussions/1/merge`, alice),
			]);
			expect(landed.status, landed.text).toBe(200);
			const commits = await history(repo);
			expect(commits).toContain(landed.json.commitOid);
			if (merged.status === 200) {
				expect(commits).toContain(merged.json.mergeCommitId);
				expect(commits).toHaveLength(5);
				if (!clash) {
					expect(await mainFile(repo, "pr.txt")).toBe("from the pull request\n");
					expect(await mainFile(repo, "main.txt")).toBe("from main\n");
				} else {
					// The commit landed after the merge, on it: its text is main's.
					expect(commits[0]).toBe(landed.json.commitOid);
					expect(await mainFile(repo, "shared.txt")).toBe("from main\n");
				}
				outcomes.push(clash ? "clash: merged, then the commit" : "merged with the commit");
			} else {
				expect(clash, `${merged.status} ${merged.text}`).toBe(true);
				expect(merged.status, merged.text).toBe(409);
				expect(merged.json.error).toBe(
					"Pull request #1 cannot be merged: 1 file(s) changed on main since it was opened conflict with it (shared.txt). Update the pull request on top of main (commit to refs/pr/1) and merge again",
				);
				expect(commits).toHaveLength(4);
				expect(commits[0]).toBe(landed.json.commitOid);
				expect(await mainFile(repo, "shared.txt")).toBe("from main\n");
				outcomes.push("clash: refused");
			}
			expect(await mainFile(repo, "other.txt")).toBe("moved main\n");
		}
		expect(outcomes.filter((o) => o === "merged with the commit")).toHaveLength(ROUNDS / 2);
	}, 120_000);

	it(`answer comments racing the delete of their repository with 200 or 404 (${ROUNDS} rounds), leaving no discussion behind`, async () => {
		for (let round = 0; round < ROUNDS; round++) {
			const name = `doomed-${round}`;
			const repo = await create(name);
			const opened = await call("POST", `/api/models/${repo}/discussions`, bob, {
				title: "Before it goes",
				description: "hi",
			});
			expect(opened.json.num, opened.text).toBe(1);
			const results = await Promise.all([
				call("DELETE", "/api/repos/delete", alice, { name }),
				...Array.from({ length: 6 }, (_, i) =>
					call("POST", `/api/models/${repo}/discussions/1/comment`, bob, { comment: `comment ${i}` }),
				),
			]);
			expect(results[0]?.status, results[0]?.text).toBe(200);
			for (const result of results.slice(1)) {
				expect([200, 404], `${result.status} ${result.text}`).toContain(result.status);
			}
			const late = await call("POST", `/api/models/${repo}/discussions/1/comment`, bob, { comment: "late" });
			expect(late.status, late.text).toBe(404);
			expect(late.json.error).toBe("Repository not found");
		}
		const orphans = await db.query<{ discussions: number | string; events: number | string }>(
			`SELECT (SELECT count(*) FROM discussions d WHERE NOT EXISTS (
					SELECT 1 FROM repos r WHERE r.type = d.repo_type AND r.id = d.repo_id)) AS discussions,
				(SELECT count(*) FROM discussion_events e WHERE NOT EXISTS (
					SELECT 1 FROM discussions d WHERE d.repo_type = e.repo_type AND d.repo_id = e.repo_id
						AND d.num = e.num)) AS events`,
		);
		expect([Number(orphans.rows[0]?.discussions), Number(orphans.rows[0]?.events)]).toEqual([0, 0]);
		const left = await db.query("SELECT 1 FROM discussions WHERE repo_id LIKE 'alice/doomed-%'");
		expect(left.rows).toHaveLength(0);
	}, 120_000);
});

describe("webhook deliveries of two hub processes on one PostgreSQL database", () => {
	it("are each sent once: a delivery is claimed by one process (10 rounds of commits through both)", async () => {
		const url = await freshDatabase("webhook_claims");
		const storage = await openBlobStore({ kind: "disk", dir: undefined });
		const webhooks = { allowedHosts: "127.0.0.1" };
		// A real receiver counting what it is sent, by the commit each delivery tells of.
		const received = new Map<string, number>();
		let total = 0;
		const receiver = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on("data", (chunk: Buffer) => chunks.push(chunk));
			request.on("end", () => {
				const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
					event: { action: string; scope: string };
					repo: { name: string };
					updatedRefs?: Array<{ newSha: string }>;
				};
				// What the delivery tells of: the repository, and its commit or its creation. (Repositories made
				// in one second by one author have the same commits: the name tells them apart.)
				const told = `${body.repo.name} ${body.updatedRefs?.[0]?.newSha ?? body.event.action}`;
				received.set(told, (received.get(told) ?? 0) + 1);
				total++;
				// Answered on a later turn, so that a second claim has time to happen while this one is sent.
				setImmediate(() => response.writeHead(200).end("ok"));
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
		const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
		const dbs = await Promise.all([0, 1].map(() => openDatabase({ databaseUrl: url, dataDir: "memory://" })));
		const hubs: Array<Awaited<ReturnType<typeof startHub>>> = [];
		try {
			const start = (db: Database) =>
				startHub({ db, storage, adminToken: ADMIN_TOKEN, seed: false, logLevel: "silent", webhooks });
			hubs.push(await start(dbs[0]!));
			const token = await createUser(hubs[0]!.url, ADMIN_TOKEN, "dora");
			const auth = { authorization: `Bearer ${token}` };
			const made = await fetch(`${hubs[0]!.url}/api/settings/webhooks`, {
				method: "POST",
				headers: { ...auth, "content-type": "application/json" },
				body: JSON.stringify({ url: target, watched: [{ type: "user", name: "dora" }], domains: ["repo"] }),
			});
			expect(made.status, await made.clone().text()).toBe(200);
			// Started once the webhook exists: it knows at start that events are watched.
			hubs.push(await start(dbs[1]!));
			const repos = Array.from({ length: 6 }, (_, index) => `claims-${index}`);
			for (const name of repos) {
				const created = await fetch(`${hubs[0]!.url}/api/repos/create`, {
					method: "POST",
					headers: { ...auth, "content-type": "application/json" },
					body: JSON.stringify({ name }),
				});
				expect(created.status).toBe(200);
			}
			const commits: string[] = [];
			for (let round = 0; round < 10; round++) {
				// A commit to each repository at once, half through each hub: both send what is due.
				const oids = await Promise.all(
					repos.map(async (name, index) => {
						const res = await fetch(`${hubs[index % 2]!.url}/api/models/dora/${name}/commit/main`, {
							method: "POST",
							headers: { ...auth, "content-type": "application/x-ndjson" },
							body: [
								{ key: "header", value: { summary: `Round ${round}` } },
								{
									key: "file",
									value: {
										path: "round.txt",
										content: Buffer.from(`${round}\n`).toString("base64"),
										encoding: "base64",
									},
								},
							]
								.map((line) => JSON.stringify(line))
								.join("\n"),
						});
						const text = await res.text();
						expect(res.status, text).toBe(200);
						return `dora/${name} ${(JSON.parse(text) as { commitOid: string }).commitOid}`;
					}),
				);
				commits.push(...oids);
			}
			// Every delivery finished (polled, bounded), then both hubs stopped: nothing is in flight. (Fewer
			// than the log's 100 entries per webhook: none is trimmed.)
			let open = -1;
			for (let attempt = 0; attempt < 300 && open !== 0; attempt++) {
				const rows = await dbs[0]!.query<{ n: number | string }>(
					"SELECT count(*) AS n FROM webhook_deliveries WHERE status <> 'delivered'",
				);
				open = Number(rows.rows[0]?.n);
				if (open !== 0) await new Promise((resolve) => setTimeout(resolve, 50));
			}
			expect(open).toBe(0);
			await Promise.all(hubs.splice(0).map((hub) => hub.close()));
			const rows = await dbs[0]!.query<{ n: number | string; attempts: number | string }>(
				"SELECT count(*) AS n, max(attempts) AS attempts FROM webhook_deliveries",
			);
			const stored = Number(rows.rows[0]?.n);
			expect(stored).toBeGreaterThanOrEqual(repos.length + commits.length);
			expect(stored).toBeLessThan(100);
			expect(Number(rows.rows[0]?.attempts)).toBe(1);
			const twice = [...received].filter(([, count]) => count !== 1);
			expect(twice, `sent more than once: ${JSON.stringify(twice)}`).toEqual([]);
			for (const sent of commits) expect(received.get(sent), sent).toBe(1);
			expect(total).toBe(stored);
		} finally {
			await Promise.all(hubs.map((hub) => hub.close()));
			await Promise.all(dbs.map((db) => db.close()));
			await storage.close();
			receiver.closeAllConnections();
			await new Promise((resolve) => receiver.close(resolve));
		}
	}, 180_000);
});

describe("migrations on PostgreSQL", () => {
	it("run without the pool's statement timeout (a migration of a million rows takes minutes)", async () => {
		const pool = await openPostgres(await freshDatabase("migration_timeout"));
		try {
			// Migration 11 ran 79 s at 1,000,000 models and was cancelled at the pool's 30 s (issue 21).
			const ran = await migrate(pool, [
				{
					version: 1,
					name: "checks the timeout it runs under",
					sql: `DO $$ BEGIN
	IF current_setting('statement_timeout') <> '0' THEN
		RAISE EXCEPTION 'migration runs under statement_timeout %', current_setting('statement_timeout');
	END IF;
END $$;`,
				},
			]);
			expect(ran).toEqual([1]);
			// Requests keep their cut-off: the setting was the migration transaction's only.
			const setting = await pool.query<{ statement_timeout: string }>("SHOW statement_timeout");
			expect(setting.rows[0]?.statement_timeout).toBe("30s");
		} finally {
			await pool.close();
		}
	});
});

describe("the read queries' shape on PostgreSQL (issue 21: 1,000,000 models at 50 connections)", () => {
	let db: Database;
	let hub: Awaited<ReturnType<typeof startHub>>;
	/** Every statement the hub sends outside transactions, with its parameters, while `recording`. */
	const statements: { sql: string; params: readonly unknown[] }[] = [];
	let recording = false;

	beforeAll(async () => {
		db = await openDatabase({ databaseUrl: await freshDatabase("query_shapes"), dataDir: "memory://" });
		const recorded: Database = {
			...db,
			query: (sql, params, options) => {
				if (recording) statements.push({ sql, params: params ?? [] });
				return db.query(sql, params, options);
			},
		};
		hub = await startHub({ db: recorded, cacheBytes: 0, logLevel: "silent" });
		// The visibility map and statistics a hub at rest has (autovacuum's work, done now).
		await db.exec("VACUUM ANALYZE repos");
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
	});

	async function recordedStatements(path: string) {
		statements.length = 0;
		recording = true;
		try {
			const response = await fetch(`${hub.url}${path}`);
			expect(response.status).toBe(200);
			await response.arrayBuffer();
		} finally {
			recording = false;
		}
		return [...statements];
	}

	async function plan(statement: { sql: string; params: readonly unknown[] }): Promise<string> {
		const result = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN ${statement.sql}`, statement.params);
		return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
	}

	it("look a model up in one statement (the model with its main commit and root tree), by index", async () => {
		const lookup = await recordedStatements("/api/models/openai/whisper-large-v3");
		// Three in an earlier build: the model, its file list, then whether its main commit was an
		// import's; then two: the model with its main commit, then its root tree's id (issue 21).
		expect(lookup).toHaveLength(1);
		expect(lookup[0]!.sql).toMatch(/LEFT JOIN trees t ON t\.oid = c\.tree_id/);
		const first = await plan(lookup[0]!);
		expect(first).toMatch(/Index Scan using repos_id_lower/);
		expect(first).not.toMatch(/Seq Scan on repos/);
	});

	it("search by walking a sort index alone, reading rows only for the ids that match", async () => {
		// An index-only scan is costed by the visibility map; the tests before this one changed rows that
		// autovacuum has not seen yet (at scale it has), and then the planner would fetch rows instead.
		await db.exec("VACUUM ANALYZE repos");
		for (const sort of ["downloads", "likes", "createdAt"]) {
			const search = await recordedStatements(`/api/models?search=whisper%20large&sort=${sort}&limit=2`);
			// The walk: only an index-only scan may read the walked stretch of the sort index (before, an
			// index scan fetched the row of every walked id, matching or not).
			const walk = await db.transaction(async (tx) => {
				// A table of a few hundred rows is read whole (or by bitmap) and sorted; at scale the planner
				// walks the sort index in order, as these settings make it do here.
				for (const setting of ["enable_seqscan", "enable_bitmapscan", "enable_sort"])
					await tx.query(`SET LOCAL ${setting} = off`);
				const result = await tx.query<{ "QUERY PLAN": string }>(
					`EXPLAIN ${search[0]!.sql}`,
					search[0]!.params,
				);
				return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
			});
			expect(walk, sort).toMatch(/Index Only Scan (Backward )?using repos_sort_/);
			expect(walk, sort).not.toMatch(/Index Scan (Backward )?using repos_sort_/);
		}
	});

	it("walk on after the last match of a search's first stretch, not again from the top", async () => {
		await db.exec("VACUUM ANALYZE repos");
		const every = (await (await fetch(`${hub.url}/api/models?search=whisper`)).json()) as Array<{
			id: string;
		}>;
		expect(every.length).toBeGreaterThan(0);
		// A page one longer than the matches: the first walk ends with its stretch having found some (at
		// a rate that promises a page within the walk's bound), the second goes on.
		const path = `/api/models?search=whisper&limit=${every.length + 1}`;
		const statements = await recordedStatements(path);
		const page = (await (await fetch(`${hub.url}${path}`)).json()) as Array<{ id: string }>;
		expect(page).toEqual(every);
		const last = page[page.length - 1];
		expect(statements.length).toBeGreaterThanOrEqual(2);
		// The second walk starts after the first one's last match (before, issue 21, it walked the first
		// stretch again: the same statement with a longer stretch, none of the first walk's ids bound).
		expect(statements[1]!.params).toContain(last!.id);
		expect(statements[0]!.params).not.toContain(last!.id);
	});

	it("filter by walking the downloads index alone, reading rows only for the ids that match", async () => {
		await db.exec("VACUUM ANALYZE repos");
		const filtered = await recordedStatements(
			"/api/models?filter=text-generation&filter=transformers&limit=2",
		);
		const walk = await db.transaction(async (tx) => {
			// As in the search test: at scale the planner walks the sort index in order.
			for (const setting of ["enable_seqscan", "enable_bitmapscan", "enable_sort"])
				await tx.query(`SET LOCAL ${setting} = off`);
			const result = await tx.query<{ "QUERY PLAN": string }>(
				`EXPLAIN ${filtered[0]!.sql}`,
				filtered[0]!.params,
			);
			return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
		});
		// Before (issue 21), the walk fetched the whole row of every walked id to test its tags.
		expect(walk).toMatch(/Index Only Scan (Backward )?using repos_sort_downloads/);
		expect(walk).not.toMatch(/Index Scan (Backward )?using repos_sort_downloads/);
	});

	it("write each repository row of an import once, its analysis bookkeeping apart", async () => {
		const writes = await saveModels(
			db,
			hub.storage,
			parseModelList([
				{ id: "bulk/one", library_name: "transformers", tags: ["a"] },
				{ id: "bulk/two", pipeline_tag: "fill-mask" },
			]),
			{
				generateFiles: false,
				async readBack(tx) {
					const stats = await tx.query<{ relname: string; ins: number; upd: number }>(
						`SELECT relname, n_tup_ins::int AS ins, n_tup_upd::int AS upd FROM pg_stat_xact_user_tables
						WHERE relname IN ('repos', 'repo_analysis') ORDER BY relname`,
					);
					expect(stats.rows).toEqual(
						expect.arrayContaining([expect.objectContaining({ relname: "repos", ins: 2, upd: 0 })]),
					);
				},
			},
		);
		expect(writes.created).toBe(2);
		// The columns only analysis reads are no longer on the rows every lookup and listing reads.
		const columns = await db.query<{ column_name: string }>(
			"SELECT column_name FROM information_schema.columns WHERE table_name = 'repos'",
		);
		expect(columns.rows.map((row) => row.column_name)).not.toEqual(
			expect.arrayContaining([expect.stringMatching(/^(imported|derived|analysed_commit)$/)]),
		);
		const analysis = await db.query<{ repo_id: string; analysed: boolean; library: unknown }>(
			`SELECT repo_id, analysed_commit IS NOT NULL AS analysed, imported -> 'library_name' AS library
			FROM repo_analysis WHERE repo_id LIKE 'bulk/%' ORDER BY repo_id`,
		);
		expect(analysis.rows).toEqual([
			{ repo_id: "bulk/one", analysed: true, library: "transformers" },
			{ repo_id: "bulk/two", analysed: true, library: null },
		]);
	});

	it("find the same pages as a plain sorted query when the walk goes on past its first stretch", async () => {
		// 30,000 models beside the seed: "needle" in every 250th id (a walk of the first 20,000 ids finds
		// 80, less than a page of 100, so it walks on), "rare" in every 10,000th (collected instead).
		await db.exec(`INSERT INTO repos (type, id, namespace, name, tags, downloads, likes, last_modified, created_at)
			SELECT 'model', 'org-' || (i % 300) || '/' || name, 'org-' || (i % 300), name, '{}', (i::bigint * 7919) % 100003,
				(i::bigint * 104729) % 1009, now(), now()
			FROM (SELECT i, CASE WHEN i % 10000 = 0 THEN 'rare-' WHEN i % 250 = 0 THEN 'needle-' ELSE 'hay-' END || i AS name
				FROM generate_series(1, 30000) i) g`);
		await db.exec("VACUUM ANALYZE repos");
		const expected = async (word: string, sort: string) =>
			(
				await db.query<{ id: string }>(
					`SELECT id FROM repos WHERE type = 'model' AND NOT private AND lower(id) LIKE $1
					ORDER BY ${sort === "likes" ? "likes" : "(downloads + downloads_recent)"} DESC, id DESC`,
					[`%${word}%`],
				)
			).rows.map((row) => row.id);
		for (const [word, sort, statementsPerPage] of [
			["needle", "downloads", 2],
			["needle", "likes", 2],
			["rare", "downloads", 2],
		] as const) {
			const ids: string[] = [];
			let path = `/api/models?search=${word}&sort=${sort}&limit=100`;
			for (let page = 0; page < 5 && path; page++) {
				statements.length = 0;
				recording = true;
				const response = await fetch(`${hub.url}${path}`);
				recording = false;
				expect(response.status).toBe(200);
				ids.push(...((await response.json()) as { id: string }[]).map((model) => model.id));
				if (page === 0) expect(statements, `${word} ${sort}`).toHaveLength(statementsPerPage);
				const next = /<[^>]*(\/api\/models\?[^>]*)>; rel="next"/.exec(response.headers.get("link") ?? "");
				path = next?.[1] ?? "";
			}
			expect(ids, `${word} ${sort}`).toEqual(await expected(word, sort));
		}
	});

	it("keep at most MODELHUB_DB_PREPARED_STATEMENTS statement texts prepared on a connection", async () => {
		const url = await freshDatabase("prepared_bound");
		for (const [limit, kept] of [
			[2, 2],
			[0, 0],
		] as const) {
			const bounded = await openDatabase({
				databaseUrl: url,
				dataDir: "memory://",
				postgresPool: { size: 1, preparedStatements: limit },
			});
			try {
				const prepared = await bounded.transaction(async (tx) => {
					for (const n of [1, 2, 3, 4, 1])
						await tx.query(`SELECT $1::int + ${n} AS n`, [n], { prepare: true });
					return tx.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements");
				});
				expect(prepared.rows[0]?.n).toBe(kept);
			} finally {
				await bounded.close();
			}
		}
	});
});
