import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { createUser, startHub, seededRandom, type RunningHub } from "./support/hub.js";
import { rawRequest, type RawResponse } from "./support/raw-http.js";

// A few thousand random requests (paths, methods, query strings, bodies, headers) against the real
// server: every answer is below 500, /api answers are JSON, and the server still answers afterwards.

// FUZZ_SEED replays another sequence; the default one is what CI runs.
const REQUESTS = 3000;
const CONCURRENCY = 16;
const TOKEN = "fuzz-admin-token-0123456789abcdef";
/** A dataset made before the run (a card, two CSV splits): the dataset routes' success paths need one. */
const DATASET = "fuzz-user/reviews";

/** The viewer's routes (packages/hub/src/routes/datasets-server.ts), the public dataset viewer's API. */
const VIEWER_ROUTES = [
	"is-valid",
	"splits",
	"first-rows",
	"rows",
	"search",
	"filter",
	"statistics",
	"size",
	"info",
	"parquet",
	"archive-member",
];
/** The viewer's parameters and values for them, good and bad: a run reaches its success paths too. */
const VIEWER_PARAMS: Record<string, readonly string[]> = {
	dataset: [DATASET, DATASET, "fuzz-user/none", "nobody", "a/b/c", "../etc", "%00", "x".repeat(5000)],
	config: ["default", "default", "nope", "", "%00"],
	split: ["train", "train", "test", "nope", ""],
	offset: ["0", "1", "-1", "99999999999999", "1e3", "x", "9".repeat(30)],
	length: ["0", "2", "100", "101", "-5", "x"],
	query: ["good", "'", "%25", "a%00b", "\\", "x".repeat(300)],
	where: [
		"label = 1",
		"text = 'good'",
		"\"label\" > 0 AND text LIKE '%25o%25'",
		"label = 1; DROP TABLE x",
		"label IN (SELECT 1)",
		"read_csv('/etc/passwd') IS NOT NULL",
		"(((((",
		"",
	],
	orderby: ["label", "label DESC", '"text" ASC', "label; --", "random()"],
	revision: ["main", "nope", "refs%2Fpr%2F1", "0123456789abcdef0123456789abcdef01234567", ".."],
	path: ["data/train.csv", "a.zip::b.png", "../x", "::", ""],
};

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
	// Datasets (issue 23): the API, files, git LFS and the viewer (`/datasets-server/`), as for models.
	"/api/datasets",
	"/api/datasets-count",
	"/api/datasets/",
	`/api/datasets/${DATASET}`,
	`/api/datasets/${DATASET}/tree/`,
	`/api/datasets/${DATASET}/revision/`,
	`/api/datasets/${DATASET}/paths-info/`,
	`/api/datasets/${DATASET}/refs`,
	`/api/datasets/${DATASET}/commits/`,
	`/api/datasets/${DATASET}/commit/`,
	`/api/datasets/${DATASET}/preupload/`,
	`/api/datasets/${DATASET}/settings`,
	`/api/datasets/${DATASET}/branch/`,
	`/api/datasets/${DATASET}/tag/`,
	`/api/datasets/${DATASET}/xet-write-token/`,
	`/api/datasets/${DATASET}/croissant`,
	`/datasets/${DATASET}`,
	`/datasets/${DATASET}/resolve/`,
	`/datasets/${DATASET}/resolve/main/`,
	`/datasets/${DATASET}/resolve/main/data/train.csv`,
	`/datasets/${DATASET}.git/info/lfs/objects/`,
	`/api/lfs-upload/datasets/${DATASET}/`,
	"/datasets/",
	...VIEWER_ROUTES.map((route) => `/datasets-server/${route}`),
	"/datasets-server/",
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
	"data",
	"train.csv",
	"fuzz-user",
	"reviews",
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
	"dataset",
	"config",
	"split",
	"offset",
	"length",
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
	"task_categories:text-classification",
	"format:csv",
	"modality:text",
	"size_categories:n<1K",
	"task_categories:",
	"fuzz-user",
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

/**
 * A viewer query: mostly a dataset, config and split (good or bad), then the routes' other parameters;
 * now and then a parameter twice or one of the general ones.
 */
function viewerQuery(random: () => number): string {
	const pairs: string[] = [];
	for (const [name, values] of Object.entries(VIEWER_PARAMS)) {
		const chance = name === "dataset" || name === "config" || name === "split" ? 0.85 : 0.35;
		if (random() < chance) pairs.push(`${name}=${pick(random, values)}`);
		if (random() < 0.03) pairs.push(`${name}=${pick(random, values)}`);
	}
	if (random() < 0.1) pairs.push(`${pick(random, PARAMS)}=${pick(random, VALUES)}`);
	return pairs.join("&");
}

