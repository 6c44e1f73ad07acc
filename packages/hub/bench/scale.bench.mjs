#!/usr/bin/env node
// The hub at scale: generated models on PostgreSQL and on the embedded PGlite. Measures import throughput
// (models/s, peak memory of the import process), then p50/p99 latency and requests/s at 50 connections
// (autocannon) for model lookups (random ids), listing, filtering, multi-word search (a page of 100 and
// the default page of 1,000) and /api/tasks, first with the response cache off (every request reaches the
// database) and then with it on; with the CPU time the hub and (on PostgreSQL) its server backends spent
// per request, which other work on the machine moves much less than wall-clock figures. On PostgreSQL each
// scenario also reports what its statements cost inside the server, from pg_stat_statements: statements
// per request, their mean and largest execution time and the shared buffers they touched per request
// (figures that load on the machine hardly moves). Prints one JSON line per measurement.
//
//   npm run build && node packages/hub/bench/scale.bench.mjs                 # 100,000 / 20,000 models
//   npm run build && BENCH_SCALE=1m node packages/hub/bench/scale.bench.mjs  # 1,000,000 / 100,000
//
// Environment: BENCH_SCALE ("1m": the issue-21 run, 1,000,000 models on PostgreSQL and 100,000 on PGlite;
// default 100,000 and 20,000, about 3 minutes), BENCH_PG_MODELS and BENCH_PGLITE_MODELS (override either
// size), BENCH_DURATION (seconds per scenario, default 5), BENCH_CONNECTIONS (default 50),
// BENCH_BACKENDS (comma list of "postgres", "pglite"; default both), BENCH_SCENARIOS (comma list of words:
// only the scenarios whose name contains one, e.g. "lookup,search"), BENCH_CACHE ("off" or "on": one of
// the two passes), BENCH_DATABASE_URL (a PostgreSQL database already imported, e.g. by an earlier run
// with BENCH_KEEP=1: no import, no cluster started; its server must preload pg_stat_statements for the
// server-side figures).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { startPostgresCluster } from "../test/support/postgres-cluster.mjs";
import { startServer, stopServer } from "./process.mjs";
import { filterQueries, generatedModel, searchQueries, writeModelFile } from "./generate.mjs";
import { cpuSeconds, TICKS_PER_SECOND } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
// BENCH_CLI: another build's CLI (a before/after pair on one database: BENCH_DATABASE_URL).
const cli = process.env.BENCH_CLI ?? join(here, "..", "dist", "cli.js");
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const BACKENDS = (process.env.BENCH_BACKENDS ?? "postgres,pglite").split(",");
const FULL = process.env.BENCH_SCALE === "1m";
const ONLY = process.env.BENCH_SCENARIOS?.split(",").filter((word) => word !== "");
const CACHES = process.env.BENCH_CACHE ? [process.env.BENCH_CACHE] : ["off", "on"];
const GIVEN_DATABASE = process.env.BENCH_DATABASE_URL;
const KEEP = process.env.BENCH_KEEP === "1";
const SIZES = {
	postgres: Number(process.env.BENCH_PG_MODELS ?? (FULL ? 1_000_000 : 100_000)),
	pglite: Number(process.env.BENCH_PGLITE_MODELS ?? (FULL ? 100_000 : 20_000)),
};
// Models per import file (and per import transaction). PGlite keeps a transaction in WebAssembly memory.
const CHUNK = { postgres: 100_000, pglite: 20_000 };
// A sample imported with generated model cards and config files, for the cost of writing files.
const CARD_SAMPLE = 5000;

function emit(result) {
	console.log(JSON.stringify(result));
}

/** Runs the CLI to completion under /usr/bin/time; returns seconds taken and peak RSS in MB. */
function runCli(args, env) {
	const started = process.hrtime.bigint();
	const result = spawnSync("/usr/bin/time", ["-f", "MAXRSS_KB %M", process.execPath, cli, ...args], {
		env: { ...process.env, MODELHUB_LOG_LEVEL: "error", ...env },
		encoding: "utf8",
		maxBuffer: 16 * 1024 * 1024,
	});
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	if (result.status !== 0)
		throw new Error(`modelhub-hub ${args[0]} failed:\n${result.stdout}\n${result.stderr}`);
	const rss = Number(/MAXRSS_KB (\d+)/.exec(result.stderr)?.[1] ?? 0) / 1024;
	return { seconds, maxRssMb: Math.round(rss) };
}

