import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	ALL_MODEL_LIBRARY_KEYS,
	MODALITY_LABELS,
	PIPELINE_DATA,
	PIPELINE_TYPES,
	renderApiTasks,
	TASKS_DATA,
} from "@modelhub/tasks";
import { ANONYMOUS } from "../../src/accounts/viewer.js";
import type { Database } from "../../src/db/types.js";
import { CONTENT_SECURITY_POLICY } from "../../src/http.js";
import { ModelInputError, parseModelList } from "../../src/models/input.js";
import { countMatchingModels } from "../../src/models/store.js";
import { saveModels } from "../../src/services/import.js";
import { loadSeedModels } from "../../src/seed.js";
import { startHub, type RunningHub } from "./hub.js";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

interface CompactModel {
	id: string;
	modelId: string;
	author: string;
	pipeline_tag?: string;
	library_name?: string;
	tags: string[];
	downloads: number;
	likes: number;
	lastModified: string;
	private: boolean;
	inferenceProviderMapping?: Record<string, Record<string, string>>;
}

interface RawResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** A request with an exact path (fetch would normalise `..` and percent-encodings away). */
export function rawRequest(
	base: string,
	options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
	const url = new URL(base);
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{
				host: url.hostname,
				port: url.port,
				method: options.method ?? "GET",
				path: options.path,
				headers: options.headers,
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on("data", (chunk: Buffer) => chunks.push(chunk));
				res.on("end", () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(chunks).toString("utf8"),
					}),
				);
				res.on("error", reject);
			},
		);
		req.on("error", reject);
		if (options.body !== undefined) req.write(options.body);
		req.end();
	});
}

function auth(token = ADMIN_TOKEN): Record<string, string> {
	return { authorization: `Bearer ${token}`, "content-type": "application/json" };
}

async function walk(base: string, query: string): Promise<{ models: CompactModel[]; pages: number }> {
	const models: CompactModel[] = [];
	let next: string | null = `${base}/api/models?${query}`;
	let pages = 0;
	while (next) {
		const res: Response = await fetch(next);
		expect(res.status).toBe(200);
		const page = (await res.json()) as CompactModel[];
		models.push(...page);
		pages++;
		const link = res.headers.get("link");
		const cursor = res.headers.get("x-next-cursor");
		if (link) {
			const match = /^<([^>]+)>; rel="next"$/.exec(link);
			expect(match).not.toBeNull();
			const target = new URL((match as RegExpExecArray)[1] as string);
			expect(target.searchParams.get("cursor")).toBe(cursor);
			next = target.toString();
		} else {
			expect(cursor).toBeNull();
			next = null;
		}
		if (pages > 1000) throw new Error("pagination does not end");
	}
	return { models, pages };
}

function sortValue(model: CompactModel, sort: string): number | string {
	if (sort === "downloads") return model.downloads;
	if (sort === "likes") return model.likes;
	if (sort === "lastModified") return model.lastModified;
	return model.id;
}

