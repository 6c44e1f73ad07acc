// Snippet generation speed: calls per second of getInferenceSnippets over one model per pipeline × every
// provider that serves it (warm-up, then at least 2 s timed). Target: 12,000 calls/s (30× the incumbent's
// ~380 on a 2-core machine). Uses the built `@modelhub/inference/snippets` sub-path (run `npm run build`).
// Also the CPU time per call (process.cpuUsage over the timed loop: steadier than calls/s when other
// work shares the cores). BENCH_BUILD=<checkout> measures that checkout's build instead (for before/after
// pairs: run it alternately with and without). Prints one JSON line: {"name":"snippets","callsPerSecond":...}.
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const TARGET = 12_000;
const WARMUP_MS = 500;
// Also at least this many rounds of warm-up, so that a loaded machine still runs optimised code when timed.
const WARMUP_ROUNDS = 50;
const TIMED_MS = 2_000;

const packagesDir = process.env.BENCH_BUILD
	? join(process.env.BENCH_BUILD, "packages")
	: join(here, "..", "..");
const distFile = (pkg, file) => join(packagesDir, pkg, "dist", file);
for (const file of [distFile("inference", "snippets.js"), distFile("tasks", "inputs.js")]) {
	if (!existsSync(file)) {
		console.error(`${file} is missing: run \`npm run build\` first.`);
		process.exit(1);
	}
}
const { getInferenceSnippets } = await import(pathToFileURL(distFile("inference", "snippets.js")).href);
const { INFERENCE_PROVIDERS } = await import(pathToFileURL(distFile("inference", "index.js")).href);
const { PIPELINES_WITH_INPUT_EXAMPLE } = await import(pathToFileURL(distFile("tasks", "inputs.js")).href);

/** One model per pipeline (plus the two chat pipelines with the conversational tag) × the providers that serve it. */
function workload(getInferenceSnippets) {
	const models = PIPELINES_WITH_INPUT_EXAMPLE.map((pipeline) => ({
		id: `acme/${pipeline}`,
		pipeline_tag: pipeline,
		tags: [],
	}));
	models.push(
		{ id: "acme/chat", pipeline_tag: "text-generation", tags: ["conversational"] },
		{ id: "acme/vision-chat", pipeline_tag: "image-text-to-text", tags: ["conversational"] },
	);
	const calls = [];
	const quiet = console.error;
	console.error = () => undefined;
	try {
		for (const model of models) {
			for (const provider of INFERENCE_PROVIDERS) {
				const id = provider === "openai" ? `openai/${model.id.split("/")[1]}` : model.id;
				const task = model.tags.includes("conversational") ? "conversational" : model.pipeline_tag;
				const mapping =
					provider === "openai"
						? undefined
						: { hfModelId: id, providerId: `${provider}/${model.id}`, status: "live", task };
				const args = [{ ...model, id }, undefined, provider, mapping, { billTo: "acme" }];
				if (getInferenceSnippets(...args).length > 0) calls.push(args);
			}
		}
	} finally {
		console.error = quiet;
	}
	return calls;
}

function runFor(ms, fn, calls) {
	const deadline = performance.now() + ms;
	let count = 0;
	let sink = 0;
	while (performance.now() < deadline) {
		for (const args of calls) sink += fn(...args).length;
		count += calls.length;
	}
	return { count, sink };
}

const fn = getInferenceSnippets;
const calls = workload(fn);
for (let round = 0; round < WARMUP_ROUNDS; round++) for (const args of calls) fn(...args);
runFor(WARMUP_MS, fn, calls);
const start = performance.now();
const cpuStart = process.cpuUsage();
const { count } = runFor(TIMED_MS, fn, calls);
const cpu = process.cpuUsage(cpuStart);
const seconds = (performance.now() - start) / 1000;
const callsPerSecond = Math.round(count / seconds);
console.log(
	JSON.stringify({
		name: "snippets",
		callsPerSecond,
		cpuMicrosPerCall: Number(((cpu.user + cpu.system) / count).toFixed(2)),
		target: TARGET,
		meetsTarget: callsPerSecond >= TARGET,
		cases: calls.length,
		source: process.env.BENCH_BUILD ? distFile("inference", "snippets.js") : "dist/snippets.js",
	}),
);
