import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { startHub, seededRandom, type RunningHub } from "./support/hub.js";
import { rawRequest, type RawResponse } from "./support/raw-http.js";

// A few thousand random requests (paths, methods, query strings, bodies, headers) against the real
// server: every answer is below 500, /api answers are JSON, and the server still answers afterwards.

// FUZZ_SEED replays another sequence; the default one is what CI runs.
const REQUESTS = 3000;
const CONCURRENCY = 16;
const TOKEN = "fuzz-admin-token-0123456789abcdef";

const METHODS = ["GET", "GET", "GET", "HEAD", "PUT", "PUT", "DELETE", "POST", "OPTIONS", "PATCH"];
const PREFIXES = [
	"/api/models",
	"/meta-llama/Llama-3.1-8B-Instruct/resolve/",
	"/gpt2/resolve/",
	"/api/models/openai/whisper-large-v3/tree/",
	"/api/models/openai/whisper-large-v3/revision/",
	"/api/models/openai/whisper-large-v3/paths-info/",
	"/api/models/openai/whisper-large-v3/refs",
	"/api/models/",
	"/api/tasks",
	"/api/libraries",
	"/api/pipelines",
	"/healthz",
	"/assets/demo/",
	"/",
	"/api/",
	"/api",
	"/api/whoami-v2",
	"/api/repos/create",
	"/api/repos/delete",
	"/api/validate-yaml",
	"/api/models/openai/whisper-large-v3/commits/",
	"/api/models/openai/whisper-large-v3/commit/",
	"/api/models/openai/whisper-large-v3/preupload/",
	"/api/models/openai/whisper-large-v3/settings",
	"/api/models/openai/whisper-large-v3/branch/",
	"/api/models/openai/whisper-large-v3/tag/",
	"/api/models/openai/whisper-large-v3/xet-write-token/",
	"/openai/whisper-large-v3.git/info/lfs/objects/",
	"/api/lfs-upload/openai/whisper-large-v3/",
	"/xet/v1/xorbs/default/",
	"/xet/v1/shards",
	"/xet/v1/chunks/default-merkledb/",
	"/api/admin/users",
	"/api/admin/orgs",
	"/api/admin/audit",
	"/api/admin/tokens/",
];
const SEGMENTS = [
	"main",
	"README.md",
	"config.json",
	"resolve",
	"tree",
	"refs%2Fpr%2F1",
	"0123456789abcdef0123456789abcdef01234567",
	"openai",
	"whisper-large-v3",
	"meta-llama",
	"Llama-3.1-8B-Instruct",
	"..",
	".",
	"%2e%2e",
	"%2F",
	"%00",
	"%ff",
	"%",
	"a..b",
	"-x",
	"_",
	"x".repeat(120),
	"fuzz",
	"model",
	"input.wav",
	"index.html",
	"%C3%A9",
	"~",
	"%20",
	"'",
	"%22",
	"<script>",
];
const PARAMS = [
	"search",
	"pipeline_tag",
	"library",
	"author",
	"sort",
	"direction",
	"limit",
	"cursor",
	"expand",
	"expand[]",
	"filter",
	"full",
	"config",
	"cardData",
	"inference_provider",
	"inference",
	"gated",
	"apps",
	"num_parameters",
	"blobs",
	"securityStatus",
	"recursive",
	"x",
	"__proto__",
	"constructor",
];
const VALUES = [
	"",
	"1",
	"-1",
	"0",
	"101",
	"20",
	"downloads",
	"likes",
	"lastModified",
	"id",
	"text-generation",
	"transformers",
	"inferenceProviderMapping",
	"%00",
	"%",
	"%25",
	"_",
	"'; DROP TABLE models; --",
	"WzEsImRvd25sb2FkcyIsLTEsMTAwLCJhL2IiXQ",
	"a".repeat(300),
	"%E2%80%AE",
	"\\",
	"null",
	"[]",
	"true",
	"false",
	"Infinity",
	"1e309",
	"99999999999999999999999",
	"createdAt",
	"trendingScore",
	"all",
	"groq",
	"min:6B,max:1B",
	"min:1.5K",
	"sha",
	"siblings",
	"2024-02-30T00:00:00.000Z",
];
const CONTENT_TYPES = [
	"application/json",
	"application/x-ndjson",
	"application/vnd.git-lfs+json",
	"application/octet-stream",
	"application/json; charset=utf-8",
	"text/plain",
	"application/x-www-form-urlencoded",
	"multipart/form-data",
	"",
	"application/json; charset=latin1",
];

