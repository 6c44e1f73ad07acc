/**
 * One run of every offered snippet with the real client libraries: start the protocol servers, call
 * `@modelhub/inference` in process for each case (the reference request), run the snippets in
 * parallel batches (batches.ts), and judge each: it exits 0, no server refused any of its requests,
 * and its first inference request is the client's (compare.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { pythonEnv } from "../../../../../test-support/python-env.js";
import { HUB_HOST } from "../protocols/hub.js";
import { PROTOCOLS } from "../protocols/index.js";
import { sampleFile } from "../protocols/media.js";
import { ROUTER_HOST } from "../protocols/router.js";
import {
	runCurlBatch,
	runNodeBatches,
	runPythonBatches,
	type BatchItem,
	type BatchResult,
} from "./batches.js";
import { collectCases, type SnippetCase } from "./cases.js";
import { callClient, type ClientOutcome } from "./client-call.js";
import { compareRequests } from "./compare.js";
import { tokenEnvironment } from "./credentials.js";
import { installedLibraries, libraryPairRuns, type LibraryPairRun } from "./library-pairs.js";
import { RUN_HEADER, startProtocolServers, type ProtocolServers, type RecordedRequest } from "./server.js";
import { makeCertificate } from "./tls.js";

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(HERE, "..", "..", "..", "..", "..");
/** Where runs work (inside the repository, so that snippets resolve `openai` from its node_modules). */
export const RUN_CACHE_DIR = join(REPO_ROOT, "node_modules", ".cache", "modelhub-real-clients");
const PACKAGE_SOURCE = join(HERE, "..", "..", "..", "src", "index.ts");

/** How each client's snippets are run. */
export const RUNNERS = {
	"python/huggingface_hub": "python",
	"python/requests": "python",
	"python/openai": "python",
	// fal-client is not on this machine's package mirror: its snippets are compiled, not run.
	"python/fal_client": "python-parse",
	"js/fetch": "node",
	"js/huggingface.js": "node",
	"js/openai": "node",
	"sh/curl": "bash",
} as const;

type ClientKey = keyof typeof RUNNERS;
type Runner = (typeof RUNNERS)[ClientKey];

/** Processes per language; most of a snippet's time is waiting (polling intervals, imports). */
const PYTHON_BATCHES = 3;
const NODE_BATCHES = 4;
/** Client calls in flight at once. */
const CLIENT_CONCURRENCY = 16;

interface SnippetRun {
	id: string;
	key: string;
	runner: Runner | undefined;
	snippetCase: SnippetCase;
	content: string;
	env: Record<string, string>;
}

interface Judged {
	status: number;
	error?: string;
	output: string;
	seconds?: number;
	/** Why it does not pass ([] = passed). */
	problems: string[];
	/** Its first inference request. */
	request?: RecordedRequest;
}

export interface SnippetResult extends Judged {
	run: SnippetRun;
	/** Only compiled (its library cannot be installed here). */
	parsedOnly: boolean;
}

interface ClientResult {
	snippetCase: SnippetCase;
	outcome: ClientOutcome;
	problems: string[];
	/** Its first inference request: the one every snippet of the case must send. */
	request?: RecordedRequest;
}

interface LibraryPairResult extends Judged {
	run: LibraryPairRun;
}

export interface RealClientsRun {
	cases: SnippetCase[];
	results: SnippetResult[];
	clients: ClientResult[];
	missingProtocols: string[];
	/** Generator calls that threw for a credential the provider takes. */
	generatorErrors: string[];
	/** huggingface_hub 2.0.0's provider → tasks table. */
	libraryTable: Record<string, string[]>;
	/** huggingface_hub calls for the pairs no snippet reaches. */
	library: LibraryPairResult[];
	/** Library pairs the harness cannot call (no call written, or no protocol server). */
	libraryGaps: string[];
	/** Installed releases of the Python clients (huggingface_hub, requests, openai). */
	versions: Record<string, string>;
	/** Wall-clock seconds of the snippet batches, and of the whole run. */
	batchSeconds: number;
	totalSeconds: number;
}

async function mapConcurrently<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const index = next++;
			results[index] = await work(items[index] as T);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	return results;
}

