// Regression tests for the findings of issue 21 (a hostile review of the sharing surface): each one
// fails on the hub as it was before its fix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { ADMIN_TOKEN } from "./support/hub-suite.js";
import { startHub, type RunningHub } from "./support/hub.js";

const VALIDATIONS_PER_MINUTE = 4;

const GITIGNORE_MAX_STEPS = 2_000_000;

let db: Database;
let hub: RunningHub;
const tokens: Record<string, string> = {};

async function post(path: string, token: string, body: unknown): Promise<Response> {
	return fetch(`${hub.url}${path}`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
		body: JSON.stringify(body),
	});
}

beforeAll(async () => {
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({
		db,
		seed: false,
		adminToken: ADMIN_TOKEN,
		// Each test speaks from its own address (X-Forwarded-For), so that per-address limits stay apart.
		trustProxy: true,
		validateYamlPerMinute: VALIDATIONS_PER_MINUTE,
		uploads: { gitignoreMaxSteps: GITIGNORE_MAX_STEPS },
		logLevel: "silent",
	});
	for (const name of ["alice", "bob"]) {
		const created = await post("/api/admin/users", ADMIN_TOKEN, { name });
		tokens[name] = ((await created.json()) as { token: string }).token;
	}
	expect((await post("/api/repos/create", tokens.alice as string, { name: "open" })).status).toBe(200);
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
});

let nextAddress = 1;
/** A fresh client address for one test. */
function address(): Record<string, string> {
	const n = nextAddress++;
	return { "x-forwarded-for": `10.21.${n >> 8}.${n & 255}` };
}

function validateYaml(
	content: string,
	headers: Record<string, string>,
): Promise<{ status: number; body: { error?: string; errors?: Array<{ message: string }> } }> {
	return fetch(`${hub.url}/api/validate-yaml`, {
		method: "POST",
		headers: { "content-type": "application/json", ...headers },
		body: JSON.stringify({ content, repoType: "model" }),
	}).then(async (res) => ({ status: res.status, body: (await res.json()) as { error?: string } }));
}

/** A card whose metadata is the largest accepted block of distinct short keys, then one repeated key. */
function manyKeysCard(): { card: string; lines: number } {
	const lines: string[] = [];
	let size = 0;
	for (let i = 0; size < 250 * 1024; i++) {
		const line = `k${i.toString(36)}: 0`;
		lines.push(line);
		size += line.length + 1;
	}
	lines.push("k0: 1");
	return { card: `---\n${lines.join("\n")}\n---\n# Card\n`, lines: lines.length };
}

describe("POST /api/validate-yaml under hostile cards", () => {
	it("answers a 250 KB card of distinct keys (and a repeated one) while /healthz keeps answering", async () => {
		// Before the fix each of these held the event loop for seconds (quadratic duplicate-key check):
		// the test timed out and /healthz waited behind them.
		const { card, lines } = manyKeysCard();
		expect(card.length).toBeGreaterThan(250 * 1024);
		const headers = address();
		const validations = [validateYaml(card, headers), validateYaml(card, headers)];
		const health = await fetch(`${hub.url}/healthz`);
		expect(health.status).toBe(200);
		for (const answer of await Promise.all(validations)) {
			expect(answer.status).toBe(400);
			expect(answer.body.errors).toEqual([
				{ message: `Invalid YAML: Map keys must be unique: "k0" (line ${lines + 1})` },
			]);
		}
	}, 20_000);

	it("refuses nesting deeper than the bound instead of overflowing the parser's stack", async () => {
		const headers = address();
		const deep = await validateYaml(`---\na: ${"[".repeat(20_000)}\n---\n`, headers);
		expect(deep.status).toBe(400);
		expect(deep.body.errors).toEqual([{ message: "The metadata nests collections deeper than 64 levels" }]);
		const nested = await validateYaml(`---\n${"- ".repeat(30_000)}x\n---\n`, headers);
		expect(nested.body.errors).toEqual([{ message: "The metadata nests collections deeper than 64 levels" }]);
		// Real nesting (model-index) is far below the bound.
		const fine = await validateYaml(`---\na: ${"[".repeat(20)}1${"]".repeat(20)}\n---\n`, headers);
		expect(fine).toEqual({ status: 200, body: { errors: [], warnings: [] } });
	}, 20_000);

	it("limits calls per address and per account, with 429 and Retry-After; the admin token is not limited", async () => {
		const headers = address();
		for (let i = 0; i < VALIDATIONS_PER_MINUTE; i++) {
			expect((await validateYaml("---\nlicense: mit\n---\n", headers)).status).toBe(200);
		}
		const refused = await fetch(`${hub.url}/api/validate-yaml`, {
			method: "POST",
			headers: { "content-type": "application/json", ...headers },
			body: JSON.stringify({ content: "---\nlicense: mit\n---\n" }),
		});
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
		expect(((await refused.json()) as { error: string }).error).toMatch(
			/^Too many YAML validations from this address: retry in \d+ seconds$/,
		);
		// Another address is not affected; the admin token is not counted.
		expect((await validateYaml("---\nlicense: mit\n---\n", address())).status).toBe(200);
		const admin = { ...headers, authorization: `Bearer ${ADMIN_TOKEN}` };
		for (let i = 0; i <= VALIDATIONS_PER_MINUTE; i++) {
			expect((await validateYaml("---\nlicense: mit\n---\n", admin)).status).toBe(200);
		}
	});
});

describe("preupload's .gitignore matching under hostile patterns", () => {
	function preupload(gitIgnore: string, paths: string[]): Promise<Response> {
		return post("/api/models/alice/open/preupload/main", tokens.alice as string, {
			files: paths.map((path) => ({ path, size: 10, sample: "" })),
			gitIgnore,
		});
	}

	it("answers many-star patterns against 995-character paths (they hung the hub before)", async () => {
		const name = "a".repeat(995);
		const answer = await preupload(`${"*a".repeat(40)}*b\n${"*a".repeat(40)}\n!keep*\n`, [
			name,
			`keep${name}`,
		]);
		expect(answer.status).toBe(200);
		const { files } = (await answer.json()) as { files: Array<{ path: string; shouldIgnore: boolean }> };
		expect(files.map((file) => file.shouldIgnore)).toEqual([true, false]);
		expect((await fetch(`${hub.url}/healthz`)).status).toBe(200);
	}, 30_000);

	it("refuses a request whose rules × paths exceed MODELHUB_GITIGNORE_MAX_STEPS with a clear 400", async () => {
		const paths = Array.from({ length: 100 }, (_, i) => `${"a".repeat(900)}${i}`);
		const answer = await preupload(`${"*a".repeat(400)}*b\n`, paths);
		expect(answer.status).toBe(400);
		expect(((await answer.json()) as { error: string }).error).toBe(
			`.gitignore is too costly to match against these paths (more than ${GITIGNORE_MAX_STEPS} steps, MODELHUB_GITIGNORE_MAX_STEPS): send fewer files per request or simpler patterns`,
		);
	}, 30_000);
});
