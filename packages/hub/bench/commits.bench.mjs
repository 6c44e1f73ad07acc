#!/usr/bin/env node
// Commit cost against repository size (src/repos/trees.ts, commits.ts), on PGlite and on PostgreSQL: for
// each layout (flat: 10,000 files in one folder; nested: 100 folders of 100), one commit of 10,000 small
// files (inline: each is stored in the blob store, durably, before the commit), one-file commits into
// that 10,000-file repository, then one commit of the same 10,000 files again by SHA-256 (lfsFile lines:
// the commit's own cost, no bytes to store). Commits go over HTTP as huggingface_hub's create_commit
// sends them (NDJSON, content inline), to the real hub in this process (blobs on a disk store in the
// system's temporary folder). Reported: wall time of the commit's answer; for one-file commits also
// "settled", the wall time until the commit's analysis is done too (services/analysis.ts runs it after
// the answer, or carries the previous one forward), i.e. the commit's whole cost to the hub; this
// process's CPU time (hub and client; steadier than wall time on a shared machine); and the database
// bytes each commit adds (pg_total_relation_size of every table, indexes and TOAST).
//
//   node packages/hub/bench/commits.bench.mjs
//
// Environment: BENCH_FILES (default 10000), BENCH_ROUNDS (one-file commits per layout, default 20),
// BENCH_LAYOUTS (default "flat,nested"), BENCH_BACKENDS (comma list of "pglite", "postgres"; default both;
// PostgreSQL is a throwaway cluster from Debian's binaries, test/support/postgres-cluster.mjs, run here with
// fsync on; PGlite is on disk in a temporary folder), BENCH_SMALL_BLOB_MAX_BYTES (the hub's
// MODELHUB_SMALL_BLOB_MAX_BYTES; 0 stores every file as a blob file, the layout before small blobs were
// kept in the database).
// BENCH_PHASES=1 also prints, for the 10,000-file commit, where its wall time went: the time spent waiting for
// each kind of database statement, for whole transactions and for their COMMIT, summed over the commit, and
// a timeline of the statements and transactions that took 5 ms or more ("start+duration kind", ms from the
// commit's request).
// The hub is built from the current sources (test/support/build-cli.mjs). Prints one JSON line per case.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { buildSources } from "../test/support/build-cli.mjs";
import { startPostgresCluster } from "../test/support/postgres-cluster.mjs";

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const BACKENDS = (process.env.BENCH_BACKENDS ?? "pglite,postgres").split(",");
const ADMIN = "commits-bench-admin-token-0123456789";
// MODELHUB_SMALL_BLOB_MAX_BYTES for the hub (0: every file a blob file, as before small blobs were kept in
// the database), for a before/after pair within one build.
const SMALL_BLOB_MAX_BYTES =
	process.env.BENCH_SMALL_BLOB_MAX_BYTES === undefined
		? undefined
		: Number(process.env.BENCH_SMALL_BLOB_MAX_BYTES);

const PHASES = process.env.BENCH_PHASES === "1";

/** Wall time waiting for the database, by statement kind, while `phases.on` (BENCH_PHASES). */
const phases = { on: false, byKind: new Map(), slow: [], since: 0 };

/** The statement's kind: its first words, parameters and lists left out. */
function statementKind(sql) {
	const words = sql.replace(/\s+/g, " ").trim().split(" ");
	const table = words.findIndex((word) => /^(FROM|INTO|UPDATE)$/i.test(word));
	return [words[0], ...(table >= 0 ? words.slice(table, table + 2) : [])].join(" ");
}

function record(kind, started) {
	if (!phases.on) return;
	const entry = phases.byKind.get(kind) ?? { count: 0, ms: 0 };
	entry.count++;
	entry.ms += performance.now() - started;
	phases.byKind.set(kind, entry);
	if (performance.now() - started >= 5)
		phases.slow.push(`${round(started - phases.since)}+${round(performance.now() - started)} ${kind}`);
}