function inferenceRequests(records: RecordedRequest[]): RecordedRequest[] {
	return records.filter((record) => record.role === "inference");
}

function refusals(records: RecordedRequest[]): string[] {
	return records
		.filter((record) => record.refusal !== undefined)
		.map(
			(record) =>
				`${record.status} ${record.method} ${record.host}${record.target.split("?")[0]}: ${record.refusal}`,
		);
}

/** Exit status, refusals, and (with a reference) the comparison with the client's request. */
async function judge(
	result: BatchResult | undefined,
	records: RecordedRequest[],
	reference?: RecordedRequest,
): Promise<Judged> {
	if (!result) return { status: -1, output: "", problems: ["the batch gave no result"] };
	const problems: string[] = [];
	if (result.status !== 0) problems.push(`exit ${result.status}${result.error ? `: ${result.error}` : ""}`);
	problems.push(...refusals(records).map((refusal) => `refused: ${refusal}`));
	const [request] = inferenceRequests(records);
	if (!request) problems.push("sent no inference request");
	else if (reference) problems.push(...(await compareRequests(request, reference)));
	return {
		status: result.status,
		error: result.error ?? undefined,
		output: result.output,
		seconds: result.seconds,
		problems,
		request,
	};
}

/** The files the snippets read, in every audio format a client might pick (the client tries WAV and MP3 too). */
function writeSampleFiles(work: string, cases: SnippetCase[]): void {
	for (const snippetCase of cases) {
		const example = snippetCase.example;
		const names: string[] = [];
		if (example.kind === "file") {
			const stem = example.fileName.replace(/\.[^.]+$/, "");
			names.push(example.fileName, ...(example.mediaType === "audio" ? [`${stem}.wav`, `${stem}.mp3`] : []));
		} else if (example.kind === "object" && typeof example.value.image === "string") {
			names.push(example.value.image);
		}
		for (const name of names) writeFileSync(join(work, name), sampleFile(name));
	}
}

/** The reference requests: @modelhub/inference called in this process, through the protocol servers. */
function callClients(cases: SnippetCase[], servers: ProtocolServers): Promise<ClientResult[]> {
	const fetchFor =
		(run: string): typeof fetch =>
		(input, init) => {
			const url = new URL(input instanceof Request ? input.url : String(input));
			const headers = new Headers(init?.headers);
			headers.set("x-forwarded-host", url.host);
			headers.set(RUN_HEADER, run);
			return fetch(`http://${servers.httpAddress}${url.pathname}${url.search}`, { ...init, headers });
		};
	const sent = (run: string) => inferenceRequests(servers.recordsOf(run)).length > 0;
	return mapConcurrently(cases, CLIENT_CONCURRENCY, async (snippetCase): Promise<ClientResult> => {
		const outcome = await callClient(snippetCase, fetchFor, sent);
		const records = servers.recordsOf(`${snippetCase.id}.client`);
		const problems = [...refusals(records), ...(outcome.error ? [`the call failed: ${outcome.error}`] : [])];
		const [request] = inferenceRequests(records);
		if (!request) problems.push("the client sent no inference request");
		return { snippetCase, outcome, problems, request };
	});
}