function startHub(env) {
	return startServer(process.execPath, [cli, "serve"], {
		PORT: "0",
		HOST: "127.0.0.1",
		MODELHUB_LOG_LEVEL: "error",
		...env,
	});
}

/**
 * CPU seconds of a PostgreSQL cluster's processes: the running children of the postmaster (the hub's
 * pooled connections) plus the finished ones (reaped children's times, fields 16 and 17 of its stat).
 */
function clusterCpuSeconds(postmasterPid) {
	if (postmasterPid === undefined) return 0;
	let total = 0;
	for (const entry of readdirSync("/proc")) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
			if (fields[1] === postmasterPid) total += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
		} catch {
			// The process ended meanwhile.
		}
	}
	const own = readFileSync(`/proc/${postmasterPid}/stat`, "utf8").split(") ")[1].split(" ");
	return total + (Number(own[13]) + Number(own[14])) / TICKS_PER_SECOND;
}

/**
 * The postmaster's pid, from the cluster's data folder (next to its socket, as compare-builds.mjs finds
 * it), or undefined for a server elsewhere.
 */
function postmasterPidOf(databaseUrl) {
	const socketDir = decodeURIComponent(/host=([^&]+)/.exec(databaseUrl)?.[1] ?? "");
	try {
		return readFileSync(join(socketDir, "data", "postmaster.pid"), "utf8")
			.split("\n")[0]
			.trim();
	} catch {
		return undefined;
	}
}

/**
 * What the hub's statements cost inside PostgreSQL (pg_stat_statements), between reset() and read():
 * statements per request, their mean and largest execution time, shared buffers per request (hit +
 * read: the pages a request touched; read: those not in shared buffers). Undefined without the extension.
 */