/** The database, its statements and transactions timed (BENCH_PHASES). */
function timedDatabase(db) {
	const timedQuery = (queryable) => async (sql, params, options) => {
		const started = performance.now();
		try {
			return await queryable.query(sql, params, options);
		} finally {
			record(statementKind(sql), started);
		}
	};
	const outer = Object.create(db);
	outer.query = timedQuery(db);
	outer.transaction = (fn) => {
		const started = performance.now();
		let inside = 0;
		return db
			.transaction(async (tx) => {
				const result = await fn({ ...tx, query: timedQuery(tx), exec: (sql) => tx.exec(sql) });
				inside = performance.now();
				return result;
			})
			.finally(() => {
				record("transaction (whole)", started);
				if (inside) record("COMMIT", inside);
			});
	};
	return outer;
}

const built = await buildSources("commits-bench", {
	hub: join("test", "support", "hub.ts"),
	open: join("src", "db", "open.ts"),
});
const { startHub } = await import(pathToFileURL(built.hub).href);
const { openDatabase } = await import(pathToFileURL(built.open).href);

function ndjson(summary, files) {
	const lines = [{ key: "header", value: { summary } }];
	for (const { path, content, sha256 } of files) {
		if (sha256 !== undefined) {
			lines.push({ key: "lfsFile", value: { path, algo: "sha256", oid: sha256 } });
			continue;
		}
		lines.push({
			key: "file",
			value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
		});
	}
	return lines.map((line) => JSON.stringify(line)).join("\n");
}

async function databaseBytes(db) {
	const result = await db.query(
		`SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'`,
	);
	return Number(result.rows[0]?.bytes ?? 0);
}

/** Resolves once the hub's analysis of `main` reached `commit` (it is queued just after the answer). */
async function analysedAt(hub, db, repo, commit) {
	for (;;) {
		await hub.server.analysis.idle();
		const result = await db.query(
			"SELECT analysed_commit FROM repo_analysis WHERE repo_type = 'model' AND repo_id = $1",
			[repo],
		);
		if (result.rows[0]?.analysed_commit === commit) return;
		await new Promise((resolve) => setTimeout(resolve, 1));
	}
}

/**
 * One timed commit: wall milliseconds to its answer and until its analysis is done too (settledMs), CPU
 * milliseconds (to settled), database bytes added.
 */
async function timedCommit(hub, db, token, repo, summary, files) {
	const body = ndjson(summary, files);
	const before = await databaseBytes(db);
	const cpu = process.cpuUsage();
	const started = performance.now();
	const res = await fetch(`${hub.url}/api/models/${repo}/commit/main`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
		body,
	});
	const text = await res.text();
	const ms = performance.now() - started;
	if (res.status !== 200) throw new Error(`commit to ${repo}: ${res.status} ${text}`);
	await analysedAt(hub, db, repo, JSON.parse(text).commitOid);
	const settledMs = performance.now() - started;
	const used = process.cpuUsage(cpu);
	return {
		ms,
		settledMs,
		cpuMs: (used.user + used.system) / 1000,
		bytes: (await databaseBytes(db)) - before,
	};
}

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
};
const round = (value) => Math.round(value * 10) / 10;

