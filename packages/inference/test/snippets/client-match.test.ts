/**
 * Snippets match the client: for every provider × task, the client's task function and the raw-HTTP
 * snippets (js/fetch run by node, python/requests run by python3, sh/curl run by bash with the real
 * curl) send their request to one node:http server on 127.0.0.1; method, URL, headers and body must be
 * the same. The js/huggingface.js snippets run too, against a bundle of this package's source: they are
 * our client, so they must send exactly what the direct client call sends. URLs are rewritten the way the client's own tests do it
 * (https://host/path → http://127.0.0.1:PORT/host/path), by a thin wrapper around each runtime's HTTP call.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { getModelInputExample, type ModelDataMinimal } from "@modelhub/tasks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as client from "../../src/index.js";
import { clearProviderMappingCache } from "../../src/lib/provider-mapping.js";
import { getInferenceSnippets, type InferenceSnippetOptions } from "../../src/snippets/index.js";
import { extraExample } from "../../src/snippets/inputs.js";
import type {
	InferenceProvider,
	InferenceProviderMappingEntry,
	InferenceTask,
	Options,
} from "../../src/types.js";
import { HF_TOKEN, PROVIDER_KEY, mappingFor, modelFor, providersFor } from "./support.js";

interface Recorded {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

const FILES: Record<string, Uint8Array<ArrayBuffer>> = {
	"sample1.flac": new Uint8Array([0x66, 0x4c, 0x61, 0x43, 0, 0, 0, 0x22, 1, 2, 3, 250, 251]),
	// fal.ai speech recognition reads a WAV of the same name (fal.ai takes no FLAC); same bytes, so bodies compare.
	"sample1.wav": new Uint8Array([0x66, 0x4c, 0x61, 0x43, 0, 0, 0, 0x22, 1, 2, 3, 250, 251]),
	"cats.jpg": new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 7, 8, 9]),
	"cat.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 4, 5, 6]),
};
const BILL_TO = "acme-billing";
const COMPARED_HEADERS = ["authorization", "content-type", "x-hf-bill-to", "prefer"];

/** Client task function per pipeline. */
const TASK_FUNCTIONS: Record<string, string> = {
	"audio-classification": "audioClassification",
	"audio-to-audio": "audioToAudio",
	"automatic-speech-recognition": "automaticSpeechRecognition",
	"document-question-answering": "documentQuestionAnswering",
	"feature-extraction": "featureExtraction",
	"fill-mask": "fillMask",
	"image-classification": "imageClassification",
	"image-segmentation": "imageSegmentation",
	"image-to-image": "imageToImage",
	"image-to-text": "imageToText",
	"image-to-video": "imageToVideo",
	"object-detection": "objectDetection",
	"question-answering": "questionAnswering",
	"sentence-similarity": "sentenceSimilarity",
	summarization: "summarization",
	"table-question-answering": "tableQuestionAnswering",
	"tabular-classification": "tabularClassification",
	"tabular-regression": "tabularRegression",
	"text-classification": "textClassification",
	"text-generation": "textGeneration",
	"text-to-audio": "textToAudio",
	"text-to-image": "textToImage",
	"text-to-speech": "textToSpeech",
	"text-to-video": "textToVideo",
	"token-classification": "tokenClassification",
	translation: "translation",
	"zero-shot-classification": "zeroShotClassification",
	"zero-shot-image-classification": "zeroShotImageClassification",
};

interface MatchCase {
	id: string;
	label: string;
	model: ModelDataMinimal;
	provider: InferenceProvider;
	task: InferenceTask;
	mapping?: InferenceProviderMappingEntry;
	/** Token given to the snippet generator (undefined: the snippet reads it from the environment). */
	snippetToken?: string;
	/** Token the client is called with (what the environment holds for env snippets). */
	clientToken: string;
	opts: InferenceSnippetOptions;
}

const TYPES: Record<string, string> = {
	flac: "audio/flac",
	wav: "audio/wav",
	jpg: "image/jpeg",
	png: "image/png",
};

/** The example file as a Blob typed from its extension, as a user's would be. */
function blob(name: string, type?: string): Blob {
	const bytes = FILES[name] as Uint8Array<ArrayBuffer>;
	return new Blob([bytes], { type: type ?? TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "" });
}

