#!/usr/bin/env node
// Memory of the hub while it receives one 2 GiB file: through the git-LFS batch API (a plain HTTP
// client, as huggingface_hub uses it with HF_HUB_DISABLE_XET=1) and through Xet (the real
// huggingface_hub 2.0 with hf_xet, its default install). The hub runs as its own process on a fresh
// data folder (embedded database, files on disk); its resident memory is sampled every 50 ms. The
// data is generated on the fly (AES-CTR keystream: incompressible, deterministic) and removed after.
//
//   npm run build && node packages/hub/bench/upload.bench.mjs
//
// Environment: BENCH_UPLOAD_BYTES (default 2 GiB); BENCH_UPLOAD_TRANSFERS (default `lfs,xet`);
// BENCH_HUB_CLI, another build's dist/cli.js to measure (paired before/after runs on one machine);
// BENCH_HUB_NODE_ARGS, Node options for the hub (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`). Prints
// one JSON line per transfer, with the hub's CPU seconds (user + system, from /proc): on a shared
// machine they move less with other load than the wall-clock rate does; and the bytes the upload added
// to the file store (`storedMiB`: a Xet file kept as its xorbs only is ~1x its size, rebuilt as a copy
// too ~2x). Then one line per transfer for reading the file back whole (`hub-download-after-upload`).
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { startServer, stopServer } from "./process.mjs";
import { data, hubApi, measured, putGenerated, pythonEnvironment, sha256Of } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const cli = process.env.BENCH_HUB_CLI ?? join(here, "..", "dist", "cli.js");
const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? 2 * 1024 ** 3);
const TRANSFERS = (process.env.BENCH_UPLOAD_TRANSFERS ?? "lfs,xet").split(",");
const NODE_ARGS = (process.env.BENCH_HUB_NODE_ARGS ?? "").split(" ").filter(Boolean);

const ADMIN = "upload-bench-admin-token";

const UPLOAD_SCRIPT = `
import json, os, resource, sys, time
from huggingface_hub import HfApi
p = json.loads(sys.stdin.read())
api = HfApi(endpoint=p["endpoint"], token=p["token"])
info = api.upload_file(path_or_fileobj=p["path"], path_in_repo="weights.bin", repo_id=p["repo"])
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"commit": info.oid, "cpu": usage.ru_utime + usage.ru_stime}))
`;

function runPython(interpreter, input, env) {
	return new Promise((resolve, reject) => {
		const child = spawn(interpreter, ["-c", UPLOAD_SCRIPT], {
			env: {
				PATH: process.env.PATH ?? "",
				HF_HUB_DISABLE_TELEMETRY: "1",
				HF_HUB_DISABLE_PROGRESS_BARS: "1",
				...env,
			},
			stdio: ["pipe", "pipe", "pipe"],
		});
		let out = "";
		let err = "";
		child.stdout.on("data", (chunk) => (out += chunk));
		child.stderr.on("data", (chunk) => (err += chunk));
		child.on("exit", (code) =>
			code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop())) : reject(new Error(err.slice(-3000))),
		);
		child.stdin.end(JSON.stringify(input));
	});
}

/** Bytes of the files under a folder (the disk store's), 0 when it does not exist yet. */
function folderBytes(path) {
	if (!existsSync(path)) return 0;
	let total = 0;
	for (const entry of readdirSync(path, { withFileTypes: true })) {
		const full = join(path, entry.name);
		total += entry.isDirectory() ? folderBytes(full) : statSync(full).size;
	}
	return total;
}

function report(transfer, m, stored) {
	const line = {
		benchmark: "hub-upload",
		transfer,
		bytes: SIZE,
		seconds: Number(m.seconds.toFixed(1)),
		mbPerSecond: Math.round(SIZE / 1e6 / m.seconds),
		hubCpuSeconds: Number(m.cpu.toFixed(2)),
		// The client's own CPU (hf_xet chunks, hashes and compresses on the same machine).
		...(m.result?.cpu !== undefined ? { clientCpuSeconds: Number(m.result.cpu.toFixed(2)) } : {}),
		hubRssBeforeMiB: Math.round(m.before),
		hubPeakRssMiB: Math.round(m.peak),
		hubPeakIncreaseMiB: Math.round(m.peak - m.before),
		storedMiB: Math.round(stored / 1024 ** 2),
	};
	console.log(JSON.stringify(line));
}

