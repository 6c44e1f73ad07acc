/**
 * Every inference snippet, run with the real client libraries against the protocol servers (README.md
 * beside this file). A snippet passes when it exits 0, no server refused any request it made, and its
 * inference request is the one `@modelhub/inference` sends for the same call. The counts per language
 * × client are printed and written to node_modules/.cache/modelhub-real-clients/last-run.json.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadFacts } from "../../../../test-support/facts.js";
import { INFERENCE_PROVIDERS } from "../../src/index.js";
import { CLIENT_CHECKS, HUGGINGFACE_HUB_NOT_OFFERED } from "../../src/snippets/offers.js";
import { HUGGINGFACE_HUB_PAIRS } from "../../src/snippets/python/huggingface-hub-pairs.js";
import { PROTOCOLS } from "./protocols/index.js";
import { parseDataUrl } from "./protocols/media.js";
import {
	REPO_ROOT,
	RUNNERS,
	RUN_CACHE_DIR,
	runRealClients,
	type RealClientsRun,
	type SnippetResult,
} from "./harness/run.js";
import { endpointFor, type RecordedRequest } from "./harness/server.js";

let run: RealClientsRun;

beforeAll(async () => {
	// The in-process client calls print 3.12.1's notices (deprecated `request`, polling progress).
	const quiet = (["log", "debug", "warn"] as const).map((level) =>
		vi.spyOn(console, level).mockImplementation(() => undefined),
	);
	try {
		run = await runRealClients();
	} finally {
		for (const spy of quiet) spy.mockRestore();
	}
}, 600_000);

const HUB = "python/huggingface_hub";

function of(key: string): SnippetResult[] {
	return run.results.filter((result) => result.run.key === key);
}

function describeFailures(results: SnippetResult[], limit = 30): string[] {
	return results
		.filter((result) => result.problems.length > 0)
		.slice(0, limit)
		.map((result) => `${result.run.snippetCase.label} [${result.run.key}]: ${result.problems.join(" | ")}`);
}

function bodyOf(request: RecordedRequest | undefined): Record<string, unknown> | undefined {
	try {
		return request ? (JSON.parse(request.body.toString("utf8")) as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

/** Per language × client: snippets run and passed (the README's table). */
function countTable(
	current: RealClientsRun,
): Array<{ client: string; ran: number; passed: number; note?: string }> {
	const rows = Object.keys(RUNNERS).map((key) => {
		const results = current.results.filter((result) => result.run.key === key);
		const note = results.some((result) => result.parsedOnly)
			? "compiled only: fal-client is not installable here"
			: undefined;
		return {
			client: key,
			ran: results.length,
			passed: results.filter((r) => r.problems.length === 0).length,
			note,
		};
	});
	rows.push({
		client: "@modelhub/inference (in process)",
		ran: current.clients.length,
		passed: current.clients.filter((client) => client.problems.length === 0).length,
		note: undefined,
	});
	return rows;
}

afterAll(() => {
	if (!run) return;
	const rows = countTable(run);
	console.log(
		[
			`Real-client snippet runs: ${run.cases.length} cases, snippet batches ${run.batchSeconds.toFixed(1)} s, whole run ${run.totalSeconds.toFixed(1)} s`,
			...rows.map(
				(row) =>
					`  ${row.client.padEnd(34)} ran ${String(row.ran).padStart(4)}  passed ${String(row.passed).padStart(4)}${row.note ? `  (${row.note})` : ""}`,
			),
		].join("\n"),
	);
	mkdirSync(RUN_CACHE_DIR, { recursive: true });
	writeFileSync(
		join(RUN_CACHE_DIR, "last-run.json"),
		JSON.stringify(
			{
				versions: run.versions,
				counts: rows,
				// Where the batches spend their time (the run is as slow as its slowest batch).
				secondsPerClient: Object.fromEntries(
					Object.keys(RUNNERS).map((key) => [
						key,
						Math.round(of(key).reduce((sum, r) => sum + (r.seconds ?? 0), 0) * 10) / 10,
					]),
				),
				slowest: [...run.results, ...run.library]
					.filter((r) => r.seconds !== undefined)
					.sort((a, b) => (b.seconds ?? 0) - (a.seconds ?? 0))
					.slice(0, 25)
					.map((r) => `${r.seconds?.toFixed(2)} s ${r.run.id}`),
				failures: [
					...run.clients
						.filter((c) => c.problems.length)
						.map((c) => ({ what: `${c.snippetCase.label} [@modelhub/inference]`, problems: c.problems })),
					...run.results
						.filter((r) => r.problems.length)
						.map((r) => ({
							what: `${r.run.snippetCase.label} [${r.run.key}]`,
							problems: r.problems,
							snippet: r.run.content,
							output: r.output,
						})),
					...run.library
						.filter((r) => r.problems.length)
						.map((r) => ({ what: r.run.id, problems: r.problems, output: r.output })),
				],
			},
			null,
			1,
		),
	);
});

