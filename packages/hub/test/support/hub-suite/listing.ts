/**
 * The hub suite's checks of the model list: keyset paging, seeding, filters, sorts, parameters, the
 * library and pipeline counts (support/hub-suite.ts runs them on each database).
 */
import { expect, it } from "vitest";
import { ALL_MODEL_LIBRARY_KEYS, MODALITY_LABELS, PIPELINE_DATA, PIPELINE_TYPES } from "@modelhub/tasks";
import { walk, type CompactModel, auth, type HubSuite } from "./context.js";

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

export function defineListingChecks(suite: HubSuite): void {
	it("lists every model exactly once across pages, in a stable keyset order", async () => {
		const combos = [
			"sort=downloads&direction=-1",
			"sort=likes&direction=1",
			"sort=lastModified&direction=-1",
			"sort=id&direction=1",
			"sort=id&direction=-1",
		];
		for (const combo of combos) {
			const { models, pages } = await walk(suite.base, `${combo}&limit=17`);
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
			const again = await walk(suite.base, `${combo}&limit=17`);
			expect(again.models.map((m) => m.id)).toEqual(ids);
		}
	});

	async function totalModels(): Promise<number> {
		const result = await suite.db.query<{ count: number | string }>(
			"SELECT count(*) AS count FROM repos WHERE type = 'model'",
		);
		return Number(result.rows[0]?.count);
	}

	it("seeds the curated models at first start", async () => {
		const { models } = await walk(suite.base, "sort=id&limit=100");
		expect(models.length).toBeGreaterThanOrEqual(suite.seedCount);
		expect(suite.seedCount).toBeGreaterThanOrEqual(220);
	});

	it("keeps paging stable while models are added", async () => {
		const first = await fetch(`${suite.base}/api/models?sort=id&direction=1&limit=50`);
		const firstPage = (await first.json()) as CompactModel[];
		const cursor = first.headers.get("x-next-cursor") as string;
		// A model sorting before the cursor position appears on no later page; nothing repeats.
		const put = await fetch(`${suite.base}/api/models/0aaa/paging-probe`, {
			method: "PUT",
			headers: auth(),
			body: JSON.stringify({ tags: [] }),
		});
		expect(put.status).toBe(201);
		const { models: rest } = await walk(suite.base, `sort=id&direction=1&limit=50&cursor=${cursor}`);
		const seen = new Set(firstPage.map((m) => m.id));
		for (const model of rest) {
			expect(seen.has(model.id)).toBe(false);
			seen.add(model.id);
		}
		expect(seen.has("0aaa/paging-probe")).toBe(false);
		await fetch(`${suite.base}/api/models/0aaa/paging-probe`, { method: "DELETE", headers: auth() });
	});

	it("filters by pipeline tag, library, author and search", async () => {
		const t2i = (await walk(suite.base, "pipeline_tag=text-to-image&limit=100")).models;
		expect(t2i.length).toBeGreaterThan(5);
		expect(t2i.every((m) => m.pipeline_tag === "text-to-image")).toBe(true);

		const diffusers = (await walk(suite.base, "library=diffusers&limit=100")).models;
		expect(diffusers.length).toBeGreaterThan(5);
		expect(diffusers.every((m) => m.library_name === "diffusers")).toBe(true);

		const meta = (await walk(suite.base, "author=META-LLAMA&limit=100")).models;
		expect(meta.length).toBeGreaterThan(3);
		expect(meta.every((m) => m.author === "meta-llama")).toBe(true);

		const whisper = (await walk(suite.base, "search=WHISPER&limit=5")).models;
		expect(whisper.length).toBeGreaterThan(2);
		expect(whisper.every((m) => m.id.toLowerCase().includes("whisper"))).toBe(true);

		const both = (
			await walk(suite.base, "search=whisper&library=transformers&pipeline_tag=automatic-speech-recognition")
		).models;
		expect(both.length).toBeGreaterThan(0);
		expect(both.every((m) => m.library_name === "transformers" && m.id.includes("whisper"))).toBe(true);

		// LIKE wildcards are literal text in a search.
		for (const search of ["%", "_", "\\", "%25"]) {
			const res = await fetch(`${suite.base}/api/models?search=${encodeURIComponent(search)}`);
			expect(res.status).toBe(200);
			const page = (await res.json()) as CompactModel[];
			expect(page.every((m) => m.id.includes(search))).toBe(true);
		}
		// Empty filters mean "no filter".
		expect((await fetch(`${suite.base}/api/models?search=&pipeline_tag=&limit=3`)).status).toBe(200);
	});

	it("sorts by downloads by default and honours limit", async () => {
		const res = await fetch(`${suite.base}/api/models?limit=5`);
		const page = (await res.json()) as CompactModel[];
		expect(page).toHaveLength(5);
		const downloads = page.map((m) => m.downloads);
		expect([...downloads].sort((a, b) => b - a)).toEqual(downloads);
		expect(page[0]).not.toHaveProperty("config");
		const expanded = (await (
			await fetch(`${suite.base}/api/models?limit=2&expand[]=inferenceProviderMapping&expand[]=config`)
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
			const res = await fetch(`${suite.base}/api/models?${query}`);
			expect(res.status, query).toBe(400);
			const body = (await res.json()) as { error: string };
			expect(body.error, query).toMatch(message);
		}
		const modelCase = await fetch(`${suite.base}/api/models/openai/whisper-large-v3?expand[]=nope`);
		expect(modelCase.status).toBe(400);
		expect(((await modelCase.json()) as { error: string }).error).toMatch(/expand/);
	});

	it("ignores parameters it does not know, as real clients send some", async () => {
		const plain = await (await fetch(`${suite.base}/api/models?limit=5`)).text();
		expect(
			await (await fetch(`${suite.base}/api/models?limit=5&colour=blue&emissions_thresholds=1`)).text(),
		).toBe(plain);
		expect((await fetch(`${suite.base}/api/models/openai/whisper-large-v3?foo=1`)).status).toBe(200);
		expect((await fetch(`${suite.base}/api/tasks?x=1`)).status).toBe(200);
		expect((await fetch(`${suite.base}/api/libraries?x=1`)).status).toBe(200);
	});

	it("caps limit at 1000 per page and pages on with Link", async () => {
		const res = await fetch(`${suite.base}/api/models?limit=99999999999999999999&sort=id&direction=1`);
		expect(res.status).toBe(200);
		const page = (await res.json()) as CompactModel[];
		expect(page.length).toBe(Math.min(1000, await totalModels()));
	});

	it("refuses a cursor made for another sort order", async () => {
		const res = await fetch(`${suite.base}/api/models?sort=likes&limit=2`);
		const cursor = res.headers.get("x-next-cursor") as string;
		const other = await fetch(`${suite.base}/api/models?sort=downloads&limit=2&cursor=${cursor}`);
		expect(other.status).toBe(400);
		expect(((await other.json()) as { error: string }).error).toMatch(/cursor/);
	});

	it("describes libraries with model counts", async () => {
		const libraries = (await (await fetch(`${suite.base}/api/libraries`)).json()) as Array<
			Record<string, unknown>
		>;
		expect(libraries.map((l) => l.key)).toEqual(ALL_MODEL_LIBRARY_KEYS);
		const diffusers = libraries.find((l) => l.key === "diffusers") as Record<string, unknown>;
		expect(diffusers).toMatchObject({
			prettyLabel: expect.any(String),
			repoUrl: expect.any(String),
			hasSnippets: true,
		});
		const listed = (await walk(suite.base, "library=diffusers&limit=100")).models.length;
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
		const pipelines = (await (await fetch(`${suite.base}/api/pipelines`)).json()) as Array<
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
		const listed = (await walk(suite.base, "pipeline_tag=automatic-speech-recognition&limit=100")).models
			.length;
		expect(asr.modelCount).toBe(listed);
	});
}