/** The client call a user would write for the same example. */
async function callClient(c: MatchCase, fetchFn: typeof fetch): Promise<void> {
	const options: Options = { fetch: fetchFn, billTo: c.opts.billTo, retry_on_error: false };
	const base = { accessToken: c.clientToken, provider: c.provider, model: c.model.id };
	const pipeline = c.model.pipeline_tag as string;
	const fns = client as unknown as Record<string, (args: unknown, options?: unknown) => unknown>;
	const run = async (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
		const fn = fns[name] as (args: unknown, options?: unknown) => Promise<unknown> | AsyncGenerator<unknown>;
		const result = fn({ ...base, ...args }, { ...options, ...extra });
		if (Symbol.asyncIterator in Object(result)) {
			for await (const _ of result as AsyncGenerator<unknown>) break;
		} else await result;
	};
	const example = getModelInputExample(c.model) ?? extraExample(pipeline);
	const calls: Record<string, () => Promise<void>> = {
		conversational: () =>
			run(c.opts.streaming ? "chatCompletionStream" : "chatCompletion", {
				messages: example?.kind === "messages" ? example.messages : [],
			}),
	};
	const call =
		calls[c.task] ??
		(() => {
			switch (example?.kind) {
				case "text":
					return run(
						TASK_FUNCTIONS[pipeline] as string,
						pipeline === "zero-shot-classification"
							? { inputs: example.text, parameters: { candidate_labels: ["refund", "legal", "faq"] } }
							: { inputs: example.text },
					);
				case "table":
					return run(TASK_FUNCTIONS[pipeline] as string, { inputs: { data: example.value } });
				case "object": {
					const value = example.value as Record<string, string>;
					if (pipeline === "document-question-answering") {
						return run("documentQuestionAnswering", {
							inputs: { image: blob(value.image as string), question: value.question },
						});
					}
					if (pipeline === "image-to-image" || pipeline === "image-to-video") {
						return run(TASK_FUNCTIONS[pipeline] as string, {
							inputs: blob(value.image as string),
							parameters: { prompt: value.prompt },
						});
					}
					return run(TASK_FUNCTIONS[pipeline] as string, { inputs: value });
				}
				case "file": {
					if (pipeline === "zero-shot-image-classification") {
						return run("zeroShotImageClassification", {
							inputs: blob(example.fileName),
							parameters: { candidate_labels: ["cat", "dog", "llama"] },
						});
					}
					// fal.ai refuses audio/flac blobs; the snippet reads a WAV (data URLs are compared without their type).
					const audioForFal = c.provider === "fal-ai" && example.mediaType === "audio";
					return run(TASK_FUNCTIONS[pipeline] as string, {
						inputs: blob(example.fileName, audioForFal ? "audio/wav" : undefined),
					});
				}
				default:
					throw new Error(`no client call for ${c.label}`);
			}
		});
	await call().catch(() => undefined);
}

function cases(): MatchCase[] {
	const out: MatchCase[] = [];
	const pipelines = Object.keys(TASK_FUNCTIONS);
	const variants: Array<{ pipeline: string; tags: string[]; task: InferenceTask }> = pipelines.map(
		(pipeline) => ({
			pipeline,
			tags: [],
			task: pipeline as InferenceTask,
		}),
	);
	variants.push(
		{ pipeline: "text-generation", tags: ["conversational"], task: "conversational" },
		{ pipeline: "image-text-to-text", tags: ["conversational"], task: "conversational" },
	);
	let n = 0;
	for (const { pipeline, tags, task } of variants) {
		for (const provider of providersFor(task)) {
			const id = provider === "openai" ? `openai/${pipeline}-${task}` : `acme/${pipeline}-${task}`;
			const model = {
				...modelFor(pipeline, tags),
				id,
				...(pipeline === "text-to-speech" ? { library_name: "transformers" } : {}),
			};
			const mapping = mappingFor(model, provider, task);
			const tokens: Array<[string, string | undefined, string, boolean]> = [
				["hub token", HF_TOKEN, HF_TOKEN, false],
				["provider key", PROVIDER_KEY, PROVIDER_KEY, false],
				["env hub token", undefined, HF_TOKEN, false],
				["env provider key", undefined, PROVIDER_KEY, true],
			];
			for (const [tokenName, snippetToken, clientToken, directRequest] of tokens) {
				if (provider === "openai" && clientToken === HF_TOKEN) continue;
				if (provider === "hf-inference" && directRequest) continue;
				for (const streaming of task === "conversational" ? [false, true] : [false]) {
					out.push({
						id: `case-${n++}`,
						label: `${pipeline}${tags.length ? "+chat" : ""} @ ${provider} | ${tokenName}${streaming ? " | streaming" : ""}`,
						model,
						provider,
						task,
						mapping,
						snippetToken,
						clientToken,
						opts: { billTo: BILL_TO, streaming, directRequest },
					});
				}
			}
		}
	}
	return out;
}