describe("the protocol servers", () => {
	it("exist for every provider the client offers", () => {
		expect(run.missingProtocols).toEqual([]);
		expect(INFERENCE_PROVIDERS.filter((provider) => !PROTOCOLS.some((p) => p.provider === provider))).toEqual(
			[],
		);
	});

	it("serve every route the facts record, old and new", () => {
		const old = loadFacts<{
			providers: Record<
				string,
				{ base_url: string; tasks: Record<string, { url_direct?: string; route: string }> }
			>;
		}>("providers.json");
		const current = loadFacts<{ routes: Record<string, Record<string, string> | string> }>(
			"providers-current.json",
		);
		const urls: string[] = [];
		for (const provider of Object.values(old.providers)) {
			for (const task of Object.values(provider.tasks)) {
				// Some entries name an alternative ("… (or https://… for versioned ids)"): each URL counts.
				const text = task.url_direct ?? `${provider.base_url}/${task.route.replace(/^\//, "")}`;
				urls.push(...(text.match(/https:\/\/[^\s)]+/g) ?? []));
			}
		}
		for (const [key, routes] of Object.entries(current.routes))
			if (key !== "about") urls.push(...Object.values(routes));
		const unserved = urls.filter((url) => {
			const { host, pathname } = new URL(
				url.replace("{providerId}", "acme-labs/model").replace("{model}", "acme-labs/model"),
			);
			return endpointFor(PROTOCOLS, host, "POST", pathname) === undefined;
		});
		expect(urls.length).toBeGreaterThan(70);
		expect(unserved).toEqual([]);
	});

	it("answer huggingface_hub 2.0.0 for every (provider, task) pair it supports that no snippet reaches yet", () => {
		expect(run.libraryGaps).toEqual([]);
		expect(run.library.length).toBeGreaterThan(0);
		const failing = run.library
			.filter((result) => result.problems.length > 0)
			.map((result) => `${result.run.id}: ${result.problems.join(" | ")}`);
		expect(failing).toEqual([]);
	});
});

describe("@modelhub/inference against the protocol servers", () => {
	it("every provider × task call of every case is accepted and answered", () => {
		const problems = run.clients
			.filter((client) => client.problems.length > 0)
			.map((client) => `${client.snippetCase.label}: ${client.problems.join(" | ")}`);
		expect(run.clients.length).toBeGreaterThan(200);
		expect(problems).toEqual([]);
	});
});

describe("every offered snippet runs with its real client library", () => {
	it("the generator answers for every credential each provider takes (it throws for none)", () => {
		expect(run.generatorErrors).toEqual([]);
	});

	it("every snippet has a runner", () => {
		expect(run.results.filter((result) => !result.run.runner).map((result) => result.run.key)).toEqual([]);
	});

	for (const key of Object.keys(RUNNERS)) {
		const compiledOnly = RUNNERS[key as keyof typeof RUNNERS] === "python-parse";
		const title = compiledOnly
			? `${key}: every snippet compiles (fal-client is not on this machine's package mirror, so it is not run)`
			: `${key}: every snippet exits 0, is accepted, and sends the request @modelhub/inference sends`;
		it(title, () => {
			expect(of(key).length).toBeGreaterThan(0);
			expect(describeFailures(of(key))).toEqual([]);
		});
	}
});

describe("the offer table (src/snippets/offers.ts) is checked against the installed libraries", () => {
	const pairs = (table: Readonly<Record<string, readonly string[]>>) =>
		Object.entries(table)
			.flatMap(([provider, tasks]) => tasks.map((task) => `${provider} ${task}`))
			.sort();
	/** (provider, task) pairs some snippet case covers. */
	const covered = () => new Set(run.cases.map((c) => `${c.provider} ${c.task}`));

	it("python/huggingface_hub's pairs are huggingface_hub's own provider table, read from the installed library", () => {
		expect(pairs(HUGGINGFACE_HUB_PAIRS)).toEqual(pairs(run.libraryTable));
	});

	it("python/huggingface_hub is offered for exactly the library's pairs that have snippets, less the named exclusions", () => {
		const library = new Set(pairs(run.libraryTable));
		const expected = [...covered()]
			.filter((pair) => library.has(pair) && !(pair in HUGGINGFACE_HUB_NOT_OFFERED))
			.sort();
		const offered = [
			...new Set(of(HUB).map((r) => `${r.run.snippetCase.provider} ${r.run.snippetCase.task}`)),
		];
		expect(offered.sort()).toEqual(expected);
		// Every exclusion names a pair the library supports and a snippet exists for (none is stale).
		for (const pair of Object.keys(HUGGINGFACE_HUB_NOT_OFFERED)) {
			expect(library.has(pair) && covered().has(pair), pair).toBe(true);
		}
	});

	it("the library versions it names are the installed ones", () => {
		const npmOpenai = JSON.parse(
			readFileSync(join(REPO_ROOT, "node_modules", "openai", "package.json"), "utf8"),
		) as { version: string };
		const curl = /^curl (\S+)/.exec(execFileSync("curl", ["--version"], { encoding: "utf8" }))?.[1];
		const installed: Record<string, string | undefined> = {
			"python/huggingface_hub": run.versions.huggingface_hub,
			"python/requests": run.versions.requests,
			"python/openai": run.versions.openai,
			"js/openai": npmOpenai.version,
			"js/fetch": `node ${process.versions.node.split(".")[0]}`,
			"sh/curl": curl,
		};
		for (const [key, version] of Object.entries(installed)) {
			expect(CLIENT_CHECKS[key]?.version, key).toBe(version);
		}
		// Every client of the generator is in the table, and only fal_client is compiled rather than run.
		expect(Object.keys(CLIENT_CHECKS).sort()).toEqual(Object.keys(RUNNERS).sort());
		for (const [key, runner] of Object.entries(RUNNERS)) {
			expect(CLIENT_CHECKS[key]?.checked, key).toBe(runner === "python-parse" ? "compiled" : "run");
		}
	});
});

