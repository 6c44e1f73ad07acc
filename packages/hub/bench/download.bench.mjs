#!/usr/bin/env node
// Downloads from the hub against their floor: bare node:http servers on the same machine, in the same run.
//  - a small file (`GET /{id}/resolve/main/config.json`, what every `from_pretrained` asks for first) under
//    load (autocannon, 50 connections, alternating 1 s rounds), against a bare server answering the same
//    bytes with the same headers;
//  - a large file (1 GiB by default, stored through LFS), read whole by one client, against a bare server
//    streaming the same file from disk; the hub's resident memory is sampled every 50 ms (it must not grow
//    with the file).
// The hub runs as its own process on a fresh data folder (embedded database, files on disk). config.json
// is a counted file (the default download rule): the hub runs with no per-client window
// (MODELHUB_DOWNLOAD_DEDUPE_SECONDS=0), so every request of it is counted and written, counting's
// worst case.
//
//   npm run build && node packages/hub/bench/download.bench.mjs
//
// Environment: BENCH_DOWNLOAD_BYTES (default 1 GiB), BENCH_DURATION (seconds, default 5),
// BENCH_CONNECTIONS (default 50), BENCH_CLI (the hub's dist/cli.js to run, default this package's: to
// compare two builds in alternating runs). Prints one JSON line per transfer.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { setInterval, clearInterval } from "node:timers";
import { fileURLToPath } from "node:url";
import { startServer, stopServer } from "./process.mjs";
import {
	againstFloor,
	answerHeaders,
	hubApi,
	putGenerated,
	rssMiB,
	sha256Of,
	startBareServer,
} from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const cli = process.env.BENCH_CLI ?? join(here, "..", "dist", "cli.js");
const SIZE = Number(process.env.BENCH_DOWNLOAD_BYTES ?? 1024 ** 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LARGE_ROUNDS = 3;
const ADMIN = "download-bench-admin-token";
const SMALL_FILE = JSON.stringify(
	{ architectures: ["BertModel"], hidden_size: 32, model_type: "bert" },
	null,
	2,
);

// The bare file server: one file streamed from disk with a Content-Length, as any static file server would.
const BARE_FILE = `
const http = require("node:http");
const fs = require("node:fs");
let file = "";
process.stdin.on("data", (c) => (file += c));
process.stdin.on("end", () => {
	const size = fs.statSync(file).size;
	const server = http.createServer((req, res) => {
		res.writeHead(200, { "content-type": "application/octet-stream", "content-length": size });
		fs.createReadStream(file).pipe(res);
	});
	server.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + server.address().port + "/"));
	process.on("SIGTERM", () => server.close(() => process.exit(0)));
});
`;

const ndjson = (lines) => lines.map((line) => JSON.stringify(line)).join("\n");

/** Reads a whole answer, hashing it; returns the bytes' SHA-256, their count and the seconds taken. */
function download(url) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const hash = createHash("sha256");
		let bytes = 0;
		httpGet(url, (response) => {
			if (response.statusCode !== 200) reject(new Error(`GET ${url}: ${response.statusCode}`));
			response.on("data", (chunk) => {
				bytes += chunk.length;
				hash.update(chunk);
			});
			response.on("end", () =>
				resolve({ sha256: hash.digest("hex"), bytes, seconds: (performance.now() - started) / 1000 }),
			);
			response.on("error", reject);
		}).on("error", reject);
	});
}

/** The file under `dir` named `name` (the disk store keeps blobs under their SHA-256). */
function findFile(dir, name) {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) {
			const found = findFile(path, name);
			if (found) return found;
		} else if (entry.name === name) return path;
	}
	return undefined;
}

async function smallFile(base) {
	const url = `${base}/bench/dl/resolve/main/config.json`;
	const sample = await fetch(url);
	const body = Buffer.from(await sample.arrayBuffer());
	if (sample.status !== 200 || body.toString("utf8") !== SMALL_FILE)
		throw new Error("the hub served the wrong file");
	const bare = startBareServer(body, answerHeaders(sample));
	try {
		const bareUrl = `${await bare.url}/bench/dl/resolve/main/config.json`;
		const compared = await againstFloor(url, bareUrl, { connections: CONNECTIONS, rounds: DURATION });
		return {
			benchmark: "hub-download-small",
			endpoint: "GET /{id}/resolve/main/config.json",
			connections: CONNECTIONS,
			durationSeconds: DURATION,
			bytes: body.length,
			...compared,
		};
	} finally {
		await stopServer(bare.child);
	}
}