function compareIds(a: string, b: string): number {
	// The hub orders ids in byte order (COLLATE "C"); for ASCII ids that is code-unit order.
	return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The route tests, run against a real server over real HTTP, once per database kind. `openDb` gives a
 * fresh, migrated, empty database; the suite seeds it.
 */
export function defineHubSuite(label: string, openDb: () => Promise<Database>): void {
	describe(`hub over ${label}`, () => {
		let db: Database;
		let hub: RunningHub;
		let base: string;
		let seedCount: number;
		const tempDirs: string[] = [];

		beforeAll(async () => {
			db = await openDb();
			seedCount = (await loadSeedModels()).length;
			hub = await startHub({ db, adminToken: ADMIN_TOKEN });
			base = hub.url;
			// Opening and seeding a database takes a few seconds, more on a busy machine.
		}, 180_000);

		afterAll(async () => {
			await hub?.close();
			await db?.close();
			for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
		}, 60_000);

		it("answers /healthz", async () => {
			const res = await fetch(`${base}/healthz`);
			expect(res.status).toBe(200);
			expect(await res.json()).toEqual({ status: "ok", database: db.kind, storage: "disk" });
		});

		it("serves the task catalogue exactly as renderApiTasks() builds it", async () => {
			const res = await fetch(`${base}/api/tasks`);
			expect(res.status).toBe(200);
			expect(res.headers.get("content-type")).toMatch(/^application\/json/);
			expect(await res.json()).toEqual(JSON.parse(JSON.stringify(renderApiTasks())));
		});

		it("returns a model in the public hub's shape", async () => {
			const res = await fetch(`${base}/api/models/meta-llama/Llama-3.1-8B-Instruct`);
			expect(res.status).toBe(200);
			const model = (await res.json()) as Record<string, unknown>;
			expect(Object.keys(model).slice(0, 3)).toEqual(["id", "modelId", "author"]);
			expect(model).toMatchObject({
				id: "meta-llama/Llama-3.1-8B-Instruct",
				modelId: "meta-llama/Llama-3.1-8B-Instruct",
				author: "meta-llama",
				pipeline_tag: "text-generation",
				library_name: "transformers",
				private: false,
				transformersInfo: { auto_model: "AutoModelForCausalLM", processor: "AutoTokenizer" },
			});
			expect(model.tags).toContain("conversational");
			expect(
				(model.config as { tokenizer_config: { chat_template: string } }).tokenizer_config.chat_template,
			).toMatch(/messages/);
			expect(model.lastModified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
			expect(typeof model.downloads).toBe("number");
			expect(model).not.toHaveProperty("inferenceProviderMapping");
			expect(model).not.toHaveProperty("mask_token");
		});

		it("keeps fill-mask tokens and widget data", async () => {
			const model = (await (
				await fetch(`${base}/api/models/google-bert/bert-base-uncased`)
			).json()) as Record<string, unknown>;
			expect(model.mask_token).toBe("[MASK]");
			expect(model.widgetData).toEqual([{ text: "Paris is the [MASK] of France." }]);
		});

		it("expands the provider mapping as an object in preference order", async () => {
			for (const query of ["expand[]=inferenceProviderMapping", "expand=inferenceProviderMapping"]) {
				const res = await fetch(`${base}/api/models/meta-llama/Llama-3.3-70B-Instruct?${query}`);
				expect(res.status).toBe(200);
				const model = (await res.json()) as CompactModel;
				const mapping = model.inferenceProviderMapping as Record<string, Record<string, string>>;
				expect(Object.keys(mapping).slice(0, 3)).toEqual(["together", "groq", "cerebras"]);
				expect(mapping.together).toEqual({
					providerId: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
					task: "conversational",
					status: "live",
				});
				expect(mapping.nscale?.status).toBe("staging");
			}
			const lora = (await (
				await fetch(`${base}/api/models/XLabs-AI/flux-RealismLora?expand[]=inferenceProviderMapping`)
			).json()) as CompactModel;
			expect(lora.inferenceProviderMapping?.["fal-ai"]).toEqual({
				providerId: "fal-ai/flux-lora",
				task: "text-to-image",
				status: "live",
				adapter: "lora",
				adapterWeightsPath: "lora.safetensors",
			});
			const none = (await (
				await fetch(`${base}/api/models/facebook/dinov2-base?expand[]=inferenceProviderMapping`)
			).json()) as CompactModel;
			expect(none.inferenceProviderMapping).toEqual({});
		});

		it("finds models case-insensitively and answers with the stored id", async () => {
			const model = (await (
				await fetch(`${base}/api/models/OPENAI/WHISPER-large-v3`)
			).json()) as CompactModel;
			expect(model.id).toBe("openai/whisper-large-v3");
		});

		it("answers 404 with a JSON error for unknown models and routes", async () => {
			for (const path of ["/api/models/nobody/nothing", "/api/nothing", "/api/models/a/b/c", "/api"]) {
				const res = await fetch(`${base}${path}`);
				expect(res.status, path).toBe(404);
				expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
				expect(typeof ((await res.json()) as { error: unknown }).error).toBe("string");
			}
		});

		it("refuses malformed ids and path traversal with 400 or 404, never 5xx", async () => {
			const paths = [
				"/api/models/a..b/c",
				"/api/models/-a/b",
				"/api/models/a/.b",
				"/api/models/%2e%2e/etc",
				"/api/models/a/b%00c",
				"/api/models/a%2Fb/c",
				`/api/models/a/${"x".repeat(97)}`,
				"/api/models/a/b%20c",
			];
			for (const path of paths) {
				const res = await rawRequest(base, { path });
				expect(res.status, path).toBe(400);
				expect(JSON.parse(res.body), path).toHaveProperty("error");
			}
			// Broken percent-encoding is refused before routing, with the same headers and shape.
			for (const path of ["/api/models/%zz/b", "/api/%", "/%ff"]) {
				const res = await rawRequest(base, { path });
				expect(res.status, path).toBe(400);
				expect(JSON.parse(res.body), path).toEqual({ error: "malformed URL: invalid percent-encoding" });
				expect(res.headers["content-security-policy"], path).toBe(CONTENT_SECURITY_POLICY);
			}
			for (const path of [
				"/api/models/../../etc/passwd",
				"/api/models/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
				"/assets/demo/../../package.json",
				"/assets/demo/%2e%2e/package.json",
			]) {
				const res = await rawRequest(base, { path });
				expect(res.status, path).toBeGreaterThanOrEqual(400);
				expect(res.status, path).toBeLessThan(500);
				expect(res.body, path).not.toMatch(/"name":\s*"@modelhub\/tasks"|root:x:0/);
			}
		});

		it("lists every model exactly once across pages, in a stable keyset order", async () => {
			const combos = [
				"sort=downloads&direction=-1",
				"sort=likes&direction=1",
				"sort=lastModified&direction=-1",
				"sort=id&direction=1",
				"sort=id&direction=-1",
			];
			for (const combo of combos) {
				const { models, pages } = await walk(base, `${combo}&limit=17`);
				expect(pages).toBe(Math.ceil(models.length / 17));
				const ids = models.map((m) => m.id);
				expect(new Set(ids).size, combo).toBe(ids.length);
				expect(ids.length, combo).toBe(await totalModels());
				const sort = /sort=(\w+)/.exec(combo)?.[1] as string;
				const direction = combo.endsWith("-1") ? -1 : 1;
				for (let i = 1; i < models.length; i++) {
					const a = models[i - 1] as CompactModel;
					const b = models[i] as CompactModel;
					const va = sortValue(a, sort);
					const vb = sortValue(b, sort);
					const cmp = va === vb ? compareIds(a.id, b.id) : va < vb ? -1 : 1;
					expect(cmp * direction, `${combo}: ${a.id} then ${b.id}`).toBeLessThan(0);
				}
				// The same walk again gives the same order.
				const again = await walk(base, `${combo}&limit=17`);
				expect(again.models.map((m) => m.id)).toEqual(ids);
			}
		});

		async function totalModels(): Promise<number> {
			const result = await db.query<{ count: number | string }>(
				"SELECT count(*) AS count FROM repos WHERE type = 'model'",
			);
			return Number(result.rows[0]?.count);
		}

		it("seeds the curated models at first start", async () => {
			const { models } = await walk(base, "sort=id&limit=100");
			expect(models.length).toBeGreaterThanOrEqual(seedCount);
			expect(seedCount).toBeGreaterThanOrEqual(220);
		});

		it("keeps paging stable while models are added", async () => {
			const first = await fetch(`${base}/api/models?sort=id&direction=1&limit=50`);
			const firstPage = (await first.json()) as CompactModel[];
			const cursor = first.headers.get("x-next-cursor") as string;
			// A model sorting before the cursor position appears on no later page; nothing repeats.
			const put = await fetch(`${base}/api/models/0aaa/paging-probe`, {
				method: "PUT",
				headers: auth(),
				body: JSON.stringify({ tags: [] }),
			});
			expect(put.status).toBe(201);
			const { models: rest } = await walk(base, `sort=id&direction=1&limit=50&cursor=${cursor}`);
			const seen = new Set(firstPage.map((m) => m.id));
			for (const model of rest) {
				expect(seen.has(model.id)).toBe(false);
				seen.add(model.id);
			}
			expect(seen.has("0aaa/paging-probe")).toBe(false);
			await fetch(`${base}/api/models/0aaa/paging-probe`, { method: "DELETE", headers: auth() });
		});

		it("filters by pipeline tag, library, author and search", async () => {
			const t2i = (await walk(base, "pipeline_tag=text-to-image&limit=100")).models;
			expect(t2i.length).toBeGreaterThan(5);
			expect(t2i.every((m) => m.pipeline_tag === "text-to-image")).toBe(true);

			const diffusers = (await walk(base, "library=diffusers&limit=100")).models;
			expect(diffusers.length).toBeGreaterThan(5);
			expect(diffusers.every((m) => m.library_name === "diffusers")).toBe(true);

			const meta = (await walk(base, "author=META-LLAMA&limit=100")).models;
			expect(meta.length).toBeGreaterThan(3);
			expect(meta.every((m) => m.author === "meta-llama")).toBe(true);

			const whisper = (await walk(base, "search=WHISPER&limit=5")).models;
			expect(whisper.length).toBeGreaterThan(2);
			expect(whisper.every((m) => m.id.toLowerCase().includes("whisper"))).toBe(true);

			const both = (
				await walk(base, "search=whisper&library=transformers&pipeline_tag=automatic-speech-recognition")
			).models;
			expect(both.length).toBeGreaterThan(0);
			expect(both.every((m) => m.library_name === "transformers" && m.id.includes("whisper"))).toBe(true);

			// LIKE wildcards are literal text in a search.
			for (const search of ["%", "_", "\\", "%25"]) {
				const res = await fetch(`${base}/api/models?search=${encodeURIComponent(search)}`);
				expect(res.status).toBe(200);
				const page = (await res.json()) as CompactModel[];
				expect(page.every((m) => m.id.includes(search))).toBe(true);
			}
			// Empty filters mean "no filter".
			expect((await fetch(`${base}/api/models?search=&pipeline_tag=&limit=3`)).status).toBe(200);
		});

		it("sorts by downloads by default and honours limit", async () => {
			const res = await fetch(`${base}/api/models?limit=5`);
			const page = (await res.json()) as CompactModel[];
			expect(page).toHaveLength(5);
			const downloads = page.map((m) => m.downloads);
			expect([...downloads].sort((a, b) => b - a)).toEqual(downloads);
			expect(page[0]).not.toHaveProperty("config");
			const expanded = (await (
				await fetch(`${base}/api/models?limit=2&expand[]=inferenceProviderMapping&expand[]=config`)
			).json()) as Array<Record<string, unknown>>;
			expect(expanded[0]).toHaveProperty("inferenceProviderMapping");
			expect(expanded[0]).toHaveProperty("config");
		});

		it("refuses invalid values of known parameters with a 400 naming the parameter", async () => {
			const cases: Array<[string, RegExp]> = [
				["sort=stars", /'sort'/],
				["direction=2", /'direction'/],
				["limit=0", /'limit'/],
				["limit=-1", /'limit'/],
				["limit=1.5", /'limit'/],
				["limit=abc", /'limit'/],
				["limit=Infinity", /'limit'/],
				["limit=1e309", /'limit'/],
				["limit=NaN", /'limit'/],
				["pipeline_tag=not-a-task", /'pipeline_tag'/],
				["library=../etc", /'library'/],
				["author=a%20b", /'author'/],
				["cursor=%%%", /'cursor'/],
				["cursor=abc", /'cursor'/],
				["sort=id&sort=likes", /'sort'/],
				["search=a%00b", /'search'/],
				["expand[]=everything", /'expand'/],
				["expand=everything", /'expand'/],
				["full=perhaps", /'full'/],
				["gated=maybe", /'gated'/],
				["inference=cold", /'inference'/],
				["inference_provider=Not%20A%20Provider", /'inference_provider'/],
				["num_parameters=lots", /'num_parameters'/],
				["num_parameters=min:9B,max:1B", /'num_parameters'/],
				["apps=ollama", /'apps' is not supported/],
				[`search=${"x".repeat(201)}`, /'search'/],
			];
			for (const [query, message] of cases) {
				const res = await fetch(`${base}/api/models?${query}`);
				expect(res.status, query).toBe(400);
				const body = (await res.json()) as { error: string };
				expect(body.error, query).toMatch(message);
			}
			const modelCase = await fetch(`${base}/api/models/openai/whisper-large-v3?expand[]=nope`);
			expect(modelCase.status).toBe(400);
			expect(((await modelCase.json()) as { error: string }).error).toMatch(/expand/);
		});

		it("ignores parameters it does not know, as real clients send some", async () => {
			const plain = await (await fetch(`${base}/api/models?limit=5`)).text();
			expect(
				await (await fetch(`${base}/api/models?limit=5&colour=blue&emissions_thresholds=1`)).text(),
			).toBe(plain);
			expect((await fetch(`${base}/api/models/openai/whisper-large-v3?foo=1`)).status).toBe(200);
			expect((await fetch(`${base}/api/tasks?x=1`)).status).toBe(200);
			expect((await fetch(`${base}/api/libraries?x=1`)).status).toBe(200);
		});

		it("caps limit at 1000 per page and pages on with Link", async () => {
			const res = await fetch(`${base}/api/models?limit=99999999999999999999&sort=id&direction=1`);
			expect(res.status).toBe(200);
			const page = (await res.json()) as CompactModel[];
			expect(page.length).toBe(Math.min(1000, await totalModels()));
		});

		it("refuses a cursor made for another sort order", async () => {
			const res = await fetch(`${base}/api/models?sort=likes&limit=2`);
			const cursor = res.headers.get("x-next-cursor") as string;
			const other = await fetch(`${base}/api/models?sort=downloads&limit=2&cursor=${cursor}`);
			expect(other.status).toBe(400);
			expect(((await other.json()) as { error: string }).error).toMatch(/cursor/);
		});

		it("describes libraries with model counts", async () => {
			const libraries = (await (await fetch(`${base}/api/libraries`)).json()) as Array<
				Record<string, unknown>
			>;
			expect(libraries.map((l) => l.key)).toEqual(ALL_MODEL_LIBRARY_KEYS);
			const diffusers = libraries.find((l) => l.key === "diffusers") as Record<string, unknown>;
			expect(diffusers).toMatchObject({
				prettyLabel: expect.any(String),
				repoUrl: expect.any(String),
				hasSnippets: true,
			});
			const listed = (await walk(base, "library=diffusers&limit=100")).models.length;
			expect(diffusers.modelCount).toBe(listed);
			for (const library of libraries) {
				expect(Object.keys(library)).toEqual(
					expect.arrayContaining([
						"key",
						"prettyLabel",
						"repoName",
						"repoUrl",
						"filter",
						"hasSnippets",
						"modelCount",
					]),
				);
			}
		});

		it("describes pipelines with modality labels and model counts", async () => {
			const pipelines = (await (await fetch(`${base}/api/pipelines`)).json()) as Array<
				Record<string, unknown>
			>;
			expect(pipelines.map((p) => p.id)).toEqual(PIPELINE_TYPES);
			const asr = pipelines.find((p) => p.id === "automatic-speech-recognition") as Record<string, unknown>;
			expect(asr).toMatchObject({
				name: PIPELINE_DATA["automatic-speech-recognition"].name,
				modality: "audio",
				modalityLabel: MODALITY_LABELS.audio,
				hasTaskPage: true,
			});
			const listed = (await walk(base, "pipeline_tag=automatic-speech-recognition&limit=100")).models.length;
			expect(asr.modelCount).toBe(listed);
		});

		it("serves files with ranges, ETags, HEAD and the error codes huggingface_hub reads", async () => {
			const path = "/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json";
			const full = await rawRequest(base, { path });
			expect(full.status).toBe(200);
			const size = Buffer.byteLength(full.body);
			expect(full.headers["content-length"]).toBe(String(size));
			expect(full.headers["accept-ranges"]).toBe("bytes");
			expect(full.headers["x-repo-commit"]).toMatch(/^[0-9a-f]{40}$/);
			const etag = full.headers.etag as string;
			expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
			const head = await rawRequest(base, { method: "HEAD", path });
			expect(head.status).toBe(200);
			expect(head.headers["content-length"]).toBe(String(size));
			expect(head.body).toBe("");
			const cases: Array<[string, number, string | undefined, string]> = [
				["bytes=0-9", 206, `bytes 0-9/${size}`, full.body.slice(0, 10)],
				["bytes=-5", 206, `bytes ${size - 5}-${size - 1}/${size}`, full.body.slice(-5)],
				[`bytes=10-`, 206, `bytes 10-${size - 1}/${size}`, full.body.slice(10)],
				[`bytes=5-${size + 100}`, 206, `bytes 5-${size - 1}/${size}`, full.body.slice(5)],
				[`bytes=${size}-`, 416, `bytes */${size}`, ""],
				["bytes=9-1", 416, `bytes */${size}`, ""],
				["bytes=0-1,4-5", 200, undefined, full.body],
				["items=0-1", 200, undefined, full.body],
			];
			for (const [range, status, contentRange, body] of cases) {
				const res = await rawRequest(base, { path, headers: { range } });
				expect(res.status, range).toBe(status);
				expect(res.headers["content-range"], range).toBe(contentRange);
				expect(res.body, range).toBe(body);
			}
			const cached = await rawRequest(base, { path, headers: { "if-none-match": etag } });
			expect(cached.status).toBe(304);
			expect(cached.body).toBe("");
			const byCommit = await rawRequest(base, {
				path: path.replace("/main/", `/${full.headers["x-repo-commit"] as string}/`),
			});
			expect(byCommit.body).toBe(full.body);
			expect(byCommit.headers["cache-control"]).toMatch(/immutable/);

			const missingFile = await rawRequest(base, { path: path.replace("config.json", "nope.json") });
			expect(missingFile.status).toBe(404);
			expect(missingFile.headers["x-error-code"]).toBe("EntryNotFound");
			expect(missingFile.headers["x-repo-commit"]).toBe(full.headers["x-repo-commit"]);
			const missingRevision = await rawRequest(base, { path: path.replace("/main/", "/nope/") });
			expect(missingRevision.headers["x-error-code"]).toBe("RevisionNotFound");
			expect(JSON.parse(missingRevision.body)).toEqual({ error: "Invalid rev id: nope" });
			for (const missingRepo of [
				"/nobody/nothing/resolve/main/a.txt",
				"/api/models/nobody/nothing",
				"/api/models/nothing-at-all/tree/main",
			]) {
				const res = await rawRequest(base, { path: missingRepo });
				expect(res.status, missingRepo).toBe(404);
				expect(res.headers["x-error-code"], missingRepo).toBe("RepoNotFound");
				expect(JSON.parse(res.body), missingRepo).toEqual({ error: "Repository not found" });
			}
			// A revision with a slash is one encoded segment, as huggingface_hub sends it.
			const slashed = await rawRequest(base, {
				path: "/api/models/openai/whisper-large-v3/revision/refs%2Fpr%2F1",
			});
			expect(slashed.headers["x-error-code"]).toBe("RevisionNotFound");
			expect(JSON.parse(slashed.body)).toEqual({ error: "Invalid rev id: refs/pr/1" });
		});

		describe("admin writes", () => {
			const body = JSON.stringify({ pipeline_tag: "text-generation", tags: ["conversational"] });

			it("require a bearer token (401), the right one (403)", async () => {
				const none = await fetch(`${base}/api/models/acme/auth-test`, {
					method: "PUT",
					headers: { "content-type": "application/json" },
					body,
				});
				expect(none.status).toBe(401);
				expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
				expect(await none.json()).toHaveProperty("error");

				const malformed = await fetch(`${base}/api/models/acme/auth-test`, {
					method: "PUT",
					headers: { authorization: `Basic ${ADMIN_TOKEN}`, "content-type": "application/json" },
					body,
				});
				expect(malformed.status).toBe(401);

				for (const token of ["wrong", `${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1)]) {
					const wrong = await fetch(`${base}/api/models/acme/auth-test`, {
						method: "PUT",
						headers: auth(token),
						body,
					});
					expect(wrong.status, token).toBe(403);
					expect(((await wrong.json()) as { error: string }).error).not.toContain(ADMIN_TOKEN);
				}
				const del = await fetch(`${base}/api/models/openai/whisper-large-v3`, {
					method: "DELETE",
					headers: auth("nope"),
				});
				expect(del.status).toBe(403);
				expect((await fetch(`${base}/api/models/acme/auth-test`)).status).toBe(404);
				expect((await fetch(`${base}/api/models/openai/whisper-large-v3`)).status).toBe(200);
			});

			it("are refused when no admin token is configured", async () => {
				const readOnly = await startHub({ db, seed: false });
				try {
					const res = await fetch(`${readOnly.url}/api/models/acme/auth-test`, {
						method: "PUT",
						headers: auth(),
						body,
					});
					expect(res.status).toBe(403);
					expect(((await res.json()) as { error: string }).error).toMatch(/MODELHUB_ADMIN_TOKEN/);
					const del = await fetch(`${readOnly.url}/api/models/openai/whisper-large-v3`, {
						method: "DELETE",
						headers: auth(),
					});
					expect(del.status).toBe(403);
				} finally {
					await readOnly.close();
				}
			});

			it("create (201), replace (200) and show the change at once, cache included", async () => {
				const url = `${base}/api/models/acme/chat-1`;
				const first = {
					pipeline_tag: "text-generation",
					library_name: "transformers",
					tags: ["transformers", "conversational"],
					downloads: 10,
					inferenceProviderMapping: {
						together: { providerId: "acme/chat-1-turbo", task: "conversational", status: "live" },
						groq: { providerId: "chat-1", task: "conversational", status: "staging" },
					},
				};
				const created = await fetch(url, { method: "PUT", headers: auth(), body: JSON.stringify(first) });
				expect(created.status).toBe(201);
				const stored = (await created.json()) as CompactModel;
				expect(stored.id).toBe("acme/chat-1");
				expect(Object.keys(stored.inferenceProviderMapping ?? {})).toEqual(["together", "groq"]);

				// Warm the cache, then replace: the next read must show the new data.
				await fetch(`${url}?expand[]=inferenceProviderMapping`);
				await fetch(`${base}/api/libraries`);
				const second = {
					...first,
					downloads: 11,
					inferenceProviderMapping: [
						{ provider: "groq", providerId: "chat-1", task: "conversational", status: "live" },
						{ provider: "hf-inference", providerId: "acme/chat-1", task: "conversational", status: "live" },
					],
				};
				const replaced = await fetch(url, { method: "PUT", headers: auth(), body: JSON.stringify(second) });
				expect(replaced.status).toBe(200);
				const read = (await (await fetch(`${url}?expand[]=inferenceProviderMapping`)).json()) as CompactModel;
				expect(read.downloads).toBe(11);
				expect(Object.keys(read.inferenceProviderMapping ?? {})).toEqual(["groq", "hf-inference"]);
				expect(read.inferenceProviderMapping?.groq?.status).toBe("live");
			});

			it("validate the body with 400s that say what is wrong", async () => {
				const url = `${base}/api/models/acme/invalid`;
				const cases: Array<[string, string | undefined, RegExp]> = [
					["{not json", "application/json", /not valid JSON/],
					["[1, 2]", "application/json", /object/],
					['"text"', "application/json", /object/],
					[JSON.stringify({ id: "other/model" }), "application/json", /does not match/],
					[JSON.stringify({ pipeline_tag: "dance" }), "application/json", /pipeline type/],
					[JSON.stringify({ tags: "a,b" }), "application/json", /tags/],
					[JSON.stringify({ tags: [1] }), "application/json", /tags\[0\]/],
					[JSON.stringify({ downloads: -1 }), "application/json", /downloads/],
					[JSON.stringify({ downloads: 1.5 }), "application/json", /downloads/],
					[JSON.stringify({ lastModified: "yesterday" }), "application/json", /lastModified/],
					[JSON.stringify({ private: "no" }), "application/json", /private/],
					[JSON.stringify({ author: "someone-else" }), "application/json", /author/],
					[JSON.stringify({ config: [] }), "application/json", /config/],
					[JSON.stringify({ config: { a: "nul\u0000" } }), "application/json", /NUL/],
					[JSON.stringify({ transformersInfo: {} }), "application/json", /auto_model/],
					[
						JSON.stringify({ inferenceProviderMapping: { "Bad Provider": {} } }),
						"application/json",
						/provider/,
					],
					[
						JSON.stringify({
							inferenceProviderMapping: { groq: { providerId: "x", task: "conversational", status: "up" } },
						}),
						"application/json",
						/status/,
					],
					[
						JSON.stringify({
							inferenceProviderMapping: {
								"fal-ai": {
									providerId: "x",
									task: "text-to-image",
									status: "live",
									adapterWeightsPath: "../secret",
								},
							},
						}),
						"application/json",
						/adapterWeightsPath/,
					],
					[
						JSON.stringify({ config: JSON.parse("[".repeat(40) + "]".repeat(40)) }),
						"application/json",
						/config/,
					],
					// Prototype poisoning is refused by the JSON parser itself.
					[`{"__proto__": {"polluted": true}}`, "application/json", /JSON/],
				];
				for (const [payload, type, message] of cases) {
					const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` };
					if (type) headers["content-type"] = type;
					const res = await fetch(url, { method: "PUT", headers, body: payload });
					expect(res.status, payload.slice(0, 60)).toBe(400);
					expect(((await res.json()) as { error: string }).error, payload.slice(0, 60)).toMatch(message);
				}
				const deep = "[".repeat(100_000) + "]".repeat(100_000);
				const deepRes = await fetch(url, {
					method: "PUT",
					headers: auth(),
					body: `{"config":{"a":${deep}}}`,
				});
				expect(deepRes.status).toBe(400);
				const plain = await fetch(url, {
					method: "PUT",
					headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "text/xml" },
					body: "<a/>",
				});
				expect(plain.status).toBe(415);
				expect((await fetch(url)).status).toBe(404);
			});

			it("refuse bodies over the limit with 413", async () => {
				const big = JSON.stringify({ tags: [], cardData: { text: "x".repeat(1024 * 1024 + 10) } });
				const res = await fetch(`${base}/api/models/acme/too-big`, {
					method: "PUT",
					headers: auth(),
					body: big,
				});
				expect(res.status).toBe(413);
				expect(((await res.json()) as { error: string }).error).toMatch(/larger than/);
			});

			it("refuse an id that differs from a stored one only in case (409)", async () => {
				expect(
					(await fetch(`${base}/api/models/Acme/CaseModel`, { method: "PUT", headers: auth(), body: "{}" }))
						.status,
				).toBe(201);
				const res = await fetch(`${base}/api/models/acme/casemodel`, {
					method: "PUT",
					headers: auth(),
					body: "{}",
				});
				expect(res.status).toBe(409);
				expect(((await (await fetch(`${base}/api/models/acme/CASEMODEL`)).json()) as CompactModel).id).toBe(
					"Acme/CaseModel",
				);
			});

			it("delete a model and its mappings", async () => {
				const url = `${base}/api/models/acme/to-delete`;
				const payload = {
					tags: [],
					inferenceProviderMapping: { groq: { providerId: "x", task: "conversational", status: "live" } },
				};
				expect(
					(await fetch(url, { method: "PUT", headers: auth(), body: JSON.stringify(payload) })).status,
				).toBe(201);
				await fetch(`${url}?expand[]=inferenceProviderMapping`);
				expect((await fetch(url, { method: "DELETE" })).status).toBe(401);
				const deleted = await fetch(url, {
					method: "DELETE",
					headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
				});
				expect(deleted.status).toBe(200);
				expect(await deleted.json()).toEqual({ deleted: "acme/to-delete" });
				expect((await fetch(`${url}?expand[]=inferenceProviderMapping`)).status).toBe(404);
				const mappings = await db.query(
					"SELECT * FROM provider_mappings WHERE repo_type = 'model' AND repo_id = $1",
					["acme/to-delete"],
				);
				expect(mappings.rows).toHaveLength(0);
				const again = await fetch(url, {
					method: "DELETE",
					headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
				});
				expect(again.status).toBe(404);
			});
		});

		describe("imports", () => {
			const record = (id: string, extra: Record<string, unknown> = {}) => ({ id, tags: ["x"], ...extra });

			it("validate every record before writing anything", async () => {
				const list = [
					record("import-a/one"),
					record("import-a/two"),
					{ id: "import-a/three", downloads: "many" },
					record("import-a/four"),
				];
				expect(() => parseModelList(list)).toThrow(ModelInputError);
				expect(() => parseModelList(list)).toThrow(/record 2/);
				expect(() => parseModelList([record("dup/a"), record("DUP/A")])).toThrow(/same id/);
			});

			it("write all records or none: a failure in the middle changes nothing", async () => {
				await saveModels(
					db,
					hub.storage,
					parseModelList([
						record("Import-B/existing", { downloads: 5 }),
						record("import-b/other", { downloads: 5 }),
					]),
				);
				const list = parseModelList([
					record("import-b/first", { downloads: 1 }),
					record("import-b/other", {
						downloads: 999,
						inferenceProviderMapping: { groq: { providerId: "x", task: "conversational", status: "live" } },
					}),
					// Valid on its own, but its id collides (in case only) with a stored model: the database refuses it.
					record("import-b/EXISTING"),
					record("import-b/last"),
				]);
				await expect(saveModels(db, hub.storage, list)).rejects.toThrow(/letter case/);
				const rows = await db.query<{ id: string; downloads: number }>(
					"SELECT id, downloads FROM repos WHERE type = 'model' AND lower(namespace) = 'import-b' ORDER BY id",
				);
				expect(rows.rows.map((r) => [r.id, Number(r.downloads)])).toEqual([
					["Import-B/existing", 5],
					["import-b/other", 5],
				]);
				const mappings = await db.query(
					"SELECT * FROM provider_mappings WHERE repo_type = 'model' AND repo_id = 'import-b/other'",
				);
				expect(mappings.rows).toHaveLength(0);
			});

			it("accept the public hub's JSON: one model or a list, with unknown fields ignored", async () => {
				const single = parseModelList({
					_id: "621ffdc036468d709f174338",
					id: "import-c/single",
					modelId: "import-c/single",
					sha: "0123456789abcdef",
					siblings: [{ rfilename: "config.json" }],
					createdAt: "2022-03-02T23:29:04.000Z",
					pipeline_tag: "fill-mask",
					mask_token: "[MASK]",
					tags: ["transformers"],
				});
				expect(single).toHaveLength(1);
				await saveModels(db, hub.storage, single);
				const model = (await (await fetch(`${base}/api/models/import-c/single`)).json()) as Record<
					string,
					unknown
				>;
				expect(model._id).toBe("621ffdc036468d709f174338");
				expect(model.mask_token).toBe("[MASK]");
				// The record's own sha is ignored: the hub's is the commit it wrote.
				expect(model.sha).toMatch(/^[0-9a-f]{40}$/);
				expect(model.sha).not.toBe("0123456789abcdef");
			});
		});

		describe("web and security", () => {
			it("sets the security headers on every kind of response", async () => {
				const paths = [
					"/api/models/openai/whisper-large-v3",
					"/api/nothing",
					"/",
					"/assets/demo/input.wav",
					"/healthz",
				];
				for (const path of paths) {
					const res = await fetch(`${base}${path}`);
					await res.arrayBuffer();
					expect(res.headers.get("content-security-policy"), path).toBe(CONTENT_SECURITY_POLICY);
					expect(res.headers.get("content-security-policy"), path).not.toMatch(/unsafe-inline|unsafe-eval/);
					expect(res.headers.get("content-security-policy"), path).toMatch(/frame-ancestors 'none'/);
					expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
					expect(res.headers.get("referrer-policy"), path).toBeTruthy();
					expect(res.headers.get("x-powered-by"), path).toBeNull();
				}
			});

			it("serves the demo media of @modelhub/tasks", async () => {
				const wav = await fetch(`${base}/assets/demo/input.wav`);
				expect(wav.status).toBe(200);
				expect(wav.headers.get("content-type")).toMatch(/audio\/(x-)?wav/);
				const bytes = Buffer.from(await wav.arrayBuffer());
				expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF");
				const svg = await fetch(`${base}/assets/demo/elephant.svg`);
				expect(svg.status).toBe(200);
				expect(svg.headers.get("content-type")).toMatch(/image\/svg\+xml/);
				expect((await fetch(`${base}/assets/demo/missing.svg`)).status).toBe(404);
			});

			it("shows a script-free notice when the web app is not built", async () => {
				const res = await fetch(`${base}/`, { headers: { accept: "text/html" } });
				expect(res.status).toBe(200);
				expect(res.headers.get("content-type")).toMatch(/text\/html/);
				const html = await res.text();
				expect(html).toMatch(/not built/);
				expect(html).not.toMatch(/<script|<style|style=/i);
				// The notice keeps the page's true status: 404 for an address with no model behind it.
				const deep = await fetch(`${base}/models/some/page`, { headers: { accept: "text/html" } });
				expect(deep.status).toBe(404);
				expect(await deep.text()).toMatch(/not built/);
				const known = await fetch(`${base}/tasks`, { headers: { accept: "text/html" } });
				expect(known.status).toBe(200);
			});

			it("serves a built web app with a single-page-app fallback", async () => {
				const dir = mkdtempSync(join(tmpdir(), "modelhub-web-"));
				tempDirs.push(dir);
				mkdirSync(join(dir, "assets"));
				writeFileSync(
					join(dir, "index.html"),
					'<!doctype html><script type="module" src="/assets/app.js"></script>',
				);
				writeFileSync(join(dir, "assets", "app.js"), "console.log('app');");
				writeFileSync(join(dir, ".env"), "SECRET=1");
				const web = await startHub({ db, seed: false, webDir: dir });
				try {
					const root = await fetch(`${web.url}/`, { headers: { accept: "text/html" } });
					expect(root.status).toBe(200);
					expect(await root.text()).toContain("/assets/app.js");
					const asset = await fetch(`${web.url}/assets/app.js`);
					expect(asset.status).toBe(200);
					expect(asset.headers.get("content-type")).toMatch(/javascript/);
					const spa = await fetch(`${web.url}/meta-llama/Llama-3.1-8B-Instruct`, {
						headers: { accept: "text/html,*/*" },
					});
					expect(spa.status).toBe(200);
					expect(await spa.text()).toContain("/assets/app.js");
					expect(spa.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
					const notHtml = await fetch(`${web.url}/models/x`, { headers: { accept: "application/json" } });
					expect(notHtml.status).toBe(404);
					const api = await fetch(`${web.url}/api/unknown`, { headers: { accept: "text/html" } });
					expect(api.status).toBe(404);
					expect(api.headers.get("content-type")).toMatch(/json/);
					const dot = await rawRequest(web.url, { path: "/.env" });
					expect(dot.body).not.toContain("SECRET");
					// Bodies are read to the end: a response still being sent keeps its connection (and close()) waiting.
					const demo = await fetch(`${web.url}/assets/demo/input.wav`);
					expect(demo.status).toBe(200);
					expect((await demo.arrayBuffer()).byteLength).toBeGreaterThan(44);
					const model = await fetch(`${web.url}/api/models/openai/whisper-large-v3`);
					expect(model.status).toBe(200);
					await model.text();
				} finally {
					await web.close();
				}
			});

			it("answers each page's status and writes its title and description into the page", async () => {
				const dir = mkdtempSync(join(tmpdir(), "modelhub-web-"));
				tempDirs.push(dir);
				writeFileSync(
					join(dir, "index.html"),
					'<!doctype html><html><head><meta name="description" content="built" />' +
						'<title>ModelHub</title><script type="module" src="/assets/app.js"></script></head>' +
						'<body><div id="root"></div></body></html>',
				);
				const web = await startHub({ db, seed: false, webDir: dir });
				const page = async (path: string) => {
					const res = await fetch(`${web.url}${path}`, { headers: { accept: "text/html" } });
					const html = await res.text();
					return {
						status: res.status,
						html,
						title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
						description: /<meta name="description" content="([^"]*)"/.exec(html)?.[1],
					};
				};
				try {
					const cases: Array<[string, number, string]> = [
						["/", 200, "ModelHub"],
						["/models", 200, "Models · ModelHub"],
						["/tasks", 200, "Tasks · ModelHub"],
						["/libraries", 200, "Libraries · ModelHub"],
						["/settings", 200, "Settings · ModelHub"],
						["/tasks/text-classification", 200, "Text Classification · ModelHub"],
						// A pipeline type without a page that other pages name as canonical lists them.
						["/tasks/text2text-generation", 200, "Text2Text Generation · ModelHub"],
						["/tasks/no-such-task", 404, "Page not found · ModelHub"],
						["/libraries/transformers", 200, "Transformers · ModelHub"],
						["/libraries/no-such-library", 404, "Library not found · ModelHub"],
						["/meta-llama/Llama-3.1-8B-Instruct", 200, "meta-llama/Llama-3.1-8B-Instruct · ModelHub"],
						["/META-LLAMA/llama-3.1-8b-instruct", 200, "meta-llama/Llama-3.1-8B-Instruct · ModelHub"],
						// A namespace without an account (seeded models) has a page; a name with nothing is a 404.
						["/meta-llama", 200, "meta-llama · ModelHub"],
						["/META-LLAMA", 200, "meta-llama · ModelHub"],
						["/gpt2", 404, "Not found · ModelHub"],
						["/nobody/no-such-model", 404, "Model not found · ModelHub"],
						["/a/b/c", 404, "Page not found · ModelHub"],
					];
					for (const [path, status, title] of cases) {
						const got = await page(path);
						expect({ path, status: got.status, title: got.title }).toEqual({ path, status, title });
						// Every answer is the app itself (it renders its own 404 view), with no inline script.
						expect(got.html).toContain('<script type="module" src="/assets/app.js"></script>');
						expect(got.html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
						expect(got.description).toBeTruthy();
					}
					const model = await page("/meta-llama/Llama-3.1-8B-Instruct");
					expect(model.description).toMatch(
						/^meta-llama\/Llama-3\.1-8B-Instruct: Text Generation model for Transformers, license llama3\.1, [\d,]+ downloads/,
					);
					const task = await page("/tasks/text-classification");
					expect(task.description).toBe(TASKS_DATA["text-classification"]?.summary);
					// Text from the address is escaped, never markup.
					const hostile = await page("/%3Cscript%3Ealert(1)%3C%2Fscript%3E");
					expect(hostile.status).toBe(404);
					expect(hostile.html).not.toContain("<script>alert");
					expect(hostile.description).toContain("&#60;script&#62;");
					const head = await fetch(`${web.url}/nobody/no-such-model`, {
						method: "HEAD",
						headers: { accept: "text/html" },
					});
					expect(head.status).toBe(404);
				} finally {
					await web.close();
				}
			});

			it("counts the models a listing's filters match", async () => {
				for (const query of [
					"",
					"pipeline_tag=text-generation",
					"author=meta-llama",
					"inference_provider=groq",
					"filter=license:apache-2.0",
					"search=llama%203",
					"library=transformers&filter=en",
				]) {
					const res = await fetch(`${base}/api/models-count?${query}`);
					expect(res.status).toBe(200);
					const listed = (await walk(base, `${query}&limit=1000`)).models.length;
					expect(await res.json()).toEqual({ count: listed, exact: true });
				}
				// Counting stops at the cap and says so.
				expect(await countMatchingModels(db, { viewer: ANONYMOUS }, 3)).toEqual({ count: 3, exact: false });
				expect(
					await countMatchingModels(db, { author: "meta-llama", viewer: ANONYMOUS }, 1000),
				).toMatchObject({ exact: true });
				const none = await fetch(`${base}/api/models-count?author=nobody-at-all`);
				expect(await none.json()).toEqual({ count: 0, exact: true });
				const bad = await fetch(`${base}/api/models-count?pipeline_tag=not-a-task`);
				expect(bad.status).toBe(400);
				expect(((await bad.json()) as { error: string }).error).toMatch(/pipeline_tag/);
			});

			it("answers CORS preflights for reads", async () => {
				const res = await fetch(`${base}/api/models/openai/whisper-large-v3`, {
					method: "OPTIONS",
					headers: { origin: "https://example.com", "access-control-request-method": "GET" },
				});
				expect(res.status).toBe(204);
				expect(res.headers.get("access-control-allow-origin")).toBe("*");
				expect(res.headers.get("access-control-allow-methods")).not.toMatch(/PUT|DELETE/);
			});

			it("answers HEAD like GET without a body", async () => {
				const res = await rawRequest(base, { method: "HEAD", path: "/api/models/openai/whisper-large-v3" });
				expect(res.status).toBe(200);
				expect(res.body).toBe("");
			});
		});
	});
}
