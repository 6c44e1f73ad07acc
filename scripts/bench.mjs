#!/usr/bin/env node
// Runs every benchmark (`packages/*/bench/*.bench.mjs`, `apps/*/bench/*.bench.mjs`) one after another in its
// own Node process, so that one benchmark's warm caches and heap do not colour the next. Each benchmark
// prints JSON lines; this collects them into .bench-results/latest.json and prints a summary.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const only = process.argv.slice(2);
const files = [];
for (const group of ["packages", "apps"]) {
	for (const pkg of readdirSync(join(root, group))) {
		const dir = join(root, group, pkg, "bench");
		if (!existsSync(dir)) continue;
		for (const file of readdirSync(dir).sort()) {
			if (file.endsWith(".bench.mjs")) files.push(join(dir, file));
		}
	}
}

const results = [];
let failed = 0;
for (const file of files) {
	const name = relative(root, file);
	if (only.length > 0 && !only.some((pattern) => name.includes(pattern))) continue;
	console.log(`\n▶ ${name}`);
	const run = spawnSync(process.execPath, [file], {
		cwd: root,
		encoding: "utf8",
		stdio: ["ignore", "pipe", "inherit"],
	});
	process.stdout.write(run.stdout);
	if (run.status !== 0) {
		failed++;
		console.error(`✖ ${name} exited with ${run.status}`);
		continue;
	}
	for (const line of run.stdout.split("\n")) {
		if (!line.startsWith("{")) continue;
		try {
			results.push({ bench: name, ...JSON.parse(line) });
		} catch {
			// Not a result line.
		}
	}
}

mkdirSync(join(root, ".bench-results"), { recursive: true });
writeFileSync(join(root, ".bench-results", "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\n${results.length} results from ${files.length} benchmark files → .bench-results/latest.json`);
process.exit(failed > 0 ? 1 : 0);