const PYTHON_RUNNER = String.raw`
import json, os, sys, types
from urllib.parse import urlsplit
import requests

origin = os.environ["SNIPPET_ORIGIN"]
current = {"id": ""}
original = requests.sessions.Session.request

def rewritten(self, method, url, *args, **kwargs):
    parts = urlsplit(url)
    target = origin + "/" + parts.netloc + parts.path + ("?" + parts.query if parts.query else "")
    headers = dict(kwargs.pop("headers", None) or {})
    headers["x-snippet-run"] = current["id"]
    return original(self, method, target, *args, headers=headers, **kwargs)

requests.sessions.Session.request = rewritten

# Output helpers some snippets use; only the request matters here.
for name in ("PIL", "IPython"):
    try:
        __import__(name)
    except ImportError:
        pass
if "PIL" not in sys.modules:
    pil = types.ModuleType("PIL"); image = types.ModuleType("PIL.Image")
    image.open = lambda *a, **k: None; pil.Image = image
    sys.modules["PIL"] = pil; sys.modules["PIL.Image"] = image

for item in json.load(open(sys.argv[1])):
    current["id"] = item["id"]
    try:
        exec(compile(item["code"], item["id"], "exec"), {"__name__": "__main__"})
    except Exception as error:
        print(item["id"], type(error).__name__, error, file=sys.stderr)
`;

const NODE_RUNNER = String.raw`
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const origin = process.env.SNIPPET_ORIGIN;
const realFetch = globalThis.fetch;
let current = "";
globalThis.fetch = (input, init = {}) => {
	const url = new URL(String(input));
	const headers = { ...init.headers, "x-snippet-run": current };
	return realFetch(origin + "/" + url.host + url.pathname + url.search, { ...init, headers });
};
for (const item of JSON.parse(readFileSync(process.argv[2], "utf8"))) {
	current = item.id;
	try {
		await import(pathToFileURL(item.file).href);
	} catch (error) {
		console.error(item.id, error.message);
	}
}
`;

const BASH_PRELUDE = [
	"curl() {",
	"\tlocal args=() arg",
	'\tfor arg in "$@"; do',
	'\t\tif [[ $arg == https://* ]]; then arg="$SNIPPET_ORIGIN/${arg#https://}"; fi',
	'\t\targs+=("$arg")',
	"\tdone",
	'\tcommand curl -s -o /dev/null -H "x-snippet-run: $SNIPPET_RUN" "${args[@]}"',
	"}",
	"",
].join("\n");

let server: Server;
let origin = "";
const recorded: Recorded[] = [];
const mappings = new Map<string, Record<string, unknown>>();
let all: MatchCase[] = [];
let workDir = "";
const snippetIndex = new Map<string, Map<string, string>>();

function requestsFor(id: string): Recorded[] {
	return recorded.filter((r) => r.headers["x-snippet-run"] === id && r.method === "POST");
}

