#!/usr/bin/env node
// Records the golden answers: builds the hub's CLI from the current sources, starts it on a new seeded
// embedded database, sends GOLDEN_REQUESTS and writes every answer to answers.json (or to --out FILE).
// Run from the repository root after `npm run build` (the hub imports the built @modelhub/tasks):
//   node packages/hub/test/golden/record.mjs
// Re-record only when a change of the hub's answers is intended, and say so in the commit.
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCli } from "../support/build-cli.mjs";
import { captureAnswer, FOLLOW_LINK, GOLDEN_REQUESTS, startGoldenHub } from "./golden.mjs";

const here = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
	let out = join(here, "answers.json");
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === "--out" && argv[i + 1] !== undefined) out = resolve(argv[++i]);
		else throw new Error(`unknown argument ${JSON.stringify(argv[i])}; usage: record.mjs [--out FILE]`);
	}
	return { out };
}

function nextPage(answer) {
	const match = /^<([^>]+)>; rel="next"$/.exec(answer.headers.link ?? "");
	if (!match) throw new Error("FOLLOW_LINK after an answer without a Link header");
	const url = new URL(match[1]);
	return { method: "GET", path: url.pathname + url.search };
}

const { out } = parseArgs(process.argv.slice(2));
const hub = await startGoldenHub(await buildCli("golden-record"));
const answers = [];
try {
	for (const entry of GOLDEN_REQUESTS) {
		const request = entry === FOLLOW_LINK ? nextPage(answers[answers.length - 1]) : entry;
		answers.push({ request, ...(await captureAnswer(hub.url, request)) });
	}
} finally {
	await hub.close();
}
writeFileSync(out, `${JSON.stringify({ answers }, null, "\t")}\n`);
console.log(`${answers.length} answers written to ${out}`);
