// The hub parses model cards, config files and weights' headers in worker threads (src/parsing/), so a
// large or hostile file never holds the event loop. Judged by what else is answered while a parse runs,
// never by wall time: before, one 250 KB card held the hub for about a second in POST /api/validate-yaml
// and in a commit (the YAML is composed on the main thread), and no other request was answered meanwhile.
import { spawn } from "node:child_process";
import { Writable } from "node:stream";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHORT_LIVED_NODE_FLAGS } from "../../../test-support/node-flags.js";
import { readFrontMatter } from "../src/cards/front-matter.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { ParseBusyError, ParseLimitError, ParsePool } from "../src/parsing/pool.js";
import { buildCli } from "./support/build-cli.mjs";
import { createUser, startHub, type RunningHub } from "./support/hub.js";

const ADMIN = "parse-workers-admin-token-0123456789";

/** A card whose front matter is ~250 KB of distinct short keys (about a second of YAML composing here). */
function bigCard(repeatFirstKey: boolean): { card: string; lines: number } {
	const lines: string[] = [];
	let size = 0;
	for (let i = 0; size < 250 * 1024; i++) {
		const line = `k${i.toString(36)}: 0`;
		lines.push(line);
		size += line.length + 1;
	}
	if (repeatFirstKey) lines.push("k0: 1");
	return { card: `---\n${lines.join("\n")}\n---\n# Card\n`, lines: lines.length };
}

/**
 * Asks /healthz again and again until `pending` settles; how many answers came before it did. A hub
 * whose event loop is held by the parse answers none of those sent after the parse began.
 */
async function answeredWhile(url: string, pending: Promise<unknown>): Promise<number> {
	let settled = false;
	pending.then(
		() => (settled = true),
		() => (settled = true),
	);
	let answered = 0;
	while (!settled) {
		const res = await fetch(`${url}/healthz`);
		await res.arrayBuffer();
		if (!settled && res.status === 200) answered++;
	}
	return answered;
}

/** The longest the event loop went without a turn (ms) until `pending` settled. */
async function longestHold(pending: Promise<unknown>): Promise<number> {
	let longest = 0;
	let last = performance.now();
	let done = false;
	const turn = (): void => {
		const now = performance.now();
		longest = Math.max(longest, now - last);
		last = now;
		if (!done) setTimeout(turn, 1);
	};
	setTimeout(turn, 1);
	await pending.catch(() => undefined);
	done = true;
	return Math.max(longest, performance.now() - last);
}

function validateYaml(url: string, content: string): Promise<Response> {
	return fetch(`${url}/api/validate-yaml`, {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify({ content, repoType: "model" }),
	});
}

function commitFile(
	url: string,
	token: string,
	repo: string,
	path: string,
	content: string,
): Promise<Response> {
	return fetch(`${url}/api/models/${repo}/commit/main`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
		body: [
			{ key: "header", value: { summary: `add ${path}` } },
			{ key: "file", value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" } },
		]
			.map((line) => JSON.stringify(line))
			.join("\n"),
	});
}