beforeAll(async () => {
	vi.spyOn(console, "warn").mockImplementation(() => undefined);
	vi.spyOn(console, "log").mockImplementation(() => undefined);
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			const path = req.url ?? "/";
			recorded.push({ method: req.method ?? "GET", path, headers: req.headers, body: Buffer.concat(chunks) });
			const hub = /^\/huggingface\.co\/api\/models\/(.+)\?expand\[\]=inferenceProviderMapping$/.exec(path);
			const body = hub ? { id: hub[1], inferenceProviderMapping: mappings.get(hub[1] as string) ?? {} } : {};
			res.writeHead(200, { "content-type": "application/json" });
			res.end(JSON.stringify(body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	all = cases();
	for (const c of all) {
		if (!c.mapping) continue;
		const entry = mappings.get(c.model.id) ?? {};
		entry[c.provider] = { providerId: c.mapping.providerId, status: "live", task: c.mapping.task };
		mappings.set(c.model.id, entry);
	}

	// The client, in process.
	for (const c of all) {
		clearProviderMappingCache();
		const tagged: typeof fetch = (input, init) => {
			const url = new URL(input instanceof Request ? input.url : String(input));
			const headers = {
				...(init?.headers as Record<string, string> | undefined),
				"x-snippet-run": `${c.id}:client`,
			};
			return fetch(`${origin}/${url.host}${url.pathname}${url.search}`, { ...init, headers });
		};
		await callClient(c, tagged);
	}

	// The snippets, one process per language.
	workDir = mkdtempSync(join(tmpdir(), "modelhub-snippet-run-"));
	for (const [name, bytes] of Object.entries(FILES)) writeFileSync(join(workDir, name), bytes);
	mkdirSync(join(workDir, "js"));
	const bundle = join(workDir, "inference.mjs");
	const source = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "index.ts");
	await build({
		entryPoints: [source],
		bundle: true,
		platform: "node",
		format: "esm",
		outfile: bundle,
		logLevel: "silent",
	});
	const python: Array<{ id: string; code: string }> = [];
	const js: Array<{ id: string; file: string }> = [];
	let bash = BASH_PRELUDE;
	for (const c of all) {
		const snippets = getInferenceSnippets(c.model, c.snippetToken, c.provider, c.mapping, c.opts);
		const found = new Map<string, string>();
		for (const snippet of snippets) {
			const key = `${snippet.language}/${snippet.client}`;
			found.set(key, snippet.content);
			if (key === "python/requests") python.push({ id: `${c.id}:${key}`, code: snippet.content });
			if (key === "js/fetch") {
				const file = join(workDir, "js", `${c.id}.mjs`);
				writeFileSync(file, snippet.content);
				js.push({ id: `${c.id}:${key}`, file });
			}
			if (key === "js/huggingface.js") {
				const file = join(workDir, "js", `${c.id}-client.mjs`);
				writeFileSync(
					file,
					snippet.content.replace(
						'from "@modelhub/inference"',
						`from ${JSON.stringify(pathToFileURL(bundle).href)}`,
					),
				);
				js.push({ id: `${c.id}:${key}`, file });
			}
			if (key === "sh/curl") bash += `SNIPPET_RUN='${c.id}:${key}'\n${snippet.content}\n`;
		}
		snippetIndex.set(c.id, found);
	}
	const env = { ...process.env, SNIPPET_ORIGIN: origin, HF_TOKEN };
	for (const provider of client.INFERENCE_PROVIDERS) {
		(env as Record<string, string>)[`${provider.toUpperCase().replace(/-/g, "_")}_API_KEY`] = PROVIDER_KEY;
	}
	// Asynchronous on purpose: the server answering these processes lives in this very event loop.
	const run = (command: string, args: string[]) =>
		new Promise<void>((resolve, reject) => {
			const child = spawn(command, args, { cwd: workDir, env, stdio: "ignore" });
			const timer = setTimeout(() => child.kill(), 60_000);
			child.on("error", reject);
			child.on("close", () => {
				clearTimeout(timer);
				resolve();
			});
		});
	writeFileSync(join(workDir, "python.json"), JSON.stringify(python));
	writeFileSync(join(workDir, "runner.py"), PYTHON_RUNNER);
	writeFileSync(join(workDir, "js.json"), JSON.stringify(js));
	writeFileSync(join(workDir, "runner.mjs"), NODE_RUNNER);
	writeFileSync(join(workDir, "all.sh"), bash);
	await Promise.all([
		run("python3", ["runner.py", "python.json"]),
		run(process.execPath, ["runner.mjs", "js.json"]),
		run("bash", ["all.sh"]),
	]);
}, 120_000);

afterAll(async () => {
	vi.restoreAllMocks();
	if (workDir) rmSync(workDir, { recursive: true, force: true });
	await new Promise<void>((resolve) => server?.close(() => resolve()));
});

/** The fal.ai data URL names the blob's type; the client needs audio/wav where the snippet reads a .flac file. */
function normalizedJson(body: Buffer): unknown {
	return JSON.parse(body.toString("utf8").replace(/"data:audio\/[a-z-]+;base64,/g, '"data:audio;base64,'));
}

/**
 * A multipart body as its entries (text values, and files as name, type and bytes), in name order:
 * the order of parts carries no meaning (python requests writes `data` fields before `files`).
 */
async function formEntries(request: Recorded): Promise<unknown[]> {
	const form = await new Response(new Uint8Array(request.body), {
		headers: { "content-type": String(request.headers["content-type"]) },
	}).formData();
	const entries: unknown[] = [];
	for (const [name, value] of form.entries()) {
		entries.push(
			typeof value === "string"
				? [name, value]
				: [name, value.name, value.type, [...new Uint8Array(await value.arrayBuffer())]],
		);
	}
	return entries.sort((a, b) => String((a as string[])[0]).localeCompare(String((b as string[])[0])));
}

const mediaType = (value: unknown) => String(value).split(";")[0];

async function compare(snippetRequest: Recorded, clientRequest: Recorded): Promise<string[]> {
	const problems: string[] = [];
	if (mediaType(clientRequest.headers["content-type"]) === "multipart/form-data") {
		if (mediaType(snippetRequest.headers["content-type"]) !== "multipart/form-data")
			problems.push("not multipart");
		else {
			const [mine, theirs] = [await formEntries(snippetRequest), await formEntries(clientRequest)];
			if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
				problems.push(`form ${JSON.stringify(mine)} vs ${JSON.stringify(theirs)}`);
			}
		}
		snippetRequest = {
			...snippetRequest,
			headers: { ...snippetRequest.headers, "content-type": "multipart" },
			body: Buffer.alloc(0),
		};
		clientRequest = {
			...clientRequest,
			headers: { ...clientRequest.headers, "content-type": "multipart" },
			body: Buffer.alloc(0),
		};
	}
	if (snippetRequest.method !== clientRequest.method) problems.push(`method ${snippetRequest.method}`);
	if (snippetRequest.path !== clientRequest.path)
		problems.push(`url ${snippetRequest.path} vs ${clientRequest.path}`);
	for (const name of COMPARED_HEADERS) {
		if (snippetRequest.headers[name] !== clientRequest.headers[name]) {
			problems.push(
				`${name}: ${String(snippetRequest.headers[name])} vs ${String(clientRequest.headers[name])}`,
			);
		}
	}
	if (clientRequest.headers["content-type"] === "application/json") {
		try {
			expect(normalizedJson(snippetRequest.body)).toEqual(normalizedJson(clientRequest.body));
		} catch {
			problems.push(`body ${snippetRequest.body.toString("utf8")} vs ${clientRequest.body.toString("utf8")}`);
		}
	} else if (!snippetRequest.body.equals(clientRequest.body)) {
		problems.push(`body bytes ${snippetRequest.body.length} vs ${clientRequest.body.length}`);
	}
	return problems;
}

describe("snippets send what the client sends", () => {
	it("the client sent one request per case", () => {
		const silent = all.filter((c) => requestsFor(`${c.id}:client`).length !== 1).map((c) => c.label);
		expect(silent).toEqual([]);
		expect(all.length).toBeGreaterThan(150);
	});

	for (const key of ["python/requests", "js/fetch", "sh/curl", "js/huggingface.js"]) {
		it(`${key}: same method, URL, headers and body for every provider × task it is offered for`, async () => {
			const failures: string[] = [];
			let checked = 0;
			for (const c of all) {
				if (!snippetIndex.get(c.id)?.has(key)) continue;
				const [mine] = requestsFor(`${c.id}:${key}`);
				const [theirs] = requestsFor(`${c.id}:client`);
				if (!mine || !theirs) {
					failures.push(`${c.label}: ${mine ? "client" : "snippet"} sent nothing`);
					continue;
				}
				checked++;
				const problems = await compare(mine, theirs);
				if (problems.length) failures.push(`${c.label}: ${problems.join("; ")}`);
			}
			expect(failures.slice(0, 15)).toEqual([]);
			expect(checked).toBeGreaterThan(40);
		});
	}
});
