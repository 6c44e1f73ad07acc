#!/usr/bin/env node
// Throughput and p99 latency of hot hub endpoints (GET /api/models/{id}?expand[]=inferenceProviderMapping,
// and /api/tasks as brotli and gzip), each against a bare node:http server answering the same bytes with
// the same headers, in the same run, under the same load (autocannon, 50 connections, 5 s each in
// alternating 1 s rounds). Prints one JSON line per endpoint.
//
//   npm run build && node packages/hub/bench/api.bench.mjs
//
// Environment: BENCH_DURATION (seconds, default 5), BENCH_CONNECTIONS (default 50).
import { get as httpGet } from "node:http";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, stopServer } from "./process.mjs";
import { againstFloor, answerHeaders, startBareServer } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, "..", "dist", "cli.js");
const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const PATH = `/api/models/${MODEL}?expand[]=inferenceProviderMapping`;
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const TARGET_RATIO = 0.6;
const TARGET_P99_MS = 10;

const ENDPOINTS = [
	{ name: "hub-api-model-with-mapping", path: PATH, headers: {}, targets: true },
	{ name: "hub-api-tasks-br", path: "/api/tasks", headers: { "accept-encoding": "br" } },
	{ name: "hub-api-tasks-gzip", path: "/api/tasks", headers: { "accept-encoding": "gzip" } },
];

/** One endpoint of the hub against a bare server answering the same bytes with the same headers. */
async function compare(hubUrl, endpoint) {
	const sample = await fetch(`${hubUrl}${endpoint.path}`, { headers: endpoint.headers, decompress: false });
	if (sample.status !== 200) throw new Error(`the hub answered ${sample.status} for ${endpoint.path}`);
	const body = await rawBody(`${hubUrl}${endpoint.path}`, endpoint.headers);
	const bare = startBareServer(body, answerHeaders(sample));
	try {
		const bareUrl = await bare.url;
		const check = await rawBody(`${bareUrl}${endpoint.path}`, endpoint.headers);
		if (!check.equals(body)) throw new Error("the bare server does not answer the same bytes");
		const {
			hub: hubResult,
			bare: bareResult,
			ratio,
		} = await againstFloor(`${hubUrl}${endpoint.path}`, `${bareUrl}${endpoint.path}`, {
			connections: CONNECTIONS,
			rounds: DURATION,
			headers: endpoint.headers,
		});
		const line = {
			benchmark: endpoint.name,
			endpoint: `GET ${endpoint.path}`,
			requestHeaders: endpoint.headers,
			connections: CONNECTIONS,
			durationSeconds: DURATION,
			bytes: body.length,
			hub: hubResult,
			bare: bareResult,
			ratio,
		};
		if (endpoint.targets) {
			line.targets = { ratio: TARGET_RATIO, p99Ms: TARGET_P99_MS };
			line.meetsTargets = ratio >= TARGET_RATIO && hubResult.p99Ms < TARGET_P99_MS && hubResult.errors === 0;
		}
		return line;
	} finally {
		await stopServer(bare.child);
	}
}

/** The bytes of an answer as sent (still compressed). */
function rawBody(url, headers) {
	return new Promise((resolve, reject) => {
		const request = httpGet(url, { headers }, (response) => {
			const chunks = [];
			response.on("data", (chunk) => chunks.push(chunk));
			response.on("end", () => resolve(Buffer.concat(chunks)));
			response.on("error", reject);
		});
		request.on("error", reject);
	});
}

async function main() {
	if (!existsSync(cli)) {
		console.error(`${cli} is missing: run "npm run build" first.`);
		process.exit(2);
	}
	const dataDir = mkdtempSync(join(tmpdir(), "modelhub-bench-"));
	const hub = startServer(process.execPath, [cli, "serve"], {
		PORT: "0",
		HOST: "127.0.0.1",
		MODELHUB_DATA_DIR: dataDir,
		MODELHUB_LOG_LEVEL: "warn",
		DATABASE_URL: "",
	});
	try {
		const hubUrl = await hub.url;
		for (const endpoint of ENDPOINTS) console.log(JSON.stringify(await compare(hubUrl, endpoint)));
	} finally {
		await stopServer(hub.child);
		rmSync(dataDir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