async function serverStatements(databaseUrl) {
	const client = new pg.Client({ connectionString: databaseUrl });
	await client.connect();
	try {
		await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
		await client.query("SELECT pg_stat_statements_reset()");
	} catch {
		await client.end();
		return undefined;
	}
	// Only the hub's statements: this client's own all name the extension.
	const own = "query NOT LIKE '%pg_stat_statements%'";
	return {
		reset: () => client.query("SELECT pg_stat_statements_reset()"),
		async read(requests) {
			const { rows } = await client.query(
				`SELECT sum(calls)::float8 AS calls, sum(total_exec_time)::float8 AS total_ms,
					max(max_exec_time)::float8 AS max_ms, sum(shared_blks_hit)::float8 AS hit,
					sum(shared_blks_read)::float8 AS read
				FROM pg_stat_statements WHERE ${own} AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
			);
			const row = rows[0];
			const per = (value) => Math.round((Number(value ?? 0) * 100) / Math.max(1, requests)) / 100;
			const calls = Number(row?.calls ?? 0);
			return {
				statementsPerRequest: per(calls),
				statementMeanMs: Math.round((Number(row?.total_ms ?? 0) / Math.max(1, calls)) * 1000) / 1000,
				statementMaxMs: Math.round(Number(row?.max_ms ?? 0) * 100) / 100,
				buffersPerRequest: per(Number(row?.hit ?? 0) + Number(row?.read ?? 0)),
				buffersReadPerRequest: per(row?.read),
			};
		},
		/**
		 * Waits (at most 5 minutes) until no statement of the hub's has run for a second: a hub starting on
		 * a large database first looks for repositories to analyse, a scan of every row that would
		 * otherwise share the cores with the first scenario.
		 */
		async idle() {
			const deadline = Date.now() + 300_000;
			for (let quiet = 0; quiet < 5 && Date.now() < deadline;) {
				const { rows } = await client.query(
					"SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()",
				);
				quiet = rows[0].n === 0 ? quiet + 1 : 0;
				await new Promise((resolve) => setTimeout(resolve, 200));
			}
		},
		close: () => client.end(),
	};
}

function rssMb(pid) {
	const result = spawnSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" });
	return Math.round(Number(result.stdout.trim() || 0) / 1024);
}

function load(url, paths, headers = {}, duration = DURATION) {
	let index = 0;
	return new Promise((resolve, reject) => {
		autocannon(
			{
				url,
				connections: CONNECTIONS,
				duration,
				headers,
				requests: [
					{
						setupRequest(request) {
							request.path = paths[index++ % paths.length];
							return request;
						},
					},
				],
			},
			(error, result) => (error ? reject(error) : resolve(result)),
		);
	});
}

/** Waits until the hub answers /healthz within 100 ms: queries left over from a scenario have finished. */
async function drained(url) {
	const deadline = Date.now() + 120_000;
	while (Date.now() < deadline) {
		const started = Date.now();
		await fetch(`${url}/healthz`).then((res) => res.arrayBuffer());
		if (Date.now() - started < 100) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

function shuffled(list, seed) {
	const out = [...list];
	let state = seed;
	for (let i = out.length - 1; i > 0; i--) {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		const j = state % (i + 1);
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

function scenarios(count) {
	const ids = shuffled(
		Array.from({ length: 20_000 }, (_, i) => generatedModel(Math.floor((i * 7919) % count)).id),
		1,
	);
	const orgs = Array.from({ length: 5000 }, (_, i) => `org-${(i * 37) % 20_000}`);
	return {
		"lookup (random ids)": ids.map((id) => `/api/models/${id}`),
		"listing (first page, 100)": ["/api/models?limit=100"],
		"listing (by author, random)": orgs.map((org) => `/api/models?author=${org}&limit=100`),
		"filter (task+library+tag)": shuffled(filterQueries(), 2).map(
			(values) => `/api/models?${values.map((v) => `filter=${encodeURIComponent(v)}`).join("&")}&limit=100`,
		),
		"search (two words)": shuffled(searchQueries(), 3).map(
			(q) => `/api/models?search=${encodeURIComponent(q)}&limit=100`,
		),
		// huggingface_hub's list_models(search=…) sends no limit: the hub's default page of 1,000.
		"search (two words, default page)": shuffled(searchQueries(), 4).map(
			(q) => `/api/models?search=${encodeURIComponent(q)}`,
		),
		"/api/tasks (br)": ["/api/tasks"],
	};
}

async function measure(backend, count, env, postmasterPid) {
	const stats = env.DATABASE_URL ? await serverStatements(env.DATABASE_URL) : undefined;
	for (const cache of CACHES) {
		const { child, url: pending } = startHub({
			...env,
			MODELHUB_CACHE_BYTES: cache === "off" ? "0" : String(64 * 1024 * 1024),
		});
		const url = await pending;
		try {
			await stats?.idle();
			for (const [scenario, paths] of Object.entries(scenarios(count))) {
				if (ONLY && !ONLY.some((word) => scenario.includes(word))) continue;
				const headers = scenario.startsWith("/api/tasks") ? { "accept-encoding": "br" } : {};
				await load(url, paths, headers, 1);
				const hubCpu = cpuSeconds(child.pid);
				const serverCpu = clusterCpuSeconds(postmasterPid);
				await stats?.reset();
				const result = await load(url, paths, headers);
				const server = await stats?.read(result.requests.total);
				const perRequest = (seconds) =>
					Math.round((seconds * 1e6) / Math.max(1, result.requests.total)) / 1000;
				const cpu = {
					hubCpuMsPerRequest: perRequest(cpuSeconds(child.pid) - hubCpu),
					...(postmasterPid === undefined
						? {}
						: { postgresCpuMsPerRequest: perRequest(clusterCpuSeconds(postmasterPid) - serverCpu) }),
				};
				await drained(url);
				emit({
					backend,
					models: count,
					cache,
					scenario,
					connections: CONNECTIONS,
					rps: Math.round(result.requests.average),
					p50Ms: result.latency.p50,
					p99Ms: result.latency.p99,
					errors: result.errors + result.timeouts + result.non2xx,
					...cpu,
					...server,
					// The machine's load over the last minute (other work shares the cores): wall-clock
					// figures taken at a high load are upper bounds.
					loadAverage: Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]),
				});
			}
			emit({ backend, models: count, cache, serverRssMb: rssMb(child.pid) });
		} finally {
			await stopServer(child);
		}
	}
	await stats?.close();
}

async function runBackend(backend) {
	const count = SIZES[backend];
	if (GIVEN_DATABASE && backend === "postgres") {
		const work = mkdtempSync(join(tmpdir(), "modelhub-scale-given-"));
		try {
			const env = { MODELHUB_DATA_DIR: join(work, "data"), DATABASE_URL: GIVEN_DATABASE };
			await measure(backend, count, env, postmasterPidOf(GIVEN_DATABASE));
		} finally {
			rmSync(work, { recursive: true, force: true });
		}
		return;
	}
	const work = mkdtempSync(join(tmpdir(), `modelhub-scale-${backend}-`));
	let cluster;
	const env = { MODELHUB_DATA_DIR: join(work, "data") };
	try {
		if (backend === "postgres") {
			cluster = await startPostgresCluster({
				shared_buffers: "1GB",
				work_mem: "16MB",
				max_wal_size: "4GB",
				shared_preload_libraries: "pg_stat_statements",
				"pg_stat_statements.track": "all",
			});
			env.DATABASE_URL = await cluster.createDatabase("bench");
		}
		// Import in chunks: one transaction (and one process) per file.
		let seconds = 0;
		let maxRssMb = 0;
		let generateSeconds = 0;
		for (let start = 0; start < count; start += CHUNK[backend]) {
			const end = Math.min(count, start + CHUNK[backend]);
			const file = join(work, `models-${start}.json`);
			const generated = process.hrtime.bigint();
			writeModelFile(file, start, end);
			generateSeconds += Number(process.hrtime.bigint() - generated) / 1e9;
			const run = runCli(["import", "--no-generated-files", file], env);
			rmSync(file);
			seconds += run.seconds;
			maxRssMb = Math.max(maxRssMb, run.maxRssMb);
		}
		emit({
			backend,
			models: count,
			phase: "import (metadata, .gitattributes only)",
			seconds: Math.round(seconds),
			modelsPerSecond: Math.round(count / seconds),
			importMaxRssMb: maxRssMb,
			generateSeconds: Math.round(generateSeconds),
		});
		const sample = join(work, "cards.json");
		writeModelFile(sample, count, count + CARD_SAMPLE);
		const cards = runCli(["import", sample], env);
		emit({
			backend,
			models: CARD_SAMPLE,
			phase: "import (with generated model cards and config files)",
			seconds: Math.round(cards.seconds * 10) / 10,
			modelsPerSecond: Math.round(CARD_SAMPLE / cards.seconds),
			importMaxRssMb: cards.maxRssMb,
		});
		if (cluster) {
			// A hub at rest: autovacuum has set the visibility map (index-only scans) and the statistics.
			const vacuumed = process.hrtime.bigint();
			const client = new pg.Client({ connectionString: env.DATABASE_URL });
			await client.connect();
			await client.query("VACUUM ANALYZE");
			await client.end();
			emit({
				backend,
				models: count + CARD_SAMPLE,
				phase: "VACUUM ANALYZE",
				seconds: Math.round(Number(process.hrtime.bigint() - vacuumed) / 1e9),
			});
		}
		await measure(backend, count, env, cluster ? postmasterPidOf(cluster.url("postgres")) : undefined);
	} finally {
		if (KEEP && cluster) {
			emit({ backend, kept: env.DATABASE_URL, note: "stop it with pg_ctl -D <its socket folder>/data stop" });
		} else {
			cluster?.stop();
			rmSync(work, { recursive: true, force: true });
		}
	}
}

for (const backend of BACKENDS) await runBackend(backend);
