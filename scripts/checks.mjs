#!/usr/bin/env node
/**
 * `npm test`'s steps before vitest, two at a time: the build, then the type checks (they read the
 * packages' built declarations), beside lint and format:check (they read only the sources). One after
 * another they left a core idle for most of their ~3 minutes on a 2-core machine (the build and tsc are
 * mostly one thread each). Each step's output is printed whole when it ends; the exit code is non-zero
 * when any step failed, after every step has run, so one run reports every failure.
 */
import { spawn } from "node:child_process";

/** One npm script, its output kept and printed in one piece at its end. */
function run(script) {
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn("npm", ["run", script], { stdio: ["ignore", "pipe", "pipe"] });
		const output = [];
		child.stdout.on("data", (chunk) => output.push(chunk));
		child.stderr.on("data", (chunk) => output.push(chunk));
		const finish = (code, detail = "") => {
			const seconds = ((Date.now() - started) / 1000).toFixed(0);
			process.stdout.write(`\n> ${script} (${seconds} s)${code === 0 ? "" : ` FAILED${detail}`}\n`);
			process.stdout.write(Buffer.concat(output));
			resolve(code === 0);
		};
		child.on("error", (error) => finish(1, `: ${error.message}`));
		child.on("close", (code, signal) => finish(code ?? 1, signal ? ` (${signal})` : ""));
	});
}

const results = await Promise.all([
	run("build").then((built) => (built ? run("typecheck") : false)),
	run("lint").then(async (linted) => (await run("format:check")) && linted),
]);
if (results.includes(false)) {
	process.stderr.write("\nnpm test: a check failed (see above); the tests were not run.\n");
	process.exit(1);
}
