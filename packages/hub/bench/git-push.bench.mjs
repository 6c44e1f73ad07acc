#!/usr/bin/env node
// `git push` memory and time: the hub's peak resident memory (VmHWM of its process, reset through
// /proc/<pid>/clear_refs before each push) and the push's seconds, for three pushes to a fresh repository:
//   files   — one commit of BENCH_PUSH_FILES small files (default 20,000, ~2 KiB each) and
//             BENCH_PUSH_REGULAR files of BENCH_PUSH_REGULAR_BYTES (default 16 × 8 MiB, incompressible),
//             kept in git (under MODELHUB_MAX_REGULAR_FILE_BYTES);
//   commits — BENCH_PUSH_COMMITS commits (default 200) of 20 small files each;
//   big     — BENCH_PUSH_BIG_FILES regular files of BENCH_PUSH_REGULAR_BYTES in one commit (default 64 ×
//             8 MiB = 512 MiB of pack; 256 for the 2 GB), the pack's size growing with the push;
//   lfs     — one file of BENCH_PUSH_LFS_BYTES (default 512 MiB) tracked by git-lfs (uploaded by its
//             pre-push hook through the LFS batch API, then the pointer pushed).
// BENCH_PUSH_SCENARIOS picks some (comma-separated, in this order; default all).
// The hub runs as its own process on a fresh data folder (embedded database, files on disk).
//
//   npm run build && node packages/hub/bench/git-push.bench.mjs      (or: npm run bench git-push)
//
// Prints one JSON line per push: seconds, the hub's resident memory before, its peak during (VmHWM) and
// its resident memory sampled every 250 ms over the push (MiB): a curve that climbs with the push's bytes
// is memory held per byte pushed.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { pipeline } from "node:stream/promises";
import { clearInterval, setInterval } from "node:timers";
import { fileURLToPath } from "node:url";
import { startServer, stopServer } from "./process.mjs";
import { cpuSeconds, data, hubApi, rssMiB } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const cli = process.env.BENCH_HUB_CLI ?? join(here, "..", "dist", "cli.js");
const FILES = Number(process.env.BENCH_PUSH_FILES ?? 20_000);
const REGULAR = Number(process.env.BENCH_PUSH_REGULAR ?? 16);
const REGULAR_BYTES = Number(process.env.BENCH_PUSH_REGULAR_BYTES ?? 8 * 1024 ** 2);
const COMMITS = Number(process.env.BENCH_PUSH_COMMITS ?? 200);
const LFS_BYTES = Number(process.env.BENCH_PUSH_LFS_BYTES ?? 512 * 1024 ** 2);
const BIG_FILES = Number(process.env.BENCH_PUSH_BIG_FILES ?? 64);
const SCENARIOS = new Set((process.env.BENCH_PUSH_SCENARIOS ?? "files,commits,big,lfs").split(","));
const ADMIN = "git-push-bench-admin-token";