async function largeFile(base, pid, blobPath, oid) {
	const url = `${base}/bench/dl/resolve/main/weights.bin`;
	const bare = startServer(process.execPath, ["-e", BARE_FILE], {}, blobPath);
	try {
		const bareUrl = `${await bare.url}/weights.bin`;
		const hubRuns = [];
		const bareRuns = [];
		const before = rssMiB(pid);
		let peak = before;
		for (let round = 0; round < LARGE_ROUNDS; round++) {
			const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
			const hubRun = await download(url);
			clearInterval(timer);
			if (hubRun.sha256 !== oid || hubRun.bytes !== SIZE) throw new Error("the hub served the wrong bytes");
			hubRuns.push(hubRun.seconds);
			bareRuns.push((await download(bareUrl)).seconds);
		}
		const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
		const hubMBs = Math.round(SIZE / 1e6 / median(hubRuns));
		const bareMBs = Math.round(SIZE / 1e6 / median(bareRuns));
		return {
			benchmark: "hub-download-large",
			endpoint: "GET /{id}/resolve/main/weights.bin",
			bytes: SIZE,
			rounds: LARGE_ROUNDS,
			hubMBPerSecond: hubMBs,
			bareMBPerSecond: bareMBs,
			ratio: Math.round((hubMBs / bareMBs) * 1000) / 1000,
			hubRssBeforeMiB: Math.round(before),
			hubPeakIncreaseMiB: Math.round(peak - before),
		};
	} finally {
		await stopServer(bare.child);
	}
}

async function main() {
	if (!existsSync(cli)) {
		console.error(`${cli} is missing: run "npm run build" first.`);
		process.exit(2);
	}
	const dir = mkdtempSync(join(tmpdir(), "modelhub-download-bench-"));
	const dataDir = join(dir, "data");
	const hub = startServer(process.execPath, [cli], {
		PORT: "0",
		MODELHUB_DATA_DIR: dataDir,
		MODELHUB_ADMIN_TOKEN: ADMIN,
		MODELHUB_LOG_LEVEL: "warn",
		MODELHUB_DOWNLOAD_DEDUPE_SECONDS: "0",
		DATABASE_URL: "",
	});
	try {
		const base = await hub.url;
		const { token } = await hubApi(base, "POST", "/api/admin/users", ADMIN, { name: "bench" });
		await hubApi(base, "POST", "/api/repos/create", token, { name: "dl" });
		const oid = await sha256Of(SIZE, 3);
		const batch = await hubApi(
			base,
			"POST",
			"/bench/dl.git/info/lfs/objects/batch",
			token,
			{ operation: "upload", transfers: ["basic"], objects: [{ oid, size: SIZE }], hash_algo: "sha256" },
			"application/vnd.git-lfs+json",
		);
		await putGenerated(batch.objects[0].actions.upload.href, SIZE, 3);
		await hubApi(
			base,
			"POST",
			"/api/models/bench/dl/commit/main",
			token,
			ndjson([
				{ key: "header", value: { summary: "files to download" } },
				{
					key: "file",
					value: {
						path: "config.json",
						content: Buffer.from(SMALL_FILE).toString("base64"),
						encoding: "base64",
					},
				},
				{ key: "lfsFile", value: { path: "weights.bin", algo: "sha256", oid, size: SIZE } },
			]),
			"application/x-ndjson",
		);
		const blobPath = findFile(dataDir, oid);
		if (!blobPath || statSync(blobPath).size !== SIZE)
			throw new Error("the stored blob was not found on disk");
		console.log(JSON.stringify(await smallFile(base)));
		// Counted (or not, by a hub before counting) and written by now: the flush interval is 5 s.
		await new Promise((resolve) => setTimeout(resolve, 6000));
		const counted = await hubApi(base, "GET", "/api/models/bench/dl?expand=downloadsAllTime", token);
		console.log(
			JSON.stringify({
				benchmark: "hub-download-counted",
				downloadsAllTime: counted.downloadsAllTime ?? null,
			}),
		);
		console.log(JSON.stringify(await largeFile(base, hub.child.pid, blobPath, oid)));
	} finally {
		await stopServer(hub.child);
		rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