describe("parsing off the event loop", () => {
	let db: Database;
	let hub: RunningHub;
	let token: string;
	const logLines: string[] = [];

	beforeAll(async () => {
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({
			db,
			seed: false,
			adminToken: ADMIN,
			logLevel: "warn",
			logStream: new Writable({
				write(chunk: Buffer, _encoding, done) {
					logLines.push(chunk.toString("utf8"));
					done();
				},
			}),
		});
		token = await createUser(hub.url, ADMIN, "alice");
		const created = await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "cards" }),
		});
		expect(created.status).toBe(200);
		// The first parse starts a worker (and, from the sources, bundles its script): not what is measured.
		expect((await validateYaml(hub.url, "---\nlicense: mit\n---\n")).status).toBe(200);
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
	});

	it("answers other requests while a 250 KB card is validated, then the card's errors", async () => {
		const { card, lines } = bigCard(true);
		const validation = validateYaml(hub.url, card);
		const answered = await answeredWhile(hub.url, validation);
		const answer = await validation;
		expect(answer.status).toBe(400);
		expect(((await answer.json()) as { errors: unknown[] }).errors).toEqual([
			{ message: `Invalid YAML: Map keys must be unique: "k0" (line ${lines + 1})` },
		]);
		// Before: at most the one or two sent before the card's body had arrived.
		expect(answered).toBeGreaterThanOrEqual(5);
	}, 60_000);

	it("never holds the event loop for a commit's 250 KB README front matter, and keeps the card", async () => {
		const { card } = bigCard(false);
		// Before: the commit held the event loop for the whole parse (a commit spends most of its time
		// elsewhere, waiting for storage and the database, so answers counted around it do not show that).
		// A parse on this thread holds it that long every time; other stalls (the embedded database runs on
		// this thread too, the machine's load) come and go, so the best of up to three commits is compared
		// with the parse's cost measured just before it (a CI run at load ~4 saw one hold of 1.2 s).
		const holds: { held: number; parseMs: number }[] = [];
		for (let attempt = 0; attempt < 3; attempt++) {
			const text = `${card}\nAttempt ${attempt}.\n`;
			const started = performance.now();
			expect(readFrontMatter(text).errors).toEqual([]);
			const parseMs = performance.now() - started;
			const commit = commitFile(hub.url, token, "alice/cards", "README.md", text);
			const held = await longestHold(commit);
			expect((await commit).status).toBe(200);
			holds.push({ held, parseMs });
			if (held < parseMs / 2) break;
		}
		expect(
			holds.some(({ held, parseMs }) => held < parseMs / 2),
			JSON.stringify(holds),
		).toBe(true);
		const model = (await (
			await fetch(`${hub.url}/api/models/alice/cards`, { headers: { authorization: `Bearer ${token}` } })
		).json()) as { cardData?: Record<string, unknown> };
		expect(model.cardData?.["k0"]).toBe(0);
		expect(Object.keys(model.cardData ?? {}).length).toBe(bigCard(false).lines);
	}, 120_000);

	it("answers a card that overruns MODELHUB_PARSE_TIMEOUT_MS with a clear 400, and parses the next one", async () => {
		const parsing = hub.server.parsing;
		const limit = parsing.settings.timeoutMs;
		// The previous test's commits are analysed in the background: a parse of theirs starting under the
		// 1 ms limit would overrun too and replace a second worker (seen once in CI: 2 for 1).
		await hub.server.analysis.idle();
		const replaced = parsing.replaced;
		parsing.settings.timeoutMs = 1;
		try {
			const answer = await validateYaml(hub.url, bigCard(false).card);
			expect(answer.status).toBe(400);
			expect(((await answer.json()) as { error: string }).error).toBe(
				"the model card's metadata took longer than 1 ms to parse (MODELHUB_PARSE_TIMEOUT_MS)",
			);
			// The worker running it was terminated, and another took its place.
			expect(parsing.replaced).toBe(replaced + 1);
			const commit = await commitFile(hub.url, token, "alice/cards", "README.md", bigCard(false).card);
			expect(commit.status).toBe(400);
			expect(((await commit.json()) as { error: string }).error).toMatch(/MODELHUB_PARSE_TIMEOUT_MS/);
		} finally {
			parsing.settings.timeoutMs = limit;
		}
		expect((await validateYaml(hub.url, "---\nlicense: mit\n---\n")).status).toBe(200);
	}, 60_000);

	it("records an analysis whose parsing overran in the log, and analyses the next commit", async () => {
		const parsing = hub.server.parsing;
		const limit = parsing.settings.timeoutMs;
		parsing.settings.timeoutMs = 1;
		const config = JSON.stringify({ model_type: "bert", architectures: ["BertForMaskedLM"] });
		try {
			expect((await commitFile(hub.url, token, "alice/cards", "config.json", config)).status).toBe(200);
			await hub.server.analysis.idle();
		} finally {
			parsing.settings.timeoutMs = limit;
		}
		const log = logLines.join("");
		expect(log).toContain(
			"the configuration files took longer than 1 ms to parse (MODELHUB_PARSE_TIMEOUT_MS)",
		);
		expect(log).toContain("the derived metadata took longer than 1 ms to parse (MODELHUB_PARSE_TIMEOUT_MS)");
		expect(log).toContain("repository analysis failed");
		expect((await fetch(`${hub.url}/healthz`)).status).toBe(200);
		// Within the limit again, the next commit is analysed: config.json says transformers.
		expect((await commitFile(hub.url, token, "alice/cards", "notes.txt", "x")).status).toBe(200);
		await hub.server.analysis.idle();
		const model = (await (
			await fetch(`${hub.url}/api/models/alice/cards`, { headers: { authorization: `Bearer ${token}` } })
		).json()) as { library_name?: string; config?: { model_type?: string } };
		expect(model.library_name).toBe("transformers");
		expect(model.config?.model_type).toBe("bert");
	}, 60_000);
});

