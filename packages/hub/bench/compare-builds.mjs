#!/usr/bin/env node
// Two builds of the hub side by side on one PostgreSQL cluster, with measures that hold up while the
// machine does other work (a wall-clock req/s figure does not: two runs of one build moved by 10–14 %
// when another process was busy):
// - import: CPU seconds spent by PostgreSQL's backends and by the import process for the same models,
//   the two builds alternating run by run;
// - serving: one connection, the response cache off, requests sent to the two builds alternately;
//   the minimum and the median latency per build and scenario.
//
//   node packages/hub/bench/compare-builds.mjs <before-cli.js> <after-cli.js>
//
// where each argument is a build's packages/hub/dist/cli.js (e.g. a `git worktree` of the older commit,
// built). Environment: BENCH_PAIRED_MODELS (default 200000), BENCH_PAIRED_ROUNDS (import pairs,
// default 2), BENCH_PAIRED_REQUESTS (requests per build and scenario, default 200).
// Not named *.bench.mjs: `npm run bench` runs those without arguments, and this one needs two builds.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { startPostgresCluster } from "../test/support/postgres-cluster.mjs";
import { startServer, stopServer } from "./process.mjs";
import { filterQueries, generatedModel, searchQueries, writeModelFile } from "./generate.mjs";

const [before, after] = process.argv.slice(2).map((path) => resolve(path));
if (!before || !after || !existsSync(before) || !existsSync(after)) {
	console.error("usage: node packages/hub/bench/compare-builds.mjs <before-cli.js> <after-cli.js>");
	process.exit(2);
}
const BUILDS = { before, after };
const COUNT = Number(process.env.BENCH_PAIRED_MODELS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS ?? 2);
const REQUESTS = Number(process.env.BENCH_PAIRED_REQUESTS ?? 200);
// Models per import file and transaction, as in scale.bench.mjs.
const CHUNK = 100_000;
// Linux reports process times in clock ticks of 1/100 s (USER_HZ).
const TICKS_PER_SECOND = 100;

function emit(result) {
	console.log(JSON.stringify(result));
}

/**
 * CPU seconds of the postmaster's finished children: every backend that served a finished import
 * (the kernel adds a reaped child's times to its parent's cutime/cstime, fields 16 and 17 of stat).
 */
