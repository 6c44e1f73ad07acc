#!/usr/bin/env node
// Mirror mode (MODELHUB_UPSTREAM_URL) against its floors, on the same machine, in the same run:
//  - a cache miss, one client: the downstream hub streams a file it fetches from the upstream, against a
//    download of the same file from the upstream itself (the goal: >= 0.8x the upstream's speed);
//  - 8 concurrent clients of one missing file: upstream transfers of it (counted by a pass-through proxy
//    in front of the upstream: the goal is 1) and the downstream's resident memory (sampled every 50 ms);
//  - a cache hit, against a download of a file of the same size from a repository of the downstream
//    itself (the goal: >= 0.9x).
// With the miss it prints CPU per MiB: the downstream hub's (until the client has the file, and until the
// file is also stored), and the whole path's (upstream hub, this
// process's proxy and client, and for the miss the downstream): on a busy machine the wall-clock ratio
// swings with other work, while the CPU a path costs does not (its ratio is the one a machine short of
// processors would see). With the hit it prints the downstream's CPU per MiB served from storage (a
// mirrored file's and a local repository's): roughly the floor of the miss's downstream figure.
// Both hubs run as their own processes on fresh data folders (embedded database, files on disk). Each
// timing is the median of BENCH_ROUNDS alternating runs (the machine is shared: figures are noisy).
//
//   npm run build && node packages/hub/bench/mirror.bench.mjs
//
// Environment: BENCH_MIRROR_BYTES (default 256 MiB), BENCH_ROUNDS (default 3), BENCH_MIRROR_MISS_ONLY=1
// (the miss alone: no local file, no concurrent clients, no hits), BENCH_HUB_NODE_ARGS (Node options for
// the downstream hub, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), BENCH_CLI (the build measured) and
// BENCH_CLI_B (a second build: the misses alone, two downstream hubs of the two builds on one upstream,
// each round's file missed by both, which goes first alternating; a paired A/B of the miss path's CPU
// on a shared machine, without the two runs' start-ups between). One JSON line per measurement.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, get as httpGet, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { startServer, stopServer } from "./process.mjs";
import { cpuSeconds, hubApi, ioBytes, putGenerated, rssMiB, sha256Of } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const cli = process.env.BENCH_CLI ?? join(here, "..", "dist", "cli.js");
const SIZE = Number(process.env.BENCH_MIRROR_BYTES ?? 256 * 1024 ** 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = 8;
const ADMIN = "mirror-bench-admin-token";
const MISS_ONLY = process.env.BENCH_MIRROR_MISS_ONLY === "1";
const NODE_ARGS = (process.env.BENCH_HUB_NODE_ARGS ?? "").split(" ").filter(Boolean);
const CLI_B = process.env.BENCH_CLI_B;

function startHub(dataDir, env = {}, nodeArgs = [], build = cli) {
	return startServer(process.execPath, [...nodeArgs, build], {
		PORT: "0",
		MODELHUB_DATA_DIR: dataDir,
		MODELHUB_ADMIN_TOKEN: ADMIN,
		MODELHUB_LOG_LEVEL: "warn",
		DATABASE_URL: "",
		...env,
	});
}

/** Uploads `count` generated LFS files of SIZE bytes (seeds 1..count) to `ns/name` on a hub. */
async function publish(base, token, name, seeds) {
	await hubApi(base, "POST", "/api/repos/create", token, { name });
	const lines = [{ key: "header", value: { summary: "bench files" } }];
	for (const seed of seeds) {
		const oid = await sha256Of(SIZE, seed);
		const batch = await hubApi(
			base,
			"POST",
			`/bench/${name}.git/info/lfs/objects/batch`,
			token,
			{ operation: "upload", transfers: ["basic"], objects: [{ oid, size: SIZE }], hash_algo: "sha256" },
			"application/vnd.git-lfs+json",
		);
		const action = batch.objects[0].actions?.upload;
		if (action) await putGenerated(action.href, SIZE, seed);
		lines.push({ key: "lfsFile", value: { path: `file-${seed}.bin`, algo: "sha256", oid, size: SIZE } });
	}
	await hubApi(
		base,
		"POST",
		`/api/models/bench/${name}/commit/main`,
		token,
		lines.map((line) => JSON.stringify(line)).join("\n"),
		"application/x-ndjson",
	);
}

/** Downloads a URL whole; seconds taken, bytes and their SHA-256. */
function download(url) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		httpGet(url, (res) => {
			if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
			const hash = createHash("sha256");
			let bytes = 0;
			res.on("data", (chunk) => {
				bytes += chunk.length;
				hash.update(chunk);
			});
			res.on("end", () =>
				resolve({ seconds: (performance.now() - started) / 1000, bytes, sha256: hash.digest("hex") }),
			);
			res.on("error", reject);
		}).on("error", reject);
	});
}