describe("issue 10 failure classes", () => {
	const offeredHubPairs = () =>
		new Set(of(HUB).map((r) => `${r.run.snippetCase.provider} ${r.run.snippetCase.task}`));

	it("python/huggingface_hub is not offered for providers huggingface_hub 2.0.0 does not know (it raised ValueError for sambanova, hyperbolic, nebius, black-forest-labs)", () => {
		const unknown = [...offeredHubPairs()].filter((pair) => !(pair.split(" ")[0]! in run.libraryTable));
		const raised = of(HUB)
			.filter((r) => /^ValueError: Provider '.*' not supported/.test(r.error ?? ""))
			.map((r) => `${r.run.snippetCase.label}: ${r.error}`);
		expect(unknown).toEqual([]);
		expect(raised).toEqual([]);
	});

	it("python/huggingface_hub is not offered for tasks huggingface_hub 2.0.0 lacks for a known provider (groq and ovhcloud text-generation)", () => {
		const lacking = [...offeredHubPairs()].filter((pair) => {
			const [provider = "", task = ""] = pair.split(" ");
			return provider in run.libraryTable && !run.libraryTable[provider]!.includes(task);
		});
		const raised = of(HUB)
			.filter((r) => /^ValueError: Task '.*' not supported for provider/.test(r.error ?? ""))
			.map((r) => `${r.run.snippetCase.label}: ${r.error}`);
		expect(lacking).toEqual([]);
		expect(raised).toEqual([]);
	});

	it("python/huggingface_hub with provider openai sends OpenAI's own model id, which api.openai.com accepts", () => {
		const openai = of(HUB).filter((r) => r.run.snippetCase.provider === "openai");
		const wrong = openai
			.filter(
				(r) =>
					r.status !== 0 ||
					bodyOf(r.request)?.model !== r.run.snippetCase.providerModelId ||
					r.request?.refusal,
			)
			.map(
				(r) =>
					`${r.run.snippetCase.label}: sent model ${JSON.stringify(bodyOf(r.request)?.model)}, ${r.error ?? "exit 0"}`,
			);
		expect(wrong).toEqual([]);
	});

	it("text-generation on OpenAI-style routes carries `messages` or `prompt` (groq, novita, nebius) in @modelhub/inference and the fetch, requests and curl snippets", () => {
		const openaiStyle = (request: RecordedRequest | undefined) => /completions/.test(request?.endpoint ?? "");
		const textGeneration = run.cases.filter((c) => c.task === "text-generation").map((c) => c.id);
		const client = run.clients
			.filter((c) => textGeneration.includes(c.snippetCase.id) && openaiStyle(c.request))
			.map((c) => ({ what: `${c.snippetCase.label} [@modelhub/inference]`, request: c.request }));
		const snippets = ["js/fetch", "python/requests", "sh/curl"].flatMap((key) =>
			of(key)
				.filter((r) => textGeneration.includes(r.run.snippetCase.id) && openaiStyle(r.request))
				.map((r) => ({ what: `${r.run.snippetCase.label} [${key}]`, request: r.request })),
		);
		expect(client.length).toBeGreaterThan(0);
		const refused = [...client, ...snippets]
			.filter(({ request }) => request?.refusal !== undefined)
			.map(({ what, request }) => `${what}: ${request?.status} ${request?.refusal}`);
		expect(refused).toEqual([]);
	});

	it("python/huggingface_hub fal-ai speech recognition sends the audio every other client sends (not sample1.flac as audio/mpeg), and fal.ai accepts it", () => {
		const asr = of(HUB).filter(
			(r) =>
				r.run.snippetCase.provider === "fal-ai" && r.run.snippetCase.task === "automatic-speech-recognition",
		);
		expect(asr.length).toBeGreaterThan(0);
		const wrong = asr.flatMap((r) => {
			const reference = run.clients.find((c) => c.snippetCase.id === r.run.snippetCase.id)?.request;
			const mine = parseDataUrl(bodyOf(r.request)?.audio_url);
			const theirs = parseDataUrl(bodyOf(reference)?.audio_url);
			const problems: string[] = [];
			if (!mine || !theirs || !mine.bytes.equals(theirs.bytes))
				problems.push("audio bytes differ from the client's");
			if (r.request?.refusal) problems.push(`refused: ${r.request.refusal}`);
			return problems.map((problem) => `${r.run.snippetCase.label}: ${problem}`);
		});
		expect(wrong).toEqual([]);
	});
});
