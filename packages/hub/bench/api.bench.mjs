#!/usr/bin/env node
// Throughput and p99 latency of GET /api/models/{id}?expand[]=inferenceProviderMapping on the hub, and of
// a bare node:http server answering the same bytes with the same headers, in the same run, under the same
// load (autocannon, 50 connections, 5 s each in alternating 1 s rounds). Prints one JSON line.
//
//   npm run build && node packages/hub/bench/api.bench.mjs
//
// Environment: BENCH_DURATION (seconds, default 5), BENCH_CONNECTIONS (default 50).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, "..", "dist", "cli.js");
const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const PATH = `/api/models/${MODEL}?expand[]=inferenceProviderMapping`;
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const TARGET_RATIO = 0.6;
const TARGET_P99_MS = 10;

// The bare server: answers every request with the bytes and headers it is given on stdin.
const BARE_SERVER = `
const http = require("node:http");
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
	const { body, headers } = JSON.parse(input);
	const bytes = Buffer.from(body, "base64");
	const server = http.createServer((req, res) => {
		res.writeHead(200, { ...headers, "content-length": bytes.length });
		res.end(bytes);
	});
	server.keepAliveTimeout = 72000;
	server.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + server.address().port + "/"));
	process.on("SIGTERM", () => server.close(() => process.exit(0)));
});
`;

function start(command, args, env, input) {
	const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
	let output = "";
	const url = new Promise((resolve, reject) => {
		const onData = (chunk) => {
			output += chunk.toString("utf8");
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
			if (match) resolve(match[1]);
		};
		child.stdout.on("data", onData);
		child.stderr.on("data", onData);
		child.on("exit", (code) => reject(new Error(`${command} exited (${code}) before listening:\n${output}`)));
		setTimeout(() => reject(new Error(`timed out starting ${command}:\n${output}`)), 60_000).unref();
	});
	if (input !== undefined) child.stdin.end(input);
	else child.stdin.end();
	return { child, url };
}

function load(url, duration) {
	return new Promise((resolve, reject) => {
		autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1 }, (error, result) =>
			error ? reject(error) : resolve(result),
		);
	});
}

/** Combines rounds: requests per second over the whole measured time, latency percentiles per round. */
function summary(results) {
	const seconds = results.reduce((sum, r) => sum + r.duration, 0);
	const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
	const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
	return {
		rps: Math.round(requests / seconds),
		p50Ms: median(results.map((r) => r.latency.p50)),
		p99Ms: median(results.map((r) => r.latency.p99)),
		p99MaxMs: Math.max(...results.map((r) => r.latency.p99)),
		errors: results.reduce((sum, r) => sum + r.errors + r.timeouts + (r.non2xx ?? 0), 0),
	};
}

async function stop(child) {
	if (child.exitCode !== null) return;
	const exited = new Promise((resolve) => child.once("exit", resolve));
	child.kill("SIGTERM");
	await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
	if (child.exitCode === null) child.kill("SIGKILL");
}

async function main() {
	if (!existsSync(cli)) {
		console.error(`${cli} is missing: run "npm run build" first.`);
		process.exit(2);
	}
	const dataDir = mkdtempSync(join(tmpdir(), "modelhub-bench-"));
	const hub = start(process.execPath, [cli, "serve"], {
		PORT: "0",
		HOST: "127.0.0.1",
		MODELHUB_DATA_DIR: dataDir,
		MODELHUB_LOG_LEVEL: "warn",
		DATABASE_URL: "",
	});
	let bare;
	try {
		const hubUrl = await hub.url;
		const sample = await fetch(`${hubUrl}${PATH}`);
		if (sample.status !== 200) throw new Error(`the hub answered ${sample.status} for ${PATH}`);
		const body = Buffer.from(await sample.arrayBuffer());
		const headers = {};
		for (const [name, value] of sample.headers) {
			if (!["content-length", "date", "connection", "keep-alive"].includes(name)) headers[name] = value;
		}
		bare = start(
			process.execPath,
			["-e", BARE_SERVER],
			{},
			JSON.stringify({ body: body.toString("base64"), headers }),
		);
		const bareUrl = await bare.url;
		const check = Buffer.from(await (await fetch(`${bareUrl}${PATH}`)).arrayBuffer());
		if (!check.equals(body)) throw new Error("the bare server does not answer the same bytes");

		// Warm both up (JIT, caches), then measure in alternating one-second rounds, so that whatever else
		// the machine is doing weighs on both servers alike.
		await load(`${hubUrl}${PATH}`, 1);
		await load(`${bareUrl}${PATH}`, 1);
		const hubRounds = [];
		const bareRounds = [];
		for (let round = 0; round < DURATION; round++) {
			const order = round % 2 === 0 ? ["hub", "bare"] : ["bare", "hub"];
			for (const which of order) {
				if (which === "hub") hubRounds.push(await load(`${hubUrl}${PATH}`, 1));
				else bareRounds.push(await load(`${bareUrl}${PATH}`, 1));
			}
		}
		const hubResult = summary(hubRounds);
		const bareResult = summary(bareRounds);
		const ratio = Math.round((hubResult.rps / bareResult.rps) * 1000) / 1000;
		const line = {
			benchmark: "hub-api-model-with-mapping",
			endpoint: `GET ${PATH}`,
			connections: CONNECTIONS,
			durationSeconds: DURATION,
			bytes: body.length,
			hub: hubResult,
			bare: bareResult,
			ratio,
			targets: { ratio: TARGET_RATIO, p99Ms: TARGET_P99_MS },
			meetsTargets: ratio >= TARGET_RATIO && hubResult.p99Ms < TARGET_P99_MS && hubResult.errors === 0,
		};
		console.log(JSON.stringify(line));
	} finally {
		if (bare) await stop(bare.child);
		await stop(hub.child);
		rmSync(dataDir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
