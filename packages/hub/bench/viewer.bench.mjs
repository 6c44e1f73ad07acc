#!/usr/bin/env node
// The dataset viewer (/datasets-server/) on a large Parquet dataset (issue 23's goals): /first-rows cold
// (the hub's first request of the dataset) and warm, /rows at offset 9,000,000, /search over the 10M
// rows and over a 1M-row dataset, and the hub's resident memory growth while doing it (sampled every
// 50 ms). The files are made by DuckDB (10,000,000 rows: an id, 32-hex and 64-hex texts and a float;
// random, so about 1.1 GB compressed), uploaded through LFS and committed as `push_to_hub` names them. The hub runs as
// its own process on a fresh data folder (embedded database, files on disk). Each timing is the median of
// BENCH_VIEWER_ROUNDS (default 5) after the first.
//
//   npm run build && node packages/hub/bench/viewer.bench.mjs
//
// Environment: BENCH_VIEWER_ROWS (default 10000000), BENCH_VIEWER_SEARCH_ROWS (default 1000000),
// BENCH_VIEWER_ROUNDS, BENCH_VIEWER_SPOOL_DIR (where the local copies go: another file system than the
// hub's data folder measures copying instead of linking), BENCH_CLI (the hub's dist/cli.js to run). Prints one JSON line per measurement.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";
import { fileURLToPath } from "node:url";
import { startServer, stopServer } from "./process.mjs";
import { hubApi, makeParquet, pushParquetDataset, rssMiB } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const cli = process.env.BENCH_CLI ?? join(here, "..", "dist", "cli.js");
const ROWS = Number(process.env.BENCH_VIEWER_ROWS ?? 10_000_000);
const SEARCH_ROWS = Number(process.env.BENCH_VIEWER_SEARCH_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_VIEWER_ROUNDS ?? 5);
const ADMIN = "viewer-bench-admin-token-0123456789";

async function timed(url) {
	const started = performance.now();
	const response = await fetch(url);
	const body = await response.json();
	const ms = performance.now() - started;
	if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
	return { ms, body };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
	if (!existsSync(cli)) {
		console.error(`${cli} is missing: run "npm run build" first.`);
		process.exit(2);
	}
	const dir = mkdtempSync(join(tmpdir(), "modelhub-viewer-bench-"));
	const big = join(dir, "big.parquet");
	const small = join(dir, "small.parquet");
	await makeParquet(big, ROWS);
	await makeParquet(small, SEARCH_ROWS);
	const hub = startServer(process.execPath, [cli], {
		PORT: "0",
		MODELHUB_DATA_DIR: join(dir, "data"),
		// BENCH_VIEWER_SPOOL_DIR on another file system (e.g. /dev/shm) measures the copy instead of the link.
		MODELHUB_VIEWER_SPOOL_DIR: process.env.BENCH_VIEWER_SPOOL_DIR ?? dir,
		MODELHUB_ADMIN_TOKEN: ADMIN,
		MODELHUB_LOG_LEVEL: "warn",
		DATABASE_URL: "",
	});
	try {
		const base = await hub.url;
		const { token } = await hubApi(base, "POST", "/api/admin/users", ADMIN, { name: "bench" });
		const bigBytes = await pushParquetDataset(base, token, "bench", "big", big);
		await pushParquetDataset(base, token, "bench", "small", small);
		const pid = hub.child.pid;
		const before = rssMiB(pid);
		let peak = before;
		const sampler = setInterval(() => {
			peak = Math.max(peak, rssMiB(pid));
		}, 50);
		const split = (name) => `${base}/datasets-server/%s?dataset=bench/${name}&config=default&split=train`;
		const measure = async (label, url, check) => {
			const first = await timed(url);
			check(first.body);
			const rest = [];
			for (let round = 0; round < ROUNDS; round += 1) rest.push((await timed(url)).ms);
			console.log(
				JSON.stringify({
					benchmark: "viewer",
					endpoint: label,
					rows: ROWS,
					fileBytes: bigBytes,
					firstMs: Math.round(first.ms),
					medianMs: Math.round(median(rest)),
					minMs: Math.round(Math.min(...rest)),
				}),
			);
		};
		await measure("first-rows (first is cold)", split("big").replace("%s", "first-rows"), (body) => {
			if (body.rows.length !== 100) throw new Error("first-rows: not 100 rows");
		});
		await measure(
			`rows offset ${ROWS - 1_000_000}`,
			`${split("big").replace("%s", "rows")}&offset=${ROWS - 1_000_000}&length=100`,
			(body) => {
				if (body.rows[0]?.row.id !== ROWS - 1_000_000)
					throw new Error(`rows: wrong first row ${JSON.stringify(body.rows[0])}`);
			},
		);
		await measure(
			`search over ${SEARCH_ROWS} rows`,
			`${split("small").replace("%s", "search")}&query=abc`,
			(body) => {
				if (body.num_rows_total === 0) throw new Error("search found nothing");
			},
		);
		await measure(`search over ${ROWS} rows`, `${split("big").replace("%s", "search")}&query=abc`, (body) => {
			if (body.num_rows_total === 0) throw new Error("search found nothing");
		});
		clearInterval(sampler);
		console.log(
			JSON.stringify({
				benchmark: "viewer-memory",
				hubRssBeforeMiB: Math.round(before),
				hubPeakIncreaseMiB: Math.round(peak - before),
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
