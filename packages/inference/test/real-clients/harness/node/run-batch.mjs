/**
 * Runs a batch of node snippets in this one process, each as its own ES module file (a fresh module
 * scope, as `node file.mjs` gives it). Usage: node --import ./redirect.mjs run-batch.mjs <batch.json>
 * <results.json>. Each item is {id, file, env}; the result is the exit status `node file.mjs` would
 * give (0, or 1 for an uncaught error or rejection), the error and the output.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const TIMEOUT_MS = 60_000;
const RUN = Symbol.for("modelhub.harness.run");
const baseEnv = { ...process.env };
let current;

/** One line naming the error, as the first line of node's report of it. */
function summary(error) {
	return error instanceof Error ? `${error.name}: ${error.message}`.split("\n")[0] : String(error);
}

process.on("unhandledRejection", (reason) => {
	if (!current) return;
	current.errors.push(`unhandled rejection: ${summary(reason)}`);
	current.output.push(`${reason?.stack ?? reason}\n`);
});

const results = [];
for (const item of JSON.parse(readFileSync(process.argv[2], "utf8"))) {
	for (const key of Object.keys(process.env)) if (!(key in baseEnv)) delete process.env[key];
	Object.assign(process.env, baseEnv, item.env);
	globalThis[RUN] = item.id;
	current = { errors: [], output: [] };
	const write = process.stdout.write;
	const writeErr = process.stderr.write;
	process.stdout.write = (chunk) => (current.output.push(String(chunk)), true);
	process.stderr.write = (chunk) => (current.output.push(String(chunk)), true);
	let timer;
	const started = performance.now();
	try {
		await Promise.race([
			import(pathToFileURL(item.file).href),
			new Promise((_, reject) => {
				timer = setTimeout(
					() => reject(new Error(`snippet still running after ${TIMEOUT_MS} ms`)),
					TIMEOUT_MS,
				);
			}),
		]);
		// Let rejections of promises the snippet did not await surface.
		await new Promise((resolve) => setTimeout(resolve, 0));
	} catch (error) {
		current.errors.push(summary(error));
		current.output.push(`${error?.stack ?? error}\n`);
	} finally {
		clearTimeout(timer);
		process.stdout.write = write;
		process.stderr.write = writeErr;
	}
	results.push({
		id: item.id,
		status: current.errors.length ? 1 : 0,
		error: current.errors[0] ?? null,
		output: current.output.join("").slice(-4000),
		seconds: Math.round(performance.now() - started) / 1000,
	});
}
writeFileSync(process.argv[3], JSON.stringify(results));
process.exit(0);
