// Cold import time of dist/index.js, measured inside a fresh node process (median of 10).
// Needs `npm run build` first. Prints one JSON line: {"bench":"import", median_ms, runs_ms, ...}.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = pathToFileURL(join(here, "..", "dist", "index.js")).href;
const RUNS = 10;

const probe = `const t0 = performance.now(); await import(${JSON.stringify(dist)}); console.log(performance.now() - t0);`;
const runs = [];
for (let i = 0; i < RUNS; i++) {
	const out = execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" });
	runs.push(Number(out.trim()));
}
const sorted = [...runs].sort((a, b) => a - b);
const median = (sorted[4] + sorted[5]) / 2;
console.log(
	JSON.stringify({
		bench: "import",
		runs: RUNS,
		median_ms: Number(median.toFixed(2)),
		runs_ms: runs.map((value) => Number(value.toFixed(2))),
		target_ms: 10,
	}),
);
