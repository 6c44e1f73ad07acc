#!/usr/bin/env node
// Downloads from the hub against their floor, on the same machine, in the same run.
//  - a small file (`/{id}/resolve/main/config.json`, what every `from_pretrained` asks for first), GET
//    and HEAD under load (50 keep-alive connections, bench/load.mjs; alternating 1 s rounds), against
//    (a) nginx serving the same bytes from a file with sendfile (1 worker process: the hub is one event
//    loop; BENCH_NGINX_WORKERS to change it). Without nginx (Debian: `apt-get install nginx`) a note is
//    printed and a bare node:http server reading the file from disk takes its place; (b) a bare
//    node:http server answering the same bytes with the same headers from memory;
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
// Environment: BENCH_DOWNLOAD_BYTES (default 1 GiB), BENCH_DURATION (rounds of 1 s, default 5),
// BENCH_CONNECTIONS (default 50), BENCH_NGINX_WORKERS (default 1), BENCH_CLI (the hub's dist/cli.js to
// run, default this package's: to compare two builds in alternating runs). Prints one JSON line per
// measurement.
import { spawn } from "node:child_process";
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { connect, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setInterval, clearInterval } from "node:timers";
import { fileURLToPath } from "node:url";
import { loadRaw } from "./load.mjs";
import { startServer, stopServer } from "./process.mjs";
import {
	answerHeaders,
	BARE_FILE,
	download,
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
const NGINX_WORKERS = Number(process.env.BENCH_NGINX_WORKERS ?? 1);
const LARGE_ROUNDS = 3;
const ADMIN = "download-bench-admin-token";
const SMALL_FILE = JSON.stringify(
	{ architectures: ["BertModel"], hidden_size: 32, model_type: "bert" },
	null,
	2,
);

// The static file server used when nginx is missing: the file read from disk for each request, as a
// minimal static server would.
const STATIC_FILE = `
const http = require("node:http");
const fs = require("node:fs");
let file = "";
process.stdin.on("data", (c) => (file += c));
process.stdin.on("end", () => {
	const server = http.createServer((req, res) => {
		fs.readFile(file, (error, bytes) => {
			if (error) { res.writeHead(500).end(); return; }
			res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length });
			res.end(req.method === "HEAD" ? undefined : bytes);
		});
	});
	server.keepAliveTimeout = 72000;
	server.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + server.address().port + "/"));
	process.on("SIGTERM", () => server.close(() => process.exit(0)));
});
`;

const ndjson = (lines) => lines.map((line) => JSON.stringify(line)).join("\n");

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

/** A free TCP port on 127.0.0.1 (for nginx, which cannot print the port it picked). */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = createNetServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** Resolves once something accepts connections on the port (bounded: 10 s). */
async function listening(port) {
	for (let waited = 0; waited < 200; waited++) {
		const open = await new Promise((resolve) => {
			const socket = connect(port, "127.0.0.1");
			socket.once("connect", () => {
				socket.destroy();
				resolve(true);
			});
			socket.once("error", () => resolve(false));
		});
		if (open) return;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`nothing listens on port ${port}`);
}

/** The nginx binary on PATH (or in /usr/sbin, where Debian puts it), or undefined. */
function findNginx() {
	for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin"]) {
		const candidate = join(dir, "nginx");
		if (dir && existsSync(candidate)) return candidate;
	}
	return undefined;
}

/**
 * nginx serving `urlPath` from a file holding `body`, with sendfile and keep-alive, NGINX_WORKERS worker
 * processes (1 by default: the hub is one event loop), no access log. `{ url, stop }`.
 */
async function startNginx(nginx, dir, urlPath, body) {
	const root = join(dir, "nginx");
	const www = join(root, "www");
	const file = join(www, ...urlPath.split("/").filter(Boolean));
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, body);
	// The workers may run as another user (nobody): they must be able to read the file.
	for (let path = file; path.length > 1 && path !== dirname(dir); path = dirname(path))
		chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
	const port = await freePort();
	const conf = join(root, "nginx.conf");
	writeFileSync(
		conf,
		`worker_processes ${NGINX_WORKERS};
daemon off;
pid ${join(root, "nginx.pid")};
error_log ${join(root, "error.log")} warn;
events { worker_connections 4096; }
http {
	access_log off;
	sendfile on;
	tcp_nopush on;
	tcp_nodelay on;
	keepalive_timeout 75s;
	keepalive_requests 100000000;
	types { application/json json; }
	default_type application/octet-stream;
	client_body_temp_path ${join(root, "client_body")};
	proxy_temp_path ${join(root, "proxy")};
	fastcgi_temp_path ${join(root, "fastcgi")};
	uwsgi_temp_path ${join(root, "uwsgi")};
	scgi_temp_path ${join(root, "scgi")};
	server {
		listen 127.0.0.1:${port};
		root ${www};
	}
}
`,
	);
	const child = spawn(nginx, ["-e", join(root, "error.log"), "-p", root, "-c", conf], { stdio: "ignore" });
	const exited = new Promise((resolve) => child.once("exit", resolve));
	await Promise.race([
		listening(port),
		exited.then(() => Promise.reject(new Error("nginx exited at start"))),
	]);
	return {
		url: `http://127.0.0.1:${port}${urlPath}`,
		stop: async () => {
			if (child.exitCode !== null) return;
			// QUIT: graceful stop of the master and its workers.
			child.kill("SIGQUIT");
			await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
			if (child.exitCode === null) child.kill("SIGKILL");
		},
	};
}