/** The peak resident memory of a process since its last reset, in MiB (Linux /proc). */
function peakMiB(pid) {
	const status = readFileSync(`/proc/${pid}/status`, "utf8");
	return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** Resets a process's peak resident memory to its current one (clear_refs "5"). */
function resetPeak(pid) {
	writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

const dir = mkdtempSync(join(tmpdir(), "modelhub-git-push-bench-"));
const home = join(dir, "home");
mkdirSync(home);
writeFileSync(
	join(home, "gitconfig"),
	[
		"[user]\n\tname = Bench\n\temail = bench@example.com",
		// The client stores blobs over 1 MiB without looking for deltas: its delta search among incompressible
		// 8 MiB files took most of a push's time (300 s for 32 of them at load 10), none of it the hub's.
		"[core]\n\tbigFileThreshold = 1m",
		'[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true',
		"",
	].join("\n"),
);
const gitEnv = {
	PATH: process.env.PATH ?? "",
	HOME: home,
	GIT_CONFIG_GLOBAL: join(home, "gitconfig"),
	GIT_CONFIG_NOSYSTEM: "1",
	GIT_TERMINAL_PROMPT: "0",
};

function git(args, cwd) {
	return new Promise((resolve, reject) => {
		const child = spawn("git", args, { cwd, env: gitEnv, stdio: ["ignore", "pipe", "pipe"] });
		let out = "";
		let err = "";
		child.stdout.on("data", (chunk) => (out += chunk));
		child.stderr.on("data", (chunk) => (err += chunk));
		child.on("exit", (code) =>
			code === 0 ? resolve(out) : reject(new Error(`git ${args.join(" ")}: ${err.slice(-2000)}`)),
		);
	});
}

const { child, url } = startServer(
	process.execPath,
	[...(process.env.BENCH_HUB_NODE_FLAGS ?? "").split(" ").filter(Boolean), cli],
	{
		PORT: "0",
		MODELHUB_DATA_DIR: join(dir, "data"),
		MODELHUB_ADMIN_TOKEN: ADMIN,
		MODELHUB_LOG_LEVEL: "warn",
		MODELHUB_GIT_MAX_PUSH_BYTES: String(4 * 1024 ** 3),
	},
);
try {
	const base = await url;
	const pid = child.pid;
	const { token } = await hubApi(base, "POST", "/api/admin/users", ADMIN, { name: "bench" });
	await hubApi(base, "POST", "/api/repos/create", token, { name: "push" });
	const work = join(dir, "work");
	await git(["clone", "-q", `${base}/bench/push`, work], dir);
	await git(
		["config", "credential.helper", `!f() { echo username=bench; echo password=${token}; }; f`],
		work,
	);
	await git(["config", "lfs.locksverify", "false"], work);

	const push = async (name, shape) => {
		resetPeak(pid);
		const before = rssMiB(pid);
		const cpuBefore = cpuSeconds(pid);
		const started = performance.now();
		const samples = [];
		const sampler = setInterval(() => samples.push(Math.round(rssMiB(pid))), 250);
		try {
			await git(["push", "-q", "origin", "main"], work);
		} finally {
			clearInterval(sampler);
		}
		const seconds = (performance.now() - started) / 1000;
		// Ten points of the sampled curve, evenly spaced over the push.
		const curve = Array.from(
			{ length: Math.min(10, samples.length) },
			(_, index) =>
				samples[Math.floor((index * (samples.length - 1)) / Math.max(1, Math.min(10, samples.length) - 1))],
		);
		const local = (await git(["rev-parse", "HEAD"], work)).trim();
		const { sha } = await hubApi(base, "GET", `/api/models/bench/push/revision/main`, token);
		if (sha !== local) throw new Error(`the hub's main is ${sha}, not the pushed ${local}`);
		console.log(
			JSON.stringify({
				benchmark: `git-push-${name}`,
				...shape,
				seconds: Number(seconds.toFixed(2)),
				hubCpuSeconds: Number((cpuSeconds(pid) - cpuBefore).toFixed(2)),
				rssBeforeMiB: Math.round(before),
				rssPeakMiB: Math.round(peakMiB(pid)),
				rssSampledMiB: curve,
			}),
		);
	};

	// Many small files and some large regular ones, one commit.
	if (SCENARIOS.has("files")) {
		for (let index = 0; index < FILES; index++) {
			const folder = join(work, "files", String(index % 100));
			if (index < 100) mkdirSync(folder, { recursive: true });
			writeFileSync(join(folder, `f${index}.txt`), `file ${index}\n${"x".repeat(2000 + (index % 100))}\n`);
		}
		for (let index = 0; index < REGULAR; index++) {
			await pipeline(data(REGULAR_BYTES, 20 + index), createWriteStream(join(work, `regular-${index}.dat`)));
		}
		await git(["add", "-A"], work);
		await git(["commit", "-q", "-m", `${FILES} small files and ${REGULAR} regular files`], work);
		await push("files", { files: FILES, regular: REGULAR, regularBytes: REGULAR_BYTES });
	}

	// Many commits.
	if (SCENARIOS.has("commits")) {
		for (let commit = 0; commit < COMMITS; commit++) {
			const folder = join(work, "commits", String(commit));
			mkdirSync(folder, { recursive: true });
			for (let index = 0; index < 20; index++)
				writeFileSync(join(folder, `c${index}.txt`), `commit ${commit} file ${index}\n${"y".repeat(1500)}\n`);
			await git(["add", "-A"], work);
			await git(["commit", "-q", "-m", `Commit ${commit}`], work);
		}
		await push("commits", { commits: COMMITS, filesPerCommit: 20 });
	}

	// A pack that grows with the push: many regular files of the largest size kept in git.
	if (SCENARIOS.has("big")) {
		mkdirSync(join(work, "big"));
		for (let index = 0; index < BIG_FILES; index++) {
			await pipeline(
				data(REGULAR_BYTES, 1000 + index),
				createWriteStream(join(work, "big", `part-${index}.dat`)),
			);
		}
		await git(["add", "-A"], work);
		await git(["commit", "-q", "-m", `${BIG_FILES} regular files`], work);
		await push("big", {
			files: BIG_FILES,
			regularBytes: REGULAR_BYTES,
			packMiB: (BIG_FILES * REGULAR_BYTES) / 1024 ** 2,
		});
	}

	// One large LFS file.
	if (SCENARIOS.has("lfs")) {
		await git(["lfs", "install", "--local"], work);
		await git(["lfs", "track", "*.bin"], work);
		await pipeline(data(LFS_BYTES, 7), createWriteStream(join(work, "weights.bin")));
		await git(["add", ".gitattributes", "weights.bin"], work);
		await git(["commit", "-q", "-m", "Large LFS file"], work);
		await push("lfs", { lfsBytes: LFS_BYTES });
	}
} finally {
	await stopServer(child);
	rmSync(dir, { recursive: true, force: true });
}