/** A pass-through proxy in front of the upstream that counts the file downloads (GET …/resolve/…). */
function countingProxy(target) {
	const counts = new Map();
	const server = createServer((req, res) => {
		if (req.method === "GET" && req.url.includes("/resolve/")) {
			const path = req.url.replace(/\?.*$/, "");
			counts.set(path.split("/").pop(), (counts.get(path.split("/").pop()) ?? 0) + 1);
		}
		const upstream = httpRequest(
			new URL(req.url, target),
			{ method: req.method, headers: req.headers },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on("error", () => res.destroy());
		req.pipe(upstream);
	});
	return new Promise((resolve) =>
		server.listen(0, "127.0.0.1", () =>
			resolve({ server, counts, url: `http://127.0.0.1:${server.address().port}` }),
		),
	);
}

/** Upstream files the downstream has stored (its admin API's cache statistics). */
async function storedFiles(base) {
	const res = await fetch(`${base}/api/admin/mirror`, { headers: { authorization: `Bearer ${ADMIN}` } });
	if (res.status !== 200) throw new Error(`mirror statistics: ${res.status}`);
	return (await res.json()).files;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mbps = (seconds) => SIZE / 1024 ** 2 / seconds;
const perMiB = (seconds) => Math.round(((seconds * 1000) / (SIZE / 1024 ** 2)) * 100) / 100;

/** BENCH_CLI against BENCH_CLI_B: each round's file missed through both, the first of the two alternating. */
async function compareMisses(dir, upBase, proxy, seeds) {
	const builds = [
		{ name: "A", cli, cpu: [], seconds: [] },
		{ name: "B", cli: CLI_B, cpu: [], seconds: [] },
	];
	try {
		for (const build of builds) {
			build.hub = startHub(
				join(dir, `down-${build.name}`),
				{ MODELHUB_UPSTREAM_URL: proxy.url },
				NODE_ARGS,
				build.cli,
			);
			build.base = await build.hub.url;
		}
		const direct = [];
		for (const [round, seed] of seeds.entries()) {
			direct.push((await download(`${proxy.url}/bench/up/resolve/main/file-${seed}.bin`)).seconds);
			for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
				const pid = build.hub.child.pid;
				const before = cpuSeconds(pid);
				const got = await download(`${build.base}/bench/up/resolve/main/file-${seed}.bin`);
				if (got.bytes !== SIZE) throw new Error(`build ${build.name} served the wrong size`);
				build.cpu.push(cpuSeconds(pid) - before);
				build.seconds.push(got.seconds);
			}
		}
		for (const build of builds) {
			console.log(
				JSON.stringify({
					benchmark: "mirror-miss-compare",
					build: build.name,
					cli: build.cli,
					bytes: SIZE,
					rounds: seeds.length,
					// The downstream's CPU per MiB until its client has the file, each round and the median.
					downstreamCpuMsPerMiB: perMiB(median(build.cpu)),
					rounds_downstreamCpuMsPerMiB: build.cpu.map(perMiB),
					ratio: Number((median(direct) / median(build.seconds)).toFixed(2)),
					rounds_ratio: build.seconds.map((s, i) => Number((direct[i] / s).toFixed(2))),
				}),
			);
		}
	} finally {
		for (const build of builds) if (build.hub) await stopServer(build.hub.child);
	}
}

async function main() {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-mirror-bench-"));
	const upstream = startHub(join(dir, "up"));
	let downstream;
	let proxy;
	try {
		const upBase = await upstream.url;
		const { token } = await hubApi(upBase, "POST", "/api/admin/users", ADMIN, { name: "bench" });
		// Seeds: one file per miss round, one for the concurrent clients, one for the hits.
		const missSeeds = Array.from({ length: ROUNDS }, (_, i) => 10 + i);
		await publish(upBase, token, "up", CLI_B ? missSeeds : [...missSeeds, 1, 2]);
		proxy = await countingProxy(upBase);
		if (CLI_B) return await compareMisses(dir, upBase, proxy, missSeeds);
		downstream = startHub(join(dir, "down"), { MODELHUB_UPSTREAM_URL: proxy.url }, NODE_ARGS);
		const downBase = await downstream.url;
		const { token: downToken } = await hubApi(downBase, "POST", "/api/admin/users", ADMIN, { name: "bench" });
		if (!MISS_ONLY) await publish(downBase, downToken, "local", [2]);
		const pid = downstream.child.pid;

		// A miss against the upstream's own speed (through the same proxy), alternating.
		const miss = [];
		const direct = [];
		const missCpu = { down: [], stored: [], path: [] };
		const missIo = { read: [], written: [] };
		const directCpu = [];
		const upPid = upstream.child.pid;
		const cpuNow = () => ({
			up: cpuSeconds(upPid),
			down: cpuSeconds(pid),
			own: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
		});
		for (const seed of missSeeds) {
			let before = cpuNow();
			direct.push((await download(`${proxy.url}/bench/up/resolve/main/file-${seed}.bin`)).seconds);
			let after = cpuNow();
			directCpu.push(after.up - before.up + after.own - before.own);
			before = cpuNow();
			const ioBefore = ioBytes(pid);
			const got = await download(`${downBase}/bench/up/resolve/main/file-${seed}.bin`);
			after = cpuNow();
			if (got.bytes !== SIZE) throw new Error("the mirror served the wrong size");
			miss.push(got.seconds);
			missCpu.down.push(after.down - before.down);
			missCpu.path.push(after.up - before.up + after.down - before.down + after.own - before.own);
			// Storing the verified file follows the client's last byte: the downstream's CPU for the whole
			// miss is read once the file is stored (the admin API's count of stored files).
			for (let waited = 0; (await storedFiles(downBase)) < miss.length; waited++) {
				if (waited > 600) throw new Error("the missed file was not stored within 60 s");
				await sleep(100);
			}
			missCpu.stored.push(cpuSeconds(pid) - before.down);
			const ioAfter = ioBytes(pid);
			missIo.read.push(ioAfter.read - ioBefore.read);
			missIo.written.push(ioAfter.written - ioBefore.written);
		}
		console.log(
			JSON.stringify({
				benchmark: "mirror-miss",
				bytes: SIZE,
				upstreamMiBps: Math.round(mbps(median(direct))),
				missMiBps: Math.round(mbps(median(miss))),
				ratio: Number((median(direct) / median(miss)).toFixed(2)),
				downstreamCpuMsPerMiB: perMiB(median(missCpu.down)),
				downstreamStoredCpuMsPerMiB: perMiB(median(missCpu.stored)),
				// Bytes the downstream read and wrote (system calls) per byte of the file, until stored.
				downstreamReadPerByte: Number((median(missIo.read) / SIZE).toFixed(2)),
				downstreamWrittenPerByte: Number((median(missIo.written) / SIZE).toFixed(2)),
				directPathCpuMsPerMiB: perMiB(median(directCpu)),
				missPathCpuMsPerMiB: perMiB(median(missCpu.path)),
				cpuRatio: Number((median(directCpu) / median(missCpu.path)).toFixed(2)),
			}),
		);

		if (MISS_ONLY) return;

		// 8 clients at once of one missing file.
		const before = rssMiB(pid);
		let peak = before;
		const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
		const started = performance.now();
		const all = await Promise.all(
			Array.from({ length: CLIENTS }, () => download(`${downBase}/bench/up/resolve/main/file-1.bin`)),
		);
		clearInterval(timer);
		const expected = await sha256Of(SIZE, 1);
		if (all.some((got) => got.sha256 !== expected)) throw new Error("a client got the wrong bytes");
		console.log(
			JSON.stringify({
				benchmark: "mirror-concurrent-miss",
				clients: CLIENTS,
				bytes: SIZE,
				upstreamTransfers: proxy.counts.get("file-1.bin") ?? 0,
				seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
				rssBeforeMiB: Math.round(before),
				rssPeakMiB: Math.round(peak),
			}),
		);

		// A hit (file-2 fetched once first) against the downstream's own repository, alternating.
		await download(`${downBase}/bench/up/resolve/main/file-2.bin`);
		const hit = [];
		const local = [];
		const hitCpu = [];
		const localCpu = [];
		for (let round = 0; round < ROUNDS; round++) {
			let cpu = cpuSeconds(pid);
			local.push((await download(`${downBase}/bench/local/resolve/main/file-2.bin`)).seconds);
			localCpu.push(cpuSeconds(pid) - cpu);
			cpu = cpuSeconds(pid);
			hit.push((await download(`${downBase}/bench/up/resolve/main/file-2.bin`)).seconds);
			hitCpu.push(cpuSeconds(pid) - cpu);
		}
		console.log(
			JSON.stringify({
				benchmark: "mirror-hit",
				bytes: SIZE,
				localMiBps: Math.round(mbps(median(local))),
				hitMiBps: Math.round(mbps(median(hit))),
				ratio: Number((median(local) / median(hit)).toFixed(2)),
				// The downstream's CPU per MiB served: what reading a stored file costs it (the miss's floor).
				localCpuMsPerMiB: perMiB(median(localCpu)),
				hitCpuMsPerMiB: perMiB(median(hitCpu)),
				upstreamTransfersOfHitFile: proxy.counts.get("file-2.bin") ?? 0,
			}),
		);
	} finally {
		if (downstream) await stopServer(downstream.child);
		await stopServer(upstream.child);
		proxy?.server.closeAllConnections();
		proxy?.server.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