/** Requests per second of each server in `urls` under the same load, in alternating 1 s rounds. */
async function alternating(urls, method) {
	const options = { connections: CONNECTIONS, seconds: 1, method };
	const rounds = Object.fromEntries(Object.keys(urls).map((name) => [name, []]));
	// Warm-up (JIT, caches, the hub's first read of the file).
	for (const url of Object.values(urls)) await loadRaw(url, options);
	const names = Object.keys(urls);
	for (let round = 0; round < DURATION; round++) {
		// A different order each round: whatever else the machine does weighs on all alike.
		const order = names.map((_, n) => names[(n + round) % names.length]);
		for (const name of order) rounds[name].push(await loadRaw(urls[name], options));
	}
	const summaries = {};
	for (const [name, results] of Object.entries(rounds)) {
		const requests = results.reduce((sum, r) => sum + r.requests, 0);
		const seconds = results.reduce((sum, r) => sum + r.seconds, 0);
		const sorted = results.map((r) => Math.round(r.requests / r.seconds)).sort((a, b) => a - b);
		summaries[name] = {
			rps: Math.round(requests / seconds),
			medianRoundRps: sorted[Math.floor(sorted.length / 2)],
			p50Ms: [...results.map((r) => r.p50Ms)].sort((a, b) => a - b)[Math.floor(results.length / 2)],
			p99Ms: [...results.map((r) => r.p99Ms)].sort((a, b) => a - b)[Math.floor(results.length / 2)],
			errors: results.reduce((sum, r) => sum + r.errors, 0),
		};
	}
	return summaries;
}

const ratio = (a, b) => Math.round((a / b) * 1000) / 1000;

/**
 * The small file under load, GET and HEAD, against (a) nginx serving the same bytes from a file with
 * sendfile (or, without nginx, a bare node:http server reading the file from disk on each request)
 * and (b) a bare node:http server answering the bytes from memory with the hub's headers.
 */
async function smallFile(base, dir) {
	const urlPath = "/bench/dl/resolve/main/config.json";
	const url = `${base}${urlPath}`;
	const sample = await fetch(url);
	const body = Buffer.from(await sample.arrayBuffer());
	if (sample.status !== 200 || body.toString("utf8") !== SMALL_FILE)
		throw new Error("the hub served the wrong file");
	const bare = startBareServer(body, answerHeaders(sample));
	const nginx = findNginx();
	let floor;
	if (nginx) floor = { name: "nginx", ...(await startNginx(nginx, dir, urlPath, body)) };
	else {
		console.error(
			"note: nginx is not installed (Debian: apt-get install nginx); the file-server floor is a bare node:http server reading the file from disk instead",
		);
		const staticFile = join(dir, "static-config.json");
		writeFileSync(staticFile, body);
		const server = startServer(process.execPath, ["-e", STATIC_FILE], {}, staticFile);
		floor = {
			name: "nodeStatic",
			url: `${await server.url}${urlPath}`,
			stop: () => stopServer(server.child),
		};
	}
	try {
		const bareUrl = `${await bare.url}${urlPath}`;
		const lines = [];
		for (const method of ["GET", "HEAD"]) {
			const measured = await alternating({ hub: url, [floor.name]: floor.url, bare: bareUrl }, method);
			lines.push({
				benchmark: "hub-download-small",
				endpoint: `${method} /{id}/resolve/main/config.json`,
				connections: CONNECTIONS,
				rounds: DURATION,
				bytes: body.length,
				fileServer:
					floor.name === "nginx" ? `nginx (${NGINX_WORKERS} worker, sendfile)` : "node:http from disk",
				...measured,
				ratioToFileServer: ratio(measured.hub.rps, measured[floor.name].rps),
				ratioToBare: ratio(measured.hub.rps, measured.bare.rps),
			});
		}
		return lines;
	} finally {
		await stopServer(bare.child);
		await floor.stop();
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
		for (const line of await smallFile(base, dir)) console.log(JSON.stringify(line));
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