function pick<T>(random: () => number, list: readonly T[]): T {
	return list[Math.floor(random() * list.length)] as T;
}

function randomJson(random: () => number, depth = 0): unknown {
	const roll = random();
	if (depth > 4 || roll < 0.3) {
		return pick(random, [0, -1, 1.5, 1e308, "", "x", "\u0000", "\ud800", true, false, null, "a".repeat(50)]);
	}
	if (roll < 0.6)
		return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
	const keys = [
		"id",
		"tags",
		"pipeline_tag",
		"library_name",
		"config",
		"cardData",
		"downloads",
		"likes",
		"lastModified",
		"private",
		"inferenceProviderMapping",
		"mask_token",
		"widgetData",
		"transformersInfo",
		"author",
		"_id",
		"__proto__",
		"constructor",
		"groq",
		"providerId",
		"task",
		"status",
	];
	const out: Record<string, unknown> = {};
	for (let i = Math.floor(random() * 5); i > 0; i--) out[pick(random, keys)] = randomJson(random, depth + 1);
	return out;
}

function randomBody(random: () => number): string | undefined {
	const roll = random();
	if (roll < 0.3) return undefined;
	if (roll < 0.4) return "{not json";
	if (roll < 0.45) return "x".repeat(1024 * 1024 + 100);
	if (roll < 0.5) return "[".repeat(5000);
	if (roll < 0.55) return '{"__proto__":{"a":1}}';
	if (roll < 0.62) {
		return pick(random, [
			'{"key":"header","value":{"summary":"fuzz"}}\n{"key":"file","value":{"path":"a.txt","content":"aGk=","encoding":"base64"}}\n',
			'{"key":"header","value":{"summary":"fuzz","parentCommit":"zz"}}\n',
			'{"key":"file","value":{}}\n',
			'{"key":"header","value":{"summary":"x"}}\n{"key":"deletedFolder","value":{"path":"../"}}\n',
			'{"key":"header","value":{"summary":"x"}}\n{"key":"lfsFile","value":{"path":"w.bin","oid":"00","size":-1}}\n',
			JSON.stringify({
				name: pick(random, ["fuzz", "..", "a/b", "x".repeat(200)]),
				organization: "openai",
				private: "yes",
			}),
			JSON.stringify({
				files: [
					{ path: "a.bin", sample: "AAAA", size: 3 },
					{ path: "/", size: -1 },
				],
			}),
			JSON.stringify({ operation: "upload", objects: [{ oid: "0".repeat(64), size: 1 }, { oid: "x" }] }),
			JSON.stringify({ content: "---\nlicense: [\n---\n", repoType: "model" }),
			"HFRepoMetaData\u0000garbage",
		]);
	}
	if (roll < 0.7) {
		return JSON.stringify({
			tags: ["fuzz"],
			pipeline_tag: pick(random, ["text-generation", "fill-mask", "nope", ""]),
			downloads: pick(random, [1, -1, 0.5, "x"]),
			inferenceProviderMapping: pick(random, [
				{ groq: { providerId: "x", task: "conversational", status: "live" } },
				{ groq: { providerId: "x", task: "dance", status: "live" } },
				[{ provider: "together", providerId: "y", task: "text-generation", status: "staging" }],
				"nope",
			]),
		});
	}
	return JSON.stringify(randomJson(random));
}

