// Snippet generation speed: calls per second of getInferenceSnippets over one model per pipeline × every
// provider that serves it (warm-up, then at least 2 s timed). Target: 12,000 calls/s (30× the incumbent's
// ~380 on a 2-core machine). Uses the built `@modelhub/inference/snippets` sub-path or the `snippets`
// export of dist/index.js when the build has them; otherwise bundles src/snippets/index.ts with esbuild.
// Prints one JSON line: {"name":"snippets","callsPerSecond":...}.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "..");
const TARGET = 12_000;
const WARMUP_MS = 500;
const TIMED_MS = 2_000;

async function loadGenerator() {
	for (const file of ["snippets.js", "snippets/index.js"]) {
		const path = join(packageDir, "dist", file);
		if (existsSync(path)) {
			const module = await import(pathToFileURL(path).href);
			if (typeof module.getInferenceSnippets === "function")
				return { fn: module.getInferenceSnippets, source: `dist/${file}` };
		}
	}
	const distIndex = join(packageDir, "dist", "index.js");
	if (existsSync(distIndex)) {
		const module = await import(pathToFileURL(distIndex).href);
		if (typeof module.snippets?.getInferenceSnippets === "function") {
			return { fn: module.snippets.getInferenceSnippets, source: "dist/index.js (snippets)" };
		}
	}
	// Not wired into the build yet: bundle the source once (esbuild comes with tsup).
	const requireFromTsup = createRequire(createRequire(import.meta.url).resolve("tsup"));
	const esbuild = requireFromTsup("esbuild");
	const dir = mkdtempSync(join(tmpdir(), "modelhub-snippets-bench-"));
	const outfile = join(dir, "snippets.mjs");
	try {
		await esbuild.build({
			entryPoints: [join(packageDir, "src", "snippets", "index.ts")],
			bundle: true,
			format: "esm",
			platform: "node",
			outfile,
			logLevel: "silent",
		});
		const module = await import(pathToFileURL(outfile).href);
		return { fn: module.getInferenceSnippets, source: "esbuild bundle of src/snippets/index.ts" };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const PROVIDERS = [
	"black-forest-labs",
	"cerebras",
	"cohere",
	"fal-ai",
	"featherless-ai",
	"fireworks-ai",
	"groq",
	"hf-inference",
	"hyperbolic",
	"nebius",
	"novita",
	"nscale",
	"openai",
	"ovhcloud",
	"replicate",
	"sambanova",
	"together",
];

const PIPELINES = [
	"audio-classification",
	"audio-to-audio",
	"automatic-speech-recognition",
	"document-question-answering",
	"feature-extraction",
	"fill-mask",
	"image-classification",
	"image-segmentation",
	"image-to-image",
	"image-to-text",
	"object-detection",
	"question-answering",
	"sentence-similarity",
	"summarization",
	"table-question-answering",
	"tabular-classification",
	"tabular-regression",
	"text-classification",
	"text-generation",
	"text-to-audio",
	"text-to-image",
	"text-to-speech",
	"text-to-video",
	"token-classification",
	"translation",
	"zero-shot-classification",
	"zero-shot-image-classification",
];

/** One model per pipeline (plus the two chat pipelines with the conversational tag) × the providers that serve it. */
function workload(getInferenceSnippets) {
	const models = PIPELINES.map((pipeline) => ({ id: `acme/${pipeline}`, pipeline_tag: pipeline, tags: [] }));
	models.push(
		{ id: "acme/chat", pipeline_tag: "text-generation", tags: ["conversational"] },
		{ id: "acme/vision-chat", pipeline_tag: "image-text-to-text", tags: ["conversational"] },
	);
	const calls = [];
	const quiet = console.error;
	console.error = () => undefined;
	try {
		for (const model of models) {
			for (const provider of PROVIDERS) {
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

const { fn, source } = await loadGenerator();
const calls = workload(fn);
runFor(WARMUP_MS, fn, calls);
const start = performance.now();
const { count } = runFor(TIMED_MS, fn, calls);
const seconds = (performance.now() - start) / 1000;
const callsPerSecond = Math.round(count / seconds);
console.log(
	JSON.stringify({
		name: "snippets",
		callsPerSecond,
		target: TARGET,
		meetsTarget: callsPerSecond >= TARGET,
		cases: calls.length,
		source,
	}),
);