describe("the parsing pool", () => {
	it("terminates a job over its time limit and replaces its worker", async () => {
		const pool = new ParsePool({ workers: 1, timeoutMs: 60_000 });
		try {
			expect((await pool.run("frontMatter", { content: "---\na: 1\n---\n" })).data).toEqual({ a: 1 });
			expect(pool.threads).toBe(1);
			pool.settings.timeoutMs = 1;
			const overrun = pool.run("frontMatter", { content: bigCard(false).card });
			await expect(overrun).rejects.toBeInstanceOf(ParseLimitError);
			await expect(overrun).rejects.toThrow(
				"the model card's metadata took longer than 1 ms to parse (MODELHUB_PARSE_TIMEOUT_MS)",
			);
			expect(pool.replaced).toBe(1);
			expect(pool.threads).toBe(0);
			pool.settings.timeoutMs = 60_000;
			expect((await pool.run("frontMatter", { content: "---\nb: 2\n---\n" })).data).toEqual({ b: 2 });
			expect(pool.threads).toBe(1);
		} finally {
			await pool.close();
		}
		expect(pool.threads).toBe(0);
	}, 60_000);

	it("refuses a request's job with 503 and Retry-After once every worker is busy and the queue is full", async () => {
		const pool = new ParsePool({ workers: 1, maxQueued: 1 });
		try {
			const card = bigCard(false).card;
			// In one turn of the event loop: the first runs, the second waits, the third finds no room.
			const first = pool.run("frontMatter", { content: card }, { refusable: true });
			const second = pool.run("frontMatter", { content: card }, { refusable: true });
			const third = pool.run("frontMatter", { content: card }, { refusable: true });
			// The hub's own jobs (analysis, commits) wait instead.
			const own = pool.run("frontMatter", { content: "---\nc: 3\n---\n" });
			const refusal = await third.catch((error: unknown) => error);
			expect(refusal).toBeInstanceOf(ParseBusyError);
			expect((refusal as ParseBusyError).status).toBe(503);
			expect((refusal as ParseBusyError).options.headers).toEqual({ "retry-after": "5" });
			expect((refusal as Error).message).toBe(
				"the hub is busy parsing: 1 workers busy and 1 jobs waiting (MODELHUB_PARSE_WORKERS, MODELHUB_PARSE_QUEUE); retry in 5 seconds",
			);
			expect((await first).errors).toEqual([]);
			expect((await second).errors).toEqual([]);
			expect((await own).data).toEqual({ c: 3 });
		} finally {
			await pool.close();
		}
	}, 60_000);

	it("answers POST /api/validate-yaml 503 with Retry-After when the queue is full", async () => {
		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const hub = await startHub({
			db,
			seed: false,
			logLevel: "silent",
			parsing: { workers: 1, maxQueued: 0 },
		});
		try {
			const card = bigCard(true).card;
			const answers = await Promise.all([1, 2, 3].map(() => validateYaml(hub.url, card)));
			const busy = answers.filter((answer) => answer.status === 503);
			expect(busy.length).toBeGreaterThanOrEqual(1);
			for (const answer of busy) {
				expect(answer.headers.get("retry-after")).toBe("5");
				expect(((await answer.json()) as { error: string }).error).toMatch(
					/^the hub is busy parsing: 1 workers busy and 0 jobs waiting \(MODELHUB_PARSE_WORKERS, MODELHUB_PARSE_QUEUE\); retry in 5 seconds$/,
				);
			}
			expect(answers.filter((answer) => answer.status === 400).length).toBeGreaterThanOrEqual(1);
		} finally {
			await hub.close();
			await db.close();
		}
	}, 60_000);

	it("terminates its workers when the hub closes, ending a parse in flight", async () => {
		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const hub = await startHub({ db, seed: false, logLevel: "silent" });
		const parsing = hub.server.parsing;
		try {
			expect((await validateYaml(hub.url, "---\nlicense: mit\n---\n")).status).toBe(200);
			expect(parsing.threads).toBe(1);
			const inFlight = parsing
				.run("frontMatter", { content: bigCard(false).card })
				.catch((error: unknown) => error);
			await hub.close();
			expect(parsing.threads).toBe(0);
			expect(await inFlight).toBeInstanceOf(ParseBusyError);
			expect(((await inFlight) as Error).message).toBe("the hub is stopping; retry in a few seconds");
			await expect(parsing.run("frontMatter", { content: "---\na: 1\n---\n" })).rejects.toBeInstanceOf(
				ParseBusyError,
			);
		} finally {
			await db.close();
		}
	}, 60_000);
});

describe("the built server", () => {
	it("parses in its worker (dist layout) and exits 0 on SIGTERM", async () => {
		const cli = await buildCli("parse-workers");
		const child = spawn(process.execPath, [...SHORT_LIVED_NODE_FLAGS, cli, "serve"], {
			env: {
				PATH: process.env.PATH ?? "",
				PORT: "0",
				MODELHUB_DATA_DIR: "memory://",
				MODELHUB_LOG_LEVEL: "warn",
			},
			stdio: ["ignore", "pipe", "pipe"],
		});
		let output = "";
		child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
		child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
		const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
		try {
			let url: string | undefined;
			while (url === undefined) {
				url = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1];
				if (child.exitCode !== null) throw new Error(`the server ended: ${output}`);
				if (url === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
			}
			const { card, lines } = bigCard(true);
			const validation = validateYaml(url, card);
			const answered = await answeredWhile(url, validation);
			const answer = await validation;
			expect(answer.status).toBe(400);
			expect(((await answer.json()) as { error: string }).error).toBe(
				`Invalid YAML: Map keys must be unique: "k0" (line ${lines + 1})`,
			);
			expect(answered).toBeGreaterThanOrEqual(5);
			child.kill("SIGTERM");
			expect(await exited).toBe(0);
			// The seed's models were analysed through the workers too: no analysis failed.
			expect(output).not.toMatch(/analysis failed|parsing worker/);
		} finally {
			if (child.exitCode === null) child.kill("SIGKILL");
		}
	}, 180_000);
});
