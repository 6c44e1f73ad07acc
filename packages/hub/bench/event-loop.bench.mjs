#!/usr/bin/env node
// The hub's event loop under heavy parsing (src/parsing/: cards, config files and weights' headers are
// parsed in worker threads). The real hub runs in this process on an in-memory embedded database; while
// it works, perf_hooks' monitorEventLoopDelay samples this process's event loop (every 10 ms) and a
// client asks /healthz one request after another, timing each answer. The work, BENCH_ROUNDS times
// (default 3), all at once:
//  - BENCH_VALIDATIONS (default 4) `POST /api/validate-yaml` of a 250 KB card (25,000 distinct keys);
//  - one commit of README.md with such a card, a 1 MiB config.json and a model.safetensors whose header
//    declares 50,000 tensors (~5 MB of JSON), then the analysis of that commit, waited for.
// Reported (one JSON line): the event-loop delay's p50, p99 and max, /healthz answers' p50, p99 and
// max and how many were answered, wall time and the process's CPU time (every thread).
//
//   node packages/hub/bench/event-loop.bench.mjs
//
// The hub is built from the current sources (test/support/build-cli.mjs), so the same script measures
// another checkout's hub when copied into it (how the README's "before" figures were made).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSources } from "../test/support/build-cli.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const VALIDATIONS = Number(process.env.BENCH_VALIDATIONS ?? 4);
const ADMIN = "event-loop-bench-admin-token-0123456789";
const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const workers = existsSync(join(packageRoot, "src", "parsing", "worker.ts"));

const built = await buildSources("event-loop-bench", {
	hub: join("test", "support", "hub.ts"),
	open: join("src", "db", "open.ts"),
});
const { startHub, createUser } = await import(pathToFileURL(built.hub).href);
const { openDatabase } = await import(pathToFileURL(built.open).href);

/** 250 KB of distinct short keys: about a second of YAML composing on this machine. */
function bigCard() {
	const lines = [];
	let size = 0;
	for (let i = 0; size < 250 * 1024; i++) {
		const line = `k${i.toString(36)}: 0`;
		lines.push(line);
		size += line.length + 1;
	}
	return `---\n${lines.join("\n")}\n---\n# Card\n`;
}

/** A config.json of about 1 MiB (the most analysis reads) that transformers would load. */
function bigConfig() {
	const config = { model_type: "bert", architectures: ["BertForMaskedLM"], id2label: {} };
	let size = 100;
	for (let i = 0; size < 1000 * 1024; i++) {
		config.id2label[String(i)] = `LABEL_${i}`;
		size += 2 * String(i).length + 14;
	}
	return JSON.stringify(config);
}

/** A safetensors file of `count` one-element F16 tensors. */
function manyTensors(count) {
	const header = {};
	for (let i = 0; i < count; i++)
		header[`model.layers.${i}.mlp.weight`] = { dtype: "F16", shape: [1], data_offsets: [i * 2, i * 2 + 2] };
	const json = Buffer.from(JSON.stringify(header));
	const prefix = Buffer.alloc(8);
	prefix.writeBigUInt64LE(BigInt(json.length));
	return Buffer.concat([prefix, json, Buffer.alloc(count * 2)]);
}

function ndjson(summary, files) {
	const lines = [{ key: "header", value: { summary } }];
	for (const [path, content] of Object.entries(files))
		lines.push({
			key: "file",
			value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
		});
	return lines.map((line) => JSON.stringify(line)).join("\n");
}

const percentile = (values, p) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};
const round = (value) => Math.round(value * 10) / 10;

const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
const hub = await startHub({
	db,
	seed: false,
	adminToken: ADMIN,
	logLevel: "silent",
	validateYamlPerMinute: 1_000_000,
});
try {
	const token = await createUser(hub.url, ADMIN, "bench");
	const card = bigCard();
	const commitBody = (round) =>
		ndjson(`round ${round}`, {
			"README.md": card.replace("# Card", `# Card ${round}`),
			"config.json": bigConfig(),
			"model.safetensors": manyTensors(50_000 + round),
		});
	const validate = () =>
		fetch(`${hub.url}/api/validate-yaml`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ content: card, repoType: "model" }),
		}).then(async (res) => {
			await res.arrayBuffer();
			if (res.status !== 200) throw new Error(`validate-yaml: ${res.status}`);
		});
	// Warm-up (workers started, code compiled): not measured.
	await validate();
	const bodies = Array.from({ length: ROUNDS }, (_, round) => commitBody(round));

	const delay = monitorEventLoopDelay({ resolution: 10 });
	const healthz = [];
	let working = true;
	const probe = (async () => {
		// Stops with the work, or when the hub is closed after a failure (the failure is what is reported).
		while (working) {
			const started = performance.now();
			const res = await fetch(`${hub.url}/healthz`).catch(() => undefined);
			if (!res) return;
			await res.arrayBuffer();
			healthz.push(performance.now() - started);
		}
	})();
	const cpu = process.cpuUsage();
	const started = performance.now();
	delay.enable();
	for (let round = 0; round < ROUNDS; round++) {
		const repo = `bench/heavy-${round}`;
		const created = await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: `heavy-${round}` }),
		});
		if (created.status !== 200) throw new Error(`create ${repo}: ${created.status}`);
		const commit = fetch(`${hub.url}/api/models/${repo}/commit/main`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
			body: bodies[round],
		}).then(async (res) => {
			const text = await res.text();
			if (res.status !== 200) throw new Error(`commit to ${repo}: ${res.status} ${text.slice(0, 200)}`);
		});
		await Promise.all([commit, ...Array.from({ length: VALIDATIONS }, validate)]);
		if (process.env.BENCH_DEBUG) console.error(`round ${round}: committed and validated`);
		await hub.server.analysis.idle();
		if (process.env.BENCH_DEBUG) console.error(`round ${round}: analysed`);
		const model = await (await fetch(`${hub.url}/api/models/${repo}`)).json();
		if (model.safetensors?.total !== 50_000 + round) throw new Error(`${repo} was not analysed`);
	}
	delay.disable();
	const wallMs = performance.now() - started;
	const used = process.cpuUsage(cpu);
	working = false;
	await probe;
	console.log(
		JSON.stringify({
			bench: "event-loop",
			case: "heavy parsing",
			parsing: workers ? "worker threads" : "main thread",
			rounds: ROUNDS,
			validationsPerRound: VALIDATIONS,
			eventLoopDelayMs: {
				p50: round(delay.percentile(50) / 1e6),
				p99: round(delay.percentile(99) / 1e6),
				max: round(delay.max / 1e6),
			},
			healthzMs: {
				answered: healthz.length,
				p50: round(percentile(healthz, 50)),
				p99: round(percentile(healthz, 99)),
				max: round(Math.max(...healthz)),
			},
			wallMs: Math.round(wallMs),
			cpuMs: Math.round((used.user + used.system) / 1000),
		}),
	);
} finally {
	await hub.close();
	await db.close();
}
