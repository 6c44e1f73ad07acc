#!/usr/bin/env node
// `git clone` (with git-lfs) of a repository against `snapshot_download` (what `hf download` runs) of the
// same repository, on the same hub, in alternating rounds. The repository: BENCH_GIT_FILES small files
// (default 1,000, ~1 KiB each, one API commit) and BENCH_GIT_LFS_FILES LFS files of BENCH_GIT_LFS_BYTES
// each (default 2 × 64 MiB; the 1 GB is BENCH_GIT_LFS_FILES=4 BENCH_GIT_LFS_BYTES=268435456). The
// hub runs as its own process on a fresh data folder (embedded database, files on disk); the first clone
// (which fills the git cache) is reported on its own, then BENCH_GIT_ROUNDS (default 3) pairs.
//
//   npm run build && node packages/hub/bench/git.bench.mjs
//
// Prints one JSON line per measurement and a summary line (min and median seconds, and the ratio
// snapshot_download / git clone: ≥ 0.8 is the goal, 1 means as fast).
import { spawn } from "node:child_process";
import { mkdirSync, statSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startServer, stopServer } from "./process.mjs";
import { hubApi, putGenerated, pythonEnvironment, sha256Of } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const cli = process.env.BENCH_HUB_CLI ?? join(here, "..", "dist", "cli.js");
const FILES = Number(process.env.BENCH_GIT_FILES ?? 1000);
const LFS_FILES = Number(process.env.BENCH_GIT_LFS_FILES ?? 2);
const LFS_BYTES = Number(process.env.BENCH_GIT_LFS_BYTES ?? 64 * 1024 ** 2);
const ROUNDS = Number(process.env.BENCH_GIT_ROUNDS ?? 3);
const ADMIN = "git-bench-admin-token";

function timed(command, args, env) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(command, args, {
			env: { PATH: process.env.PATH ?? "", ...env },
			stdio: ["ignore", "ignore", "pipe"],
		});
		let err = "";
		child.stderr.on("data", (chunk) => (err += chunk));
		child.on("exit", (code) =>
			code === 0
				? resolve((performance.now() - started) / 1000)
				: reject(new Error(`${command}: ${err.slice(-2000)}`)),
		);
	});
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dir = mkdtempSync(join(tmpdir(), "modelhub-git-bench-"));
const home = join(dir, "home");
mkdirSync(home);
writeFileSync(
	join(home, "gitconfig"),
	'[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n',
);
const gitEnv = {
	HOME: home,
	GIT_CONFIG_GLOBAL: join(home, "gitconfig"),
	GIT_CONFIG_NOSYSTEM: "1",
	GIT_TERMINAL_PROMPT: "0",
};
const { child, url } = startServer(process.execPath, [cli], {
	PORT: "0",
	MODELHUB_DATA_DIR: join(dir, "data"),
	MODELHUB_ADMIN_TOKEN: ADMIN,
	MODELHUB_LOG_LEVEL: "warn",
});
try {
	const base = await url;
	const interpreter = pythonEnvironment();
	const { token } = await hubApi(base, "POST", "/api/admin/users", ADMIN, { name: "bench" });
	await hubApi(base, "POST", "/api/repos/create", token, { name: "clone" });
	const lines = [{ key: "header", value: { summary: `${FILES} small files` } }];
	for (let index = 0; index < FILES; index++) {
		const content = `file ${index}\n${"x".repeat(1000 + (index % 100))}\n`;
		lines.push({
			key: "file",
			value: {
				path: `files/${index % 10}/f${index}.txt`,
				content: Buffer.from(content).toString("base64"),
				encoding: "base64",
			},
		});
	}
	for (let index = 0; index < LFS_FILES; index++) {
		const oid = await sha256Of(LFS_BYTES, 10 + index);
		const batch = await hubApi(
			base,
			"POST",
			"/bench/clone.git/info/lfs/objects/batch",
			token,
			{ operation: "upload", transfers: ["basic"], objects: [{ oid, size: LFS_BYTES }], hash_algo: "sha256" },
			"application/vnd.git-lfs+json",
		);
		await putGenerated(batch.objects[0].actions.upload.href, LFS_BYTES, 10 + index);
		lines.push({
			key: "lfsFile",
			value: { path: `weights-${index}.bin`, algo: "sha256", oid, size: LFS_BYTES },
		});
	}
	await hubApi(
		base,
		"POST",
		"/api/models/bench/clone/commit/main",
		token,
		lines.map((line) => JSON.stringify(line)).join("\n"),
		"application/x-ndjson",
	);
	const clone = async (round) => {
		const target = join(dir, `clone-${round}`);
		const seconds = await timed("git", ["clone", "-q", `${base}/bench/clone`, target], gitEnv);
		// git-lfs fetched the bytes (not left pointers): the clone holds them, as the download does.
		for (let index = 0; index < LFS_FILES; index++) {
			if (statSync(join(target, `weights-${index}.bin`)).size !== LFS_BYTES)
				throw new Error("LFS file not fetched");
		}
		rmSync(target, { recursive: true, force: true });
		return seconds;
	};
	const download = async (round) => {
		const target = join(dir, `download-${round}`);
		const script = `from huggingface_hub import snapshot_download\nsnapshot_download("bench/clone", local_dir=${JSON.stringify(target)}, endpoint=${JSON.stringify(base)})`;
		const seconds = await timed(interpreter, ["-c", script], {
			HF_HOME: join(dir, `hf-home-${round}`),
			HF_HUB_DISABLE_TELEMETRY: "1",
			HF_HUB_DISABLE_PROGRESS_BARS: "1",
		});
		rmSync(target, { recursive: true, force: true });
		rmSync(join(dir, `hf-home-${round}`), { recursive: true, force: true });
		return seconds;
	};
	const shape = { files: FILES, lfsFiles: LFS_FILES, lfsBytes: LFS_BYTES };
	console.log(
		JSON.stringify({
			benchmark: "git-clone-first",
			...shape,
			seconds: Number((await clone("first")).toFixed(2)),
		}),
	);
	const clones = [];
	const downloads = [];
	for (let round = 0; round < ROUNDS; round++) {
		const first = round % 2 === 0;
		if (first) clones.push(await clone(round));
		downloads.push(await download(round));
		if (!first) clones.push(await clone(round));
		console.log(
			JSON.stringify({
				benchmark: "git-clone-round",
				round,
				clone: clones.at(-1),
				download: downloads.at(-1),
			}),
		);
	}
	console.log(
		JSON.stringify({
			benchmark: "git-clone",
			...shape,
			cloneMin: Number(Math.min(...clones).toFixed(2)),
			cloneMedian: Number(median(clones).toFixed(2)),
			downloadMin: Number(Math.min(...downloads).toFixed(2)),
			downloadMedian: Number(median(downloads).toFixed(2)),
			ratio: Number((median(downloads) / median(clones)).toFixed(2)),
		}),
	);
} finally {
	await stopServer(child);
	rmSync(dir, { recursive: true, force: true });
}