export async function runRealClients(): Promise<RealClientsRun> {
	const started = Date.now();
	const { cases, hubModels, unmappedModels, missingProtocols, generatorErrors } = collectCases();
	const python = pythonEnv();
	const installed = installedLibraries(python.python);
	const libraryTable = installed.table;
	const hubModelsById = new Map(hubModels.map((model) => [model.id, model]));
	const covered = new Set(cases.map((snippetCase) => `${snippetCase.provider}:${snippetCase.task}`));
	const library = libraryPairRuns(libraryTable, covered, PROTOCOLS, hubModelsById);

	mkdirSync(RUN_CACHE_DIR, { recursive: true });
	const work = mkdtempSync(join(RUN_CACHE_DIR, "run-"));
	let servers: ProtocolServers | undefined;
	try {
		for (const dir of ["js", "sh", "curl", "out", "home", "hf-home"]) mkdirSync(join(work, dir));
		const hosts = new Set<string>([HUB_HOST, ROUTER_HOST]);
		for (const protocol of PROTOCOLS) for (const host of protocol.hosts) hosts.add(host.host);
		const certificate = makeCertificate(work, [...hosts]);
		servers = await startProtocolServers(PROTOCOLS, certificate);
		for (const model of hubModelsById.values()) servers.addModel(model);
		for (const model of unmappedModels)
			servers.addProviderModel(model.provider, model.providerModelId, model.task);
		const server = servers;

		// The reference calls run while the snippet batches do: both mostly wait (polling intervals).
		const clientsDone = callClients(cases, server);
		// Awaited below; this only keeps an early failure of the batches from leaving it unhandled.
		clientsDone.catch(() => undefined);
		writeSampleFiles(work, cases);
		const bundle = join(work, "inference.mjs");
		await build({
			entryPoints: [PACKAGE_SOURCE],
			bundle: true,
			platform: "node",
			format: "esm",
			outfile: bundle,
			logLevel: "silent",
		});

		const envTokens = tokenEnvironment(PROTOCOLS.map((protocol) => protocol.provider));
		const runs: SnippetRun[] = cases.flatMap((snippetCase) =>
			snippetCase.snippets.map((snippet) => {
				const key = `${snippet.language}/${snippet.client}`;
				return {
					id: `${snippetCase.id}.${snippet.language}.${snippet.client}`,
					key,
					runner: RUNNERS[key as ClientKey] as Runner | undefined,
					snippetCase,
					content: snippet.content,
					env: snippetCase.tokenSource === "env" ? envTokens : {},
				};
			}),
		);
		const items = (runner: Runner, mode?: BatchItem["mode"]): BatchItem[] =>
			runs
				.filter((run) => run.runner === runner)
				.map((run) => ({ id: run.id, code: run.content, env: run.env, mode }));
		const setting = {
			work,
			httpAddress: server.httpAddress,
			httpsPort: server.httpsPort,
			certFile: certificate.certFile,
			bundle,
			python,
		};
		const batchesStarted = Date.now();
		const finished = await Promise.all([
			runPythonBatches(
				[
					...items("python"),
					...items("python-parse", "parse"),
					...library.runs.map((run) => ({ id: run.id, code: run.code, env: {} })),
				],
				PYTHON_BATCHES,
				setting,
			),
			runNodeBatches(items("node"), NODE_BATCHES, setting),
			runCurlBatch(items("bash"), setting),
		]);
		const batchSeconds = (Date.now() - batchesStarted) / 1000;
		const clients = await clientsDone;
		const byId = new Map(finished.flat().map((result) => [result.id, result]));

		const references = new Map(clients.map((client) => [client.snippetCase.id, client.request]));
		const results: SnippetResult[] = await Promise.all(
			runs.map(async (run): Promise<SnippetResult> => {
				if (!run.runner)
					return { run, status: -1, output: "", problems: [`no runner for ${run.key}`], parsedOnly: false };
				const result = byId.get(run.id);
				if (run.runner === "python-parse") {
					const problems = !result
						? ["the batch gave no result"]
						: result.status !== 0
							? [`does not compile: ${result.error}`]
							: [];
					return {
						run,
						status: result?.status ?? -1,
						output: result?.output ?? "",
						problems,
						parsedOnly: true,
					};
				}
				const judged = await judge(result, server.recordsOf(run.id), references.get(run.snippetCase.id));
				return { run, ...judged, parsedOnly: false };
			}),
		);
		const libraryResults = await Promise.all(
			library.runs.map(async (run) => ({
				run,
				...(await judge(byId.get(run.id), server.recordsOf(run.id))),
			})),
		);
		return {
			cases,
			results,
			clients,
			missingProtocols,
			generatorErrors,
			libraryTable,
			library: libraryResults,
			libraryGaps: [...library.missingCalls, ...library.missingProtocols],
			versions: installed.versions,
			batchSeconds,
			totalSeconds: (Date.now() - started) / 1000,
		};
	} finally {
		await servers?.close();
		rmSync(work, { recursive: true, force: true });
	}
}