function randomPath(random: () => number): string {
	let path = pick(random, PREFIXES);
	if (path.startsWith("/datasets-server/") && random() < 0.8) {
		path += `?${viewerQuery(random)}`;
	} else {
		const segments = Math.floor(random() * 4);
		for (let i = 0; i < segments; i++) path += `${path.endsWith("/") ? "" : "/"}${pick(random, SEGMENTS)}`;
	}
	if (!path.includes("?") && random() < 0.5) {
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
		// The dataset the dataset routes are fuzzed on: a card naming a task, two CSV splits.
		const [namespace, name] = DATASET.split("/") as [string, string];
		const userToken = await createUser(hub.url, TOKEN, namespace);
		const headers = { authorization: `Bearer ${userToken}` };
		const created = await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: { ...headers, "content-type": "application/json" },
			body: JSON.stringify({ type: "dataset", name }),
		});
		expect(created.status).toBe(200);
		const files = {
			"README.md": "---\nlicense: mit\ntask_categories:\n- text-classification\n---\n\n# Reviews\n",
			"data/train.csv": "text,label\ngood,1\nbad,0\nfine,1\n",
			"data/test.csv": "text,label\nokay,1\n",
		};
		const lines = [
			{ key: "header", value: { summary: "Add the data" } },
			...Object.entries(files).map(([path, content]) => ({
				key: "file",
				value: { path, encoding: "base64", content: Buffer.from(content).toString("base64") },
			})),
		];
		const committed = await fetch(`${hub.url}/api/datasets/${DATASET}/commit/main`, {
			method: "POST",
			headers: { ...headers, "content-type": "application/x-ndjson" },
			body: lines.map((line) => JSON.stringify(line)).join("\n"),
		});
		expect(committed.status, await committed.text()).toBe(200);
		await hub.server.analysis.idle();
		const rows = await fetch(
			`${hub.url}/datasets-server/rows?dataset=${DATASET}&config=default&split=train&offset=0&length=2`,
		);
		expect(rows.status).toBe(200);
	}, 120_000);

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
		/** The dataset routes' answers by family: each must reach its handlers' success and error paths. */
		const families = {
			"dataset list": (path: string) => /^\/api\/datasets(-count)?(\?|$)/.test(path),
			"dataset API": (path: string) => path.startsWith(`/api/datasets/${DATASET}`),
			"dataset files": (path: string) => path.startsWith(`/datasets/${DATASET}/resolve/`),
			viewer: (path: string) => path.startsWith("/datasets-server/"),
			"viewer rows": (path: string) => /^\/datasets-server\/(first-rows|rows|search|filter)\?/.test(path),
		};
		const reached = new Map<string, { ok: number; refused: number }>(
			Object.keys(families).map((family) => [family, { ok: 0, refused: 0 }]),
		);
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
				for (const [family, matches] of Object.entries(families)) {
					const count = reached.get(family);
					if (!count || !matches(item.path)) continue;
					if (answer.status === 200) count.ok++;
					else if (answer.status >= 400 && answer.status < 500) count.refused++;
				}
				const label = `${item.method} ${item.path.slice(0, 120)} → ${answer.status}`;
				if (answer.status >= 500) failures.push(`${label}: ${answer.body.slice(0, 200)}`);
				const isApi = item.path === "/api" || item.path.startsWith("/api/") || item.path.startsWith("/api?");
				if (isApi && item.method !== "HEAD" && answer.status !== 204 && answer.status !== 304) {
					const contentType = String(answer.headers["content-type"] ?? "");
					// JSON, or a JSON type of its own (a dataset's Croissant is application/ld+json).
					if (!/^application\/([a-z.-]+\+)?json(;|$)/.test(contentType))
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
		for (const [family, count] of reached) {
			expect(count.ok, `${family}: 200 answers`).toBeGreaterThan(0);
			expect(count.refused, `${family}: 4xx answers`).toBeGreaterThan(0);
		}
		const health = await fetch(`${hub.url}/healthz`);
		expect(health.status).toBe(200);
		expect((await fetch(`${hub.url}/api/tasks`)).status).toBe(200);
		expect(
			(await fetch(`${hub.url}/api/datasets/${DATASET}`, { headers: { authorization: `Bearer ${TOKEN}` } }))
				.status,
		).toBe(200);
	}, 120_000);
});
