#!/usr/bin/env node
// The hub CLI's one-shot commands on the embedded database: the wall time, CPU time (user + system) and
// peak memory of one process per command, as an administrator runs them (`user list`, `token create`,
// `import` of a list of models). Each command runs BENCH_ROUNDS times (default 5) on one data folder made
// first; with a second build the two builds' runs alternate. The figures are read by the measured process
// itself at exit (process.resourceUsage, through a module loaded with --import), so the machine's other
// work shows in the wall time but hardly in the CPU time.
//
//   npm run build && node packages/hub/bench/cli.bench.mjs
//
// To compare two builds: BENCH_CLI_BEFORE=<older build's packages/hub/dist/cli.js>. BENCH_CLI is the build
// measured (default this package's); BENCH_IMPORT_MODELS the size of the imported list (default 2,000).
// Prints one JSON line per build and command.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildsToCompare, median } from "./support.mjs";

const BUILDS = buildsToCompare();
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const IMPORT_MODELS = Number(process.env.BENCH_IMPORT_MODELS ?? 2000);
const USAGE_MARK = "cli-bench-usage ";

const dir = mkdtempSync(join(tmpdir(), "modelhub-cli-bench-"));
// Printed by the measured process on its way out: its own CPU time and peak resident memory.
const hook = join(dir, "usage-hook.mjs");
writeFileSync(
	hook,
	`process.on("exit", () => {
	const usage = process.resourceUsage();
	process.stderr.write(${JSON.stringify(USAGE_MARK)} + JSON.stringify({ cpuUs: usage.userCPUTime + usage.systemCPUTime, maxRssKiB: usage.maxRSS }) + "\\n");
});
`,
);
const models = join(dir, "models.json");
writeFileSync(
	models,
	JSON.stringify(
		Array.from({ length: IMPORT_MODELS }, (_, index) => ({
			id: `bench/model-${String(index).padStart(5, "0")}`,
			pipeline_tag: "text-generation",
			library_name: "transformers",
			tags: ["transformers", `batch-${index % 7}`],
			downloads: index,
		})),
	),
);

function runCommand(cli, dataDir, args) {
	return new Promise((resolve, reject) => {
		const started = process.hrtime.bigint();
		const child = spawn(process.execPath, ["--import", hook, cli, ...args], {
			env: { PATH: process.env.PATH ?? "", MODELHUB_DATA_DIR: dataDir, MODELHUB_LOG_LEVEL: "warn" },
			stdio: ["ignore", "pipe", "pipe"],
		});
		let output = "";
		child.stdout.on("data", (chunk) => (output += chunk));
		child.stderr.on("data", (chunk) => (output += chunk));
		child.on("error", reject);
		child.on("exit", (code) => {
			const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
			const line = output.split("\n").find((text) => text.startsWith(USAGE_MARK));
			if (code !== 0 || !line) {
				reject(new Error(`${args.join(" ")} exited with ${code}:\n${output}`));
				return;
			}
			const usage = JSON.parse(line.slice(USAGE_MARK.length));
			resolve({ wallMs, cpuMs: usage.cpuUs / 1000, maxRssMiB: usage.maxRssKiB / 1024 });
		});
	});
}

const COMMANDS = [
	{ name: "user list", args: () => ["user", "list"] },
	{ name: "token create", args: () => ["token", "create", "bench"] },
	{ name: `import (${IMPORT_MODELS} models)`, args: () => ["import", "--no-generated-files", models] },
];

try {
	const folders = {};
	for (const [build, cli] of Object.entries(BUILDS)) {
		folders[build] = join(dir, `data-${build}`);
		await runCommand(cli, folders[build], ["user", "create", "bench"]);
	}
	const runs = {};
	for (let round = 0; round < ROUNDS; round++) {
		for (const command of COMMANDS) {
			for (const [build, cli] of Object.entries(BUILDS)) {
				const key = `${build}\0${command.name}`;
				(runs[key] ??= []).push(await runCommand(cli, folders[build], command.args()));
			}
		}
	}
	for (const command of COMMANDS) {
		for (const build of Object.keys(BUILDS)) {
			const rounds = runs[`${build}\0${command.name}`];
			console.log(
				JSON.stringify({
					benchmark: "hub-cli-command",
					build,
					command: command.name,
					rounds: rounds.length,
					wallMs: Math.round(median(rounds.map((r) => r.wallMs))),
					cpuMs: Math.round(median(rounds.map((r) => r.cpuMs))),
					maxRssMiB: Math.round(median(rounds.map((r) => r.maxRssMiB))),
				}),
			);
		}
	}
} finally {
	rmSync(dir, { recursive: true, force: true });
}