function reapedChildrenCpu(postmasterPid) {
	const fields = readFileSync(`/proc/${postmasterPid}/stat`, "utf8").split(") ")[1].split(" ");
	return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

function importFiles(cli, files, env, generatedFiles = false) {
	let cpu = 0;
	for (const file of files) {
		const flags = generatedFiles ? [] : ["--no-generated-files"];
		const run = spawnSync(
			"/usr/bin/time",
			["-f", "CPU %U %S", process.execPath, cli, "import", ...flags, file],
			{ env: { ...process.env, MODELHUB_LOG_LEVEL: "error", ...env }, encoding: "utf8" },
		);
		if (run.status !== 0) throw new Error(`import failed:\n${run.stderr}`);
		const [, user, system] = /CPU ([\d.]+) ([\d.]+)/.exec(run.stderr) ?? [];
		cpu += Number(user) + Number(system);
	}
	return cpu;
}

function summary(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const round = (value) => Math.round(value * 100) / 100;
	return { min: round(sorted[0]), median: round(sorted[sorted.length >> 1]) };
}

/** Models imported with their generated files (README.md, config.json): the file routes' scenarios. */
const WITH_FILES = 200;

function scenarios() {
	const ids = Array.from({ length: REQUESTS }, (_, i) => generatedModel((i * 7919) % COUNT).id);
	const withConfig = Array.from({ length: WITH_FILES }, (_, i) => generatedModel(COUNT + i))
		.filter((model) => model.config !== undefined)
		.map((model) => model.id);
	const filters = filterQueries();
	const searches = searchQueries();
	return {
		"lookup (random ids)": (i) => `/api/models/${ids[i % ids.length]}`,
		"listing (first page, 100)": () => "/api/models?limit=100",
		"listing (by author)": (i) => `/api/models?author=org-${(i * 37) % 20_000}&limit=100`,
		"listing (sort=likes)": () => "/api/models?sort=likes&limit=100",
		"listing (sort=downloads)": () => "/api/models?sort=downloads&limit=100",
		// config.json is counted (the default rule; every request, see MODELHUB_DOWNLOAD_DEDUPE_SECONDS
		// below), README.md is not.
		"file (config.json, counted)": (i) => `/${withConfig[i % withConfig.length]}/resolve/main/config.json`,
		"file (README.md, not counted)": (i) => `/${withConfig[i % withConfig.length]}/resolve/main/README.md`,
		"filter (task+library+tag)": (i) =>
			`/api/models?${filters[i % filters.length].map((v) => `filter=${encodeURIComponent(v)}`).join("&")}&limit=100`,
		"search (two words)": (i) =>
			`/api/models?search=${encodeURIComponent(searches[i % searches.length])}&limit=100`,
		// huggingface_hub's list_models(search=…) sends no limit: the hub's default page of 1,000.
		"search (two words, default page)": (i) =>
			`/api/models?search=${encodeURIComponent(searches[i % searches.length])}`,
	};
}

const work = mkdtempSync(join(tmpdir(), "modelhub-paired-"));
const cluster = await startPostgresCluster({ shared_buffers: "1GB", work_mem: "16MB", max_wal_size: "4GB" });
const hubs = [];
try {
	const socketDir = decodeURIComponent(/host=([^&]+)/.exec(cluster.url("postgres"))?.[1] ?? "");
	const postmasterPid = readFileSync(join(socketDir, "data", "postmaster.pid"), "utf8")
		.split("\n")[0]
		.trim();
	const files = [];
	for (let start = 0; start < COUNT; start += CHUNK) {
		const file = join(work, `models-${start}.json`);
		writeModelFile(file, start, Math.min(COUNT, start + CHUNK));
		files.push(file);
	}
	const withFiles = join(work, "models-with-files.json");
	writeModelFile(withFiles, COUNT, COUNT + WITH_FILES);

	const databases = {};
	let database = 0;
	for (let round = 0; round < ROUNDS; round++) {
		for (const name of round % 2 === 0 ? ["before", "after"] : ["after", "before"]) {
			const url = await cluster.createDatabase(`paired_${database++}`);
			const env = { DATABASE_URL: url, MODELHUB_DATA_DIR: join(work, `data-${database}`) };
			const postgresBefore = reapedChildrenCpu(postmasterPid);
			const started = process.hrtime.bigint();
			const importCpu = importFiles(BUILDS[name], files, env);
			importFiles(BUILDS[name], [withFiles], env, true);
			emit({
				build: name,
				phase: "import (metadata, .gitattributes only)",
				models: COUNT,
				postgresCpuSeconds: Math.round((reapedChildrenCpu(postmasterPid) - postgresBefore) * 10) / 10,
				importCpuSeconds: Math.round(importCpu * 10) / 10,
				wallSeconds: Math.round(Number(process.hrtime.bigint() - started) / 1e8) / 10,
			});
			databases[name] = env;
		}
	}

	const urls = {};
	for (const name of ["before", "after"]) {
		const { child, url } = startServer(process.execPath, [BUILDS[name], "serve"], {
			PORT: "0",
			HOST: "127.0.0.1",
			MODELHUB_LOG_LEVEL: "error",
			MODELHUB_CACHE_BYTES: "0",
			// Every request of a counted file counts (no per-client window): counting's worst case.
			MODELHUB_DOWNLOAD_DEDUPE_SECONDS: "0",
			...databases[name],
		});
		hubs.push(child);
		urls[name] = await url;
	}
	const WARMUP = 5;
	for (const [scenario, path] of Object.entries(scenarios())) {
		const latencies = { before: [], after: [] };
		for (let i = 0; i < REQUESTS + WARMUP; i++) {
			for (const name of i % 2 === 0 ? ["before", "after"] : ["after", "before"]) {
				const started = performance.now();
				const response = await fetch(urls[name] + path(i));
				await response.arrayBuffer();
				if (!response.ok) throw new Error(`${name}: ${path(i)} answered ${response.status}`);
				if (i >= WARMUP) latencies[name].push(performance.now() - started);
			}
		}
		emit({
			phase: "uncached, one connection (ms)",
			models: COUNT,
			scenario,
			before: summary(latencies.before),
			after: summary(latencies.after),
		});
	}
} finally {
	for (const child of hubs) await stopServer(child);
	cluster.stop();
	rmSync(work, { recursive: true, force: true });
}
