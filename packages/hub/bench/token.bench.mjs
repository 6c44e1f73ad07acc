#!/usr/bin/env node
// Requests carrying an access token against the same requests without one: the small-file resolve that
// every `from_pretrained` sends with the user's token (`GET` and `HEAD /{id}/resolve/main/config.json`),
// under load (50 keep-alive connections, bench/load.mjs), in alternating 1 s rounds. Each hub runs as its
// own process on a fresh data folder (embedded database). Besides requests/s (noisy on a shared
// machine), the hub process's CPU time per 1,000 requests is read from /proc for each round: the cost of
// a token shows there whatever else the machine does.
//
//   npm run build && node packages/hub/bench/token.bench.mjs
//
// To compare two builds (their rounds alternate): BENCH_CLI_BEFORE=<older build's packages/hub/dist/cli.js>.
// Environment: BENCH_DURATION (rounds of 1 s per build and variant, default 5), BENCH_CONNECTIONS
// (default 50), BENCH_CLI (the build measured, default this package's). Prints one JSON line per build,
// method and variant.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadRaw } from "./load.mjs";
import { startServer, stopServer } from "./process.mjs";
import { buildsToCompare, cpuSeconds, hubApi, median } from "./support.mjs";

const BUILDS = buildsToCompare();
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ADMIN = "token-bench-admin-token";
const PATH = "/bench/tok/resolve/main/config.json";
const CONFIG = JSON.stringify({ architectures: ["BertModel"], hidden_size: 32, model_type: "bert" }, null, 2);
// Linux reports process times in clock ticks of 1/100 s (USER_HZ).

/** A hub process with a user, their token and a public repository holding config.json. */
async function startHub(name, cli) {
	const dir = mkdtempSync(join(tmpdir(), `modelhub-token-bench-${name}-`));
	const hub = startServer(process.execPath, [cli], {
		PORT: "0",
		MODELHUB_DATA_DIR: join(dir, "data"),
		MODELHUB_ADMIN_TOKEN: ADMIN,
		MODELHUB_LOG_LEVEL: "warn",
		DATABASE_URL: "",
	});
	const base = await hub.url;
	const { token } = await hubApi(base, "POST", "/api/admin/users", ADMIN, { name: "bench" });
	await hubApi(base, "POST", "/api/repos/create", token, { name: "tok" });
	const lines = [
		{ key: "header", value: { summary: "config" } },
		{
			key: "file",
			value: { path: "config.json", content: Buffer.from(CONFIG).toString("base64"), encoding: "base64" },
		},
	];
	await hubApi(
		base,
		"POST",
		"/api/models/bench/tok/commit/main",
		token,
		lines.map((line) => JSON.stringify(line)).join("\n"),
		"application/x-ndjson",
	);
	const check = await fetch(`${base}${PATH}`, { headers: { authorization: `Bearer ${token}` } });
	if (check.status !== 200 || (await check.text()) !== CONFIG)
		throw new Error(`${name}: the hub served the wrong file`);
	return { name, hub, base, token, dir };
}

async function main() {
	for (const cli of Object.values(BUILDS)) {
		if (!existsSync(cli)) {
			console.error(`${cli} is missing: run "npm run build" first.`);
			process.exit(2);
		}
	}
	const hubs = [];
	try {
		for (const [name, cli] of Object.entries(BUILDS)) hubs.push(await startHub(name, cli));
		for (const method of ["GET", "HEAD"]) {
			const cases = hubs.flatMap((hub) =>
				["anonymous", "token"].map((variant) => ({
					hub,
					variant,
					headers: variant === "token" ? { authorization: `Bearer ${hub.token}` } : {},
					rounds: [],
				})),
			);
			const options = (headers) => ({ connections: CONNECTIONS, seconds: 1, method, headers });
			// Warm-up (JIT, caches).
			for (const c of cases) await loadRaw(`${c.hub.base}${PATH}`, options(c.headers));
			for (let round = 0; round < DURATION; round++) {
				// A different order each round: whatever else the machine does weighs on all alike.
				const order = cases.map((_, n) => cases[(n + round) % cases.length]);
				for (const c of order) {
					const cpuBefore = cpuSeconds(c.hub.hub.child.pid);
					const result = await loadRaw(`${c.hub.base}${PATH}`, options(c.headers));
					c.rounds.push({ ...result, cpu: cpuSeconds(c.hub.hub.child.pid) - cpuBefore });
				}
			}
			for (const c of cases) {
				const requests = c.rounds.reduce((sum, r) => sum + r.requests, 0);
				const seconds = c.rounds.reduce((sum, r) => sum + r.seconds, 0);
				const cpu = c.rounds.reduce((sum, r) => sum + r.cpu, 0);
				console.log(
					JSON.stringify({
						benchmark: "hub-resolve-token",
						build: c.hub.name,
						endpoint: `${method} /{id}/resolve/main/config.json`,
						variant: c.variant,
						connections: CONNECTIONS,
						rounds: DURATION,
						rps: Math.round(requests / seconds),
						medianRoundRps: median(c.rounds.map((r) => Math.round(r.requests / r.seconds))),
						cpuMsPer1000Requests: Math.round((cpu / requests) * 1_000_000 * 10) / 10,
						p50Ms: median(c.rounds.map((r) => r.p50Ms)),
						errors: c.rounds.reduce((sum, r) => sum + r.errors, 0),
					}),
				);
			}
		}
	} finally {
		for (const hub of hubs) {
			await stopServer(hub.hub.child);
			rmSync(hub.dir, { recursive: true, force: true });
		}
	}
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
