#!/usr/bin/env node
// `load_dataset` of a large Parquet dataset from the hub against `hf_hub_download` of the same file (issue
// 23's goal: load_dataset at ≥ 0.9× the download speed). The real clients of the "hub1" Python environment
// (datasets 5.0 with huggingface_hub 1.x, which datasets downloads through). Each round, in fresh caches:
//   download: hf_hub_download of the data file;
//   load: load_dataset of the repository (download, then datasets writes its Arrow cache);
//   prepare: load_dataset again with the hub cache kept and a fresh datasets cache (the Arrow step alone).
// load_dataset's download share is load − prepare; `downloadRatio` is its speed against hf_hub_download's,
// `wholeRatio` the whole load_dataset's (the Arrow step is datasets' own work on this machine's CPU, not the
// hub's). The file is made by DuckDB (BENCH_LOAD_ROWS rows, default 10,000,000: about 1.1 GB), committed
// through LFS to a hub run as its own process on a fresh data folder.
//
//   npm run build && node packages/hub/bench/datasets-load.bench.mjs
//
// Environment: BENCH_LOAD_ROWS, BENCH_LOAD_ROUNDS (default 3; medians are printed), BENCH_CLI (the hub's
// dist/cli.js). Prints one JSON line per round and one summary line.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, stopServer } from "./process.mjs";
import { hubApi, makeParquet, median, pushParquetDataset, pythonEnvironment } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const cli = process.env.BENCH_CLI ?? join(here, "..", "dist", "cli.js");
const ROWS = Number(process.env.BENCH_LOAD_ROWS ?? 10_000_000);
const ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 3);
const ADMIN = "datasets-load-bench-admin-token";

const SCRIPT = `
import json, sys, time
p = json.loads(sys.stdin.read())
if p["step"] == "download":
    from huggingface_hub import hf_hub_download
    started = time.perf_counter()
    path = hf_hub_download(p["repo"], "data/train-00000-of-00001.parquet", repo_type="dataset")
    rows = None
else:
    from datasets import load_dataset
    started = time.perf_counter()
    rows = load_dataset(p["repo"], split="train").num_rows
seconds = time.perf_counter() - started
import os
cached = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(os.environ["HF_HUB_CACHE"]) for f in fs)
print(json.dumps({"seconds": seconds, "rows": rows, "hubCacheBytes": cached}))
`;

/** One step in a Python process of its own, with the caches given; its seconds (the imports not counted). */
function step(interpreter, name, endpoint, caches, expectedBytes) {
	return new Promise((resolve, reject) => {
		const child = spawn(interpreter, ["-c", SCRIPT], {
			env: {
				PATH: process.env.PATH ?? "",
				HF_ENDPOINT: endpoint,
				HF_HUB_CACHE: caches.hub,
				HF_DATASETS_CACHE: caches.datasets,
				HF_HOME: caches.home,
				HF_HUB_DISABLE_TELEMETRY: "1",
				HF_HUB_DISABLE_PROGRESS_BARS: "1",
				HF_DATASETS_DISABLE_PROGRESS_BARS: "1",
			},
			stdio: ["pipe", "pipe", "pipe"],
		});
		let out = "";
		let err = "";
		child.stdout.on("data", (chunk) => (out += chunk));
		child.stderr.on("data", (chunk) => (err = (err + chunk).slice(-4000)));
		child.on("exit", (code) => {
			if (code !== 0) return reject(new Error(`${name}: ${err}`));
			const result = JSON.parse(out.trim().split("\n").pop());
			if (name !== "download" && result.rows !== ROWS)
				return reject(new Error(`${name}: ${result.rows} rows`));
			// load_dataset must keep what it downloads in the hub cache, or "prepare" would download again.
			if (result.hubCacheBytes < expectedBytes)
				return reject(new Error(`${name}: the hub cache holds ${result.hubCacheBytes} bytes, not the file`));
			resolve(result.seconds);
		});
		child.stdin.end(JSON.stringify({ step: name === "download" ? "download" : "load", repo: "bench/big" }));
	});
}

function freshCaches(dir, name) {
	const caches = {
		hub: join(dir, name, "hub"),
		datasets: join(dir, name, "datasets"),
		home: join(dir, name, "home"),
	};
	rmSync(join(dir, name), { recursive: true, force: true });
	for (const path of Object.values(caches)) mkdirSync(path, { recursive: true });
	return caches;
}

async function main() {
	if (!existsSync(cli)) {
		console.error(`${cli} is missing: run "npm run build" first.`);
		process.exit(2);
	}
	const interpreter = pythonEnvironment("hub1");
	const dir = mkdtempSync(join(tmpdir(), "modelhub-load-bench-"));
	const file = join(dir, "big.parquet");
	await makeParquet(file, ROWS);
	const hub = startServer(process.execPath, [cli], {
		PORT: "0",
		MODELHUB_DATA_DIR: join(dir, "data"),
		MODELHUB_ADMIN_TOKEN: ADMIN,
		MODELHUB_LOG_LEVEL: "warn",
		DATABASE_URL: "",
	});
	try {
		const base = await hub.url;
		const { token } = await hubApi(base, "POST", "/api/admin/users", ADMIN, { name: "bench" });
		const bytes = await pushParquetDataset(base, token, "bench", "big", file);
		rmSync(file);
		const rounds = [];
		for (let round = 0; round < ROUNDS; round += 1) {
			const download = await step(interpreter, "download", base, freshCaches(dir, "download"), bytes);
			const caches = freshCaches(dir, "load");
			const load = await step(interpreter, "load", base, caches, bytes);
			rmSync(caches.datasets, { recursive: true, force: true });
			mkdirSync(caches.datasets, { recursive: true });
			const prepare = await step(interpreter, "prepare", base, caches, bytes);
			const result = { download, load, prepare, loadDownload: Math.max(load - prepare, 1e-3) };
			rounds.push(result);
			console.log(
				JSON.stringify({
					benchmark: "datasets-load-round",
					round,
					bytes,
					...Object.fromEntries(
						Object.entries(result).map(([key, value]) => [`${key}Seconds`, +value.toFixed(2)]),
					),
				}),
			);
		}
		const of = (key) => median(rounds.map((round) => round[key]));
		const mib = (seconds) => Math.round(bytes / 1024 ** 2 / seconds);
		console.log(
			JSON.stringify({
				benchmark: "datasets-load",
				rows: ROWS,
				bytes,
				rounds: ROUNDS,
				hfHubDownloadMiBps: mib(of("download")),
				loadDatasetDownloadMiBps: mib(of("loadDownload")),
				loadDatasetWholeMiBps: mib(of("load")),
				downloadRatio: +(of("download") / of("loadDownload")).toFixed(2),
				wholeRatio: +(of("download") / of("load")).toFixed(2),
			}),
		);
	} finally {
		await stopServer(hub.child);
		rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