async function run(backend, layout, db) {
	const hub = await startHub({
		db: PHASES ? timedDatabase(db) : db,
		seed: false,
		adminToken: ADMIN,
		...(SMALL_BLOB_MAX_BYTES === undefined ? {} : { uploads: { smallBlobMaxBytes: SMALL_BLOB_MAX_BYTES } }),
	});
	try {
		const user = await fetch(`${hub.url}/api/admin/users`, {
			method: "POST",
			headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "bench" }),
		});
		const { token } = await user.json();
		await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: layout }),
		});
		const pathOf = (index) => {
			const name = `file-${String(index).padStart(5, "0")}.txt`;
			return layout === "flat" ? `data/${name}` : `data/part-${Math.floor(index / 100)}/${name}`;
		};
		const files = Array.from({ length: FILES }, (_, index) => ({
			path: pathOf(index),
			content: `row ${index}\n`,
		}));
		phases.on = PHASES;
		phases.since = performance.now();
		const big = await timedCommit(hub, db, token, `bench/${layout}`, `Add ${FILES} files`, files);
		phases.on = false;
		if (PHASES) {
			const byKind = [...phases.byKind].sort((a, b) => b[1].ms - a[1].ms);
			phases.byKind.clear();
			console.log(
				JSON.stringify({
					bench: "commit-many-files-phases",
					backend,
					layout,
					databaseWaitMs: Object.fromEntries(
						byKind.map(([kind, { count, ms }]) => [kind, { count, ms: round(ms) }]),
					),
					timeline: phases.slow.splice(0),
				}),
			);
		}
		console.log(
			JSON.stringify({
				bench: "commit-many-files",
				backend,
				layout,
				files: FILES,
				ms: round(big.ms),
				settledMs: round(big.settledMs),
				cpuMs: round(big.cpuMs),
				databaseBytesAdded: big.bytes,
			}),
		);
		// Warm-up commits (first statements, caches), then the measured ones.
		const rounds = [];
		for (let index = 0; index < ROUNDS + 3; index++) {
			const one = await timedCommit(hub, db, token, `bench/${layout}`, `Edit ${index}`, [
				{ path: pathOf((index * 7919) % FILES), content: `edited ${index}\n` },
			]);
			if (index >= 3) rounds.push(one);
		}
		console.log(
			JSON.stringify({
				bench: "commit-one-file",
				backend,
				layout,
				repositoryFiles: FILES + 1,
				rounds: ROUNDS,
				medianMs: round(median(rounds.map((r) => r.ms))),
				minMs: round(Math.min(...rounds.map((r) => r.ms))),
				medianSettledMs: round(median(rounds.map((r) => r.settledMs))),
				minSettledMs: round(Math.min(...rounds.map((r) => r.settledMs))),
				medianCpuMs: round(median(rounds.map((r) => r.cpuMs))),
				medianDatabaseBytesAdded: median(rounds.map((r) => r.bytes)),
			}),
		);
		// The same 10,000 files again under copy/, by SHA-256 (objects the repository holds): the
		// commit's own cost, with no bytes to store.
		const copies = files.map((file) => ({
			path: `copy/${file.path}`,
			sha256: createHash("sha256").update(file.content).digest("hex"),
		}));
		const copy = await timedCommit(hub, db, token, `bench/${layout}`, `Copy ${copies.length} files`, copies);
		console.log(
			JSON.stringify({
				bench: "commit-many-files-by-sha256",
				backend,
				layout,
				files: copies.length,
				ms: round(copy.ms),
				settledMs: round(copy.settledMs),
				cpuMs: round(copy.cpuMs),
				databaseBytesAdded: copy.bytes,
			}),
		);
	} finally {
		await hub.close();
	}
}

for (const backend of BACKENDS) {
	for (const layout of (process.env.BENCH_LAYOUTS ?? "flat,nested").split(",")) {
		// Durable as a hub's database is (the test clusters run without fsync; PGlite on disk, not in
		// memory): a commit's small files are made durable by the database's flush.
		const cluster =
			backend === "postgres"
				? await startPostgresCluster({ fsync: "on", synchronous_commit: "on" })
				: undefined;
		const pgliteDir = cluster ? undefined : mkdtempSync(join(tmpdir(), "modelhub-commits-bench-"));
		try {
			const databaseUrl = cluster ? await cluster.createDatabase("commits") : undefined;
			const db = await openDatabase({ databaseUrl, dataDir: pgliteDir ?? "memory://" });
			try {
				await run(backend, layout, db);
			} finally {
				await db.close();
			}
		} finally {
			cluster?.stop();
			if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
		}
	}
}