/** Reads a transfer's file back whole through resolve: the rate and the hub's CPU seconds. */
async function downloadBack(base, repo) {
	const m = await measured(child.pid, async () => {
		const res = await fetch(`${base}/bench/${repo}/resolve/main/weights.bin`);
		let received = 0;
		for await (const piece of res.body) received += piece.byteLength;
		if (received !== SIZE) throw new Error(`bench/${repo}: read back ${received} bytes`);
	});
	console.log(
		JSON.stringify({
			benchmark: "hub-download-after-upload",
			transfer: repo,
			bytes: SIZE,
			seconds: Number(m.seconds.toFixed(1)),
			mbPerSecond: Math.round(SIZE / 1e6 / m.seconds),
			hubCpuSeconds: Number(m.cpu.toFixed(2)),
			hubPeakIncreaseMiB: Math.round(m.peak - m.before),
		}),
	);
}

const dir = mkdtempSync(join(tmpdir(), "modelhub-upload-bench-"));
/** The disk store's folder (MODELHUB_DATA_DIR/files). */
const files = join(dir, "data", "files");
const { child, url } = startServer(process.execPath, [...NODE_ARGS, cli], {
	PORT: "0",
	MODELHUB_DATA_DIR: join(dir, "data"),
	MODELHUB_ADMIN_TOKEN: ADMIN,
	MODELHUB_LOG_LEVEL: "warn",
});
try {
	const base = await url;
	const { token } = await hubApi(base, "POST", "/api/admin/users", ADMIN, { name: "bench" });
	for (const name of ["lfs", "xet"]) await hubApi(base, "POST", "/api/repos/create", token, { name });

	if (TRANSFERS.includes("lfs")) await lfsTransfer(base, token);
	if (TRANSFERS.includes("xet")) await xetTransfer(base, token);
	for (const repo of TRANSFERS) {
		const head = await fetch(`${base}/bench/${repo}/resolve/main/weights.bin`, { method: "HEAD" });
		if (head.headers.get("content-length") !== String(SIZE))
			throw new Error(`bench/${repo}: the stored file has the wrong size`);
		await downloadBack(base, repo);
	}
} finally {
	await stopServer(child);
	rmSync(dir, { recursive: true, force: true });
}

/** LFS: batch, one streamed PUT, verify, commit by SHA-256. */
async function lfsTransfer(base, token) {
	const oid = await sha256Of(SIZE, 1);
	const storedBefore = folderBytes(files);
	const lfs = await measured(child.pid, async () => {
		const batch = await hubApi(
			base,
			"POST",
			"/bench/lfs.git/info/lfs/objects/batch",
			token,
			{ operation: "upload", transfers: ["basic"], objects: [{ oid, size: SIZE }], hash_algo: "sha256" },
			"application/vnd.git-lfs+json",
		);
		await putGenerated(batch.objects[0].actions.upload.href, SIZE, 1);
		return hubApi(
			base,
			"POST",
			"/api/models/bench/lfs/commit/main",
			token,
			[
				{ key: "header", value: { summary: "2 GiB through LFS" } },
				{ key: "lfsFile", value: { path: "weights.bin", algo: "sha256", oid, size: SIZE } },
			]
				.map((line) => JSON.stringify(line))
				.join("\n"),
			"application/x-ndjson",
		);
	});
	report("lfs", lfs, folderBytes(files) - storedBefore);
}

/** Xet: the real client, from a file written for it. */
async function xetTransfer(base, token) {
	const file = join(dir, "weights.bin");
	await pipeline(data(SIZE, 2), createWriteStream(file));
	const interpreter = pythonEnvironment();
	const storedBefore = folderBytes(files);
	const xet = await measured(child.pid, () =>
		runPython(
			interpreter,
			{ endpoint: base, token, repo: "bench/xet", path: file },
			{ HF_HOME: join(dir, "hf-home") },
		),
	);
	rmSync(file, { force: true });
	report("xet", xet, folderBytes(files) - storedBefore);
}