function randomPath(random: () => number): string {
	let path = pick(random, PREFIXES);
	const segments = Math.floor(random() * 4);
	for (let i = 0; i < segments; i++) path += `${path.endsWith("/") ? "" : "/"}${pick(random, SEGMENTS)}`;
	if (random() < 0.5) {
		const pairs: string[] = [];
		for (let i = Math.floor(random() * 5); i > 0; i--)
			pairs.push(`${pick(random, PARAMS)}=${pick(random, VALUES)}`);
		if (random() < 0.1) pairs.push("&&==&");
		path += `?${pairs.join("&")}`;
	}
	// Raw HTTP allows no spaces or control characters in the request target.
	return path.replace(/[\s<>"'\\]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

describe("fuzzing the hub", () => {
	let db: Database;
	let hub: RunningHub;

	beforeAll(async () => {
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		// Wrong tokens are part of the plan: the failure limits would turn the rest into 429s.
		hub = await startHub({
			db,
			adminToken: TOKEN,
			authFailureLimit: 1_000_000,
			authCredentialFailureLimit: 1_000_000,
		});
	});

	afterAll(async () => {
		await hub?.close();
		await db?.close();
	});

	it(`answers ${REQUESTS} random requests without a 5xx, and still answers afterwards`, async () => {
		const random = seededRandom(Number(process.env.FUZZ_SEED ?? 20_240_611));
		const plan = Array.from({ length: REQUESTS }, () => {
			const method = pick(random, METHODS);
			const path = randomPath(random);
			const headers: Record<string, string> = {};
			const contentType = pick(random, CONTENT_TYPES);
			if (contentType) headers["content-type"] = contentType;
			const auth = random();
			if (auth < 0.45) headers.authorization = `Bearer ${TOKEN}`;
			else if (auth < 0.5) headers.authorization = "Bearer wrong";
			else if (auth < 0.52) headers.authorization = "Basic Zm9vOmJhcg==";
			else if (auth < 0.54) headers.authorization = `Bearer ${"t".repeat(5000)}`;
			if (random() < 0.2) headers.accept = pick(random, ["text/html", "*/*", "application/json", "image/*"]);
			if (random() < 0.05) headers["x-forwarded-host"] = "evil.example";
			if (random() < 0.1)
				headers.range = pick(random, [
					"bytes=0-9",
					"bytes=-5",
					"bytes=5-",
					"bytes=9-1",
					"bytes=0-0,5-6",
					"items=1-2",
					`bytes=${"9".repeat(30)}-`,
				]);
			if (random() < 0.05) headers["if-none-match"] = pick(random, ["*", '"x"', 'W/"y"', ""]);
			if (random() < 0.05)
				headers["accept-encoding"] = pick(random, ["br", "gzip;q=0", "*;q=0", "identity", "x;q=abc"]);
			const body = method === "GET" || method === "HEAD" ? undefined : randomBody(random);
			return { method, path, headers, body };
		});

		const base = new URL(hub.url);
		const failures: string[] = [];
		const statuses = new Map<number, number>();
		let next = 0;
		const worker = async (): Promise<void> => {
			while (next < plan.length) {
				const item = plan[next++] as (typeof plan)[number];
				let answer: RawResponse;
				try {
					answer = await rawRequest(base, item);
				} catch (error) {
					failures.push(`${item.method} ${item.path}: ${(error as Error).message}`);
					continue;
				}
				statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
				const label = `${item.method} ${item.path.slice(0, 120)} → ${answer.status}`;
				if (answer.status >= 500) failures.push(`${label}: ${answer.body.slice(0, 200)}`);
				const isApi = item.path === "/api" || item.path.startsWith("/api/") || item.path.startsWith("/api?");
				if (isApi && item.method !== "HEAD" && answer.status !== 204 && answer.status !== 304) {
					const contentType = String(answer.headers["content-type"] ?? "");
					if (!contentType.startsWith("application/json"))
						failures.push(`${label}: content-type ${contentType}`);
					else {
						try {
							const parsed = JSON.parse(answer.body) as { error?: unknown };
							if (answer.status >= 400 && typeof parsed.error !== "string")
								failures.push(`${label}: no { error }`);
						} catch {
							failures.push(`${label}: body is not JSON`);
						}
					}
				}
				if (/\n\s+at .+:\d+:\d+/.test(answer.body)) failures.push(`${label}: stack trace in body`);
			}
		};
		await Promise.all(Array.from({ length: CONCURRENCY }, worker));

		expect(failures.slice(0, 20)).toEqual([]);
		// The plan reached both the success and the client-error paths.
		expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
		expect(statuses.get(400) ?? 0).toBeGreaterThan(100);
		const health = await fetch(`${hub.url}/healthz`);
		expect(health.status).toBe(200);
		expect((await fetch(`${hub.url}/api/tasks`)).status).toBe(200);
	}, 120_000);
});
