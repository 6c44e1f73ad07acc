import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/types.js";
import { parseModelList, type ModelRecord } from "../../src/models/input.js";
import { listFiles } from "../../src/repos/read.js";
import { saveModels } from "../../src/services/import.js";
import { loadSeedModels } from "../../src/seed.js";
import type { BlobStore } from "../../src/storage/types.js";
import { startHub, type RunningHub } from "./hub.js";
import { HUB_GENERATIONS, type HubGeneration, pythonEnv } from "../../../../test-support/python-env.js";
import { runHubClient } from "./python.js";

/** The model with files of its own that the client reads (two commits, folders, LFS files). */
export const FILES_REPO = "acme/files-test";
export const BULK_AUTHOR = "bulk-org";
export const BULK_COUNT = 1300;
export const BARE_ID = "gpt2";
export const BIG_TREE_REPO = "acme/many-files";
export const BIG_TREE_FILES = 1100;

/** Deterministic pseudo-random bytes (the "weights"). */
export function bytes(size: number, seed: number): Buffer {
	const out = Buffer.alloc(Math.ceil(size / 4) * 4);
	let state = seed >>> 0;
	for (let i = 0; i < out.length; i += 4) {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		out.writeUInt32LE(state, i);
	}
	return out.subarray(0, size);
}

export function sha256(data: Buffer | string): string {
	return createHash("sha256").update(data).digest("hex");
}

export interface Fixture {
	dir: string;
	/** The final content of each file of FILES_REPO. */
	files: Record<string, Buffer>;
	firstCommitFiles: string[];
}

/** Writes FILES_REPO's files to `dir` and returns records for its two imports (first, then second). */
export function filesFixture(dir: string): { fixture: Fixture; first: ModelRecord[]; second: ModelRecord[] } {
	const files: Record<string, Buffer> = {
		".gitattributes": Buffer.from(
			"*.safetensors filter=lfs diff=lfs merge=lfs -text\n*.bin filter=lfs diff=lfs merge=lfs -text\n",
		),
		"README.md": Buffer.from(
			"---\nlicense: apache-2.0\nlanguage:\n- en\n---\n\n# Files test\n\nSecond version.\n",
		),
		"config.json": Buffer.from(
			`${JSON.stringify({ architectures: ["TinyModel"], hidden_size: 8 }, null, 2)}\n`,
		),
		"weights/model.safetensors": bytes(3 * 1024 * 1024 + 17, 7),
		"weights/extra.bin": bytes(4096, 9),
		"notes/deep/notes.txt": Buffer.from("deep notes ✓\n"),
		"empty.txt": Buffer.alloc(0),
	};
	const firstReadme = Buffer.from("---\nlicense: apache-2.0\n---\n\n# Files test\n\nFirst version.\n");
	mkdirSync(join(dir, "v1"), { recursive: true });
	mkdirSync(join(dir, "v2"), { recursive: true });
	const firstCommitFiles = [
		".gitattributes",
		"README.md",
		"config.json",
		"weights/model.safetensors",
		"weights/extra.bin",
	];
	const map1: Record<string, string> = {};
	const map2: Record<string, string> = {};
	for (const [path, content] of Object.entries(files)) {
		const name = path.replace(/\//g, "__");
		writeFileSync(join(dir, "v2", name), content);
		map2[path] = join(dir, "v2", name);
		if (firstCommitFiles.includes(path)) {
			writeFileSync(join(dir, "v1", name), path === "README.md" ? firstReadme : content);
			map1[path] = join(dir, "v1", name);
		}
	}
	const record = (map: Record<string, string>, lastModified: string) => ({
		id: FILES_REPO,
		pipeline_tag: "text-classification",
		library_name: "transformers",
		tags: ["transformers", "safetensors"],
		cardData: { license: "apache-2.0" },
		downloads: 3,
		lastModified,
		files: map,
	});
	return {
		fixture: { dir, files, firstCommitFiles },
		first: parseModelList([record(map1, "2024-01-01T00:00:00.000Z")]),
		second: parseModelList([record(map2, "2024-02-01T00:00:00.000Z")]),
	};
}

/** Imports what the client scenarios read: bulk models, the files repo (two commits), a bare id, a big tree. */
export async function loadClientFixtures(
	db: Database,
	storage: BlobStore,
	dir: string,
	options: { listings?: boolean } = {},
): Promise<Fixture> {
	const { fixture, first, second } = filesFixture(join(dir, "files"));
	await saveModels(db, storage, first);
	await saveModels(db, storage, second);
	if (options.listings === false) return fixture;
	const bulk = parseModelList(
		Array.from({ length: BULK_COUNT }, (_, index) => ({
			id: `${BULK_AUTHOR}/bulk-${String(index).padStart(5, "0")}`,
			pipeline_tag: "text-generation",
			tags: ["bulk"],
			downloads: (index * 7919) % 100_000,
			likes: index % 50,
			// Mostly 0, so trending ties across pages (issue 22: ties were listed by id Z to A).
			trendingScore: index % 250 === 3 ? 1 + Math.floor(index / 500) : 0,
			lastModified: new Date(Date.UTC(2023, 0, 1) + index * 3_600_000).toISOString(),
		})),
	);
	await saveModels(db, storage, bulk, { generateFiles: false });
	await saveModels(
		db,
		storage,
		parseModelList([
			{
				id: BARE_ID,
				pipeline_tag: "text-generation",
				library_name: "transformers",
				tags: ["gpt2"],
				config: { architectures: ["GPT2LMHeadModel"], model_type: "gpt2" },
				downloads: 10,
			},
		]),
	);
	const bigDir = join(dir, "big");
	mkdirSync(bigDir, { recursive: true });
	const bigFiles: Record<string, string> = {};
	for (let index = 0; index < BIG_TREE_FILES; index++) {
		const path = join(bigDir, `f${index}.txt`);
		writeFileSync(path, `file ${index}\n`);
		bigFiles[`shard-${index % 3}/f${String(index).padStart(4, "0")}.txt`] = path;
	}
	await saveModels(db, storage, parseModelList([{ id: BIG_TREE_REPO, tags: [], files: bigFiles }]));
	return fixture;
}

interface Summary {
	id: string;
	author: string | null;
	sha: string | null;
	pipeline_tag: string | null;
	library_name: string | null;
	tags: string[] | null;
	downloads: number | null;
	likes: number | null;
	trending_score: number | null;
	created_at: string | null;
	last_modified: string | null;
	gated: boolean | null;
	disabled: boolean | null;
	inference: string | null;
	siblings: Array<{
		rfilename: string;
		size: number | null;
		blob_id: string | null;
		lfs: Record<string, unknown> | null;
	}> | null;
	card_data: Record<string, unknown> | null;
	config: Record<string, unknown> | null;
	transformers_info: Record<string, unknown> | null;
	safetensors_total: number | null;
	gguf_total: number | null;
	mapping: Array<{ provider: string; provider_id: string; status: string; task: string }> | null;
	spaces: unknown;
	used_storage: number | null;
	security_repo_status: unknown;
}

interface Entry {
	type: "file" | "directory";
	path: string;
	size?: number;
	blob_id?: string;
	tree_id?: string;
	lfs?: { size: number; sha256: string; pointer_size: number } | null;
	last_commit: { oid: string; title?: string; date?: string } | null;
}

function nonIncreasing(values: Array<number | string>): boolean {
	return values.every((value, index) => index === 0 || value <= (values[index - 1] as number | string));
}

/** The main branch's files of a model: path → SHA-256 of the stored bytes. */
export async function mainFiles(db: Database, id: string): Promise<Map<string, string>> {
	const head = await db.query<{ commit_id: string }>(
		"SELECT commit_id FROM refs WHERE repo_type = 'model' AND repo_id = $1 AND kind = 'branch' AND name = 'main'",
		[id],
	);
	const commitId = head.rows[0]?.commit_id;
	const files = commitId === undefined ? [] : await listFiles(db, { type: "model", id }, commitId);
	return new Map(files.map((file) => [file.path, file.sha256]));
}

export const CLIENT_PARAMS = {
	bulk_author: BULK_AUTHOR,
	files_repo: FILES_REPO,
	bare_id: BARE_ID,
	big_tree_repo: BIG_TREE_REPO,
};

/** What the `download` group must have seen: every file byte-identical to the stored one. */
export async function expectDownloads(
	db: Database,
	fixture: Fixture,
	out: Record<string, unknown>,
): Promise<void> {
	const stored = await mainFiles(db, FILES_REPO);
	expect((out.readme as { sha256: string }).sha256).toBe(stored.get("README.md"));
	expect(out.weights).toEqual({
		sha256: sha256(fixture.files["weights/model.safetensors"]!),
		size: fixture.files["weights/model.safetensors"]!.length,
	});
	const seed = (await loadSeedModels()).find((m) => m.id === "meta-llama/Llama-3.1-8B-Instruct")!;
	const { tokenizer_config: tokenizerConfig, ...config } = seed.config!;
	expect(out.seed_config).toEqual(config);
	expect(out.seed_tokenizer_config).toEqual(tokenizerConfig);
	expect(out.pinned).toEqual({
		sha256: sha256(fixture.files["notes/deep/notes.txt"]!),
		in_snapshot_of: true,
	});
	expect(out.missing_file).toBe("RemoteEntryNotFoundError");
	expect(out.missing_repo).toBe("RepositoryNotFoundError");
	expect(out.missing_revision).toBe("RevisionNotFoundError");
	const expected = Object.fromEntries(
		Object.entries(fixture.files).map(([path, content]) => [path, sha256(content)]),
	);
	expect(out.snapshot).toEqual(expected);
	expect(out.local_dir).toEqual(expected);
	expect(out.seed_snapshot).toEqual([".gitattributes", "README.md", "config.json", "tokenizer_config.json"]);
	expect(out.cached_again).toBe(true);
}

/**
 * The real huggingface_hub against the hub, over real HTTP, once per database kind and per client
 * generation (2.x and 1.x, see test-support/python-env.ts): listing with every parameter it sends, model
 * info, existence checks, trees, paths-info, refs, downloads and snapshots (byte-identical), one Python
 * process per group of calls.
 */
export function defineHfClientSuite(
	label: string,
	openDb: () => Promise<Database>,
	generations: readonly HubGeneration[] = HUB_GENERATIONS,
): void {
	for (const generation of generations) defineHfClientSuiteFor(label, openDb, generation);
}

function defineHfClientSuiteFor(
	label: string,
	openDb: () => Promise<Database>,
	generation: HubGeneration,
): void {
	const client = (group: string, hubUrl: string, workDir: string, params: Record<string, unknown>) =>
		runHubClient<Record<string, unknown>>(group, hubUrl, workDir, params, {}, "hf_hub_client.py", generation);
	describe(`huggingface_hub (${generation} environment) against the hub over ${label}`, () => {
		let db: Database;
		let hub: RunningHub;
		let dir: string;
		let fixture: Fixture;
		let params: Record<string, unknown>;

		beforeAll(async () => {
			dir = mkdtempSync(join(tmpdir(), "modelhub-hf-client-"));
			db = await openDb();
			hub = await startHub({ db, logLevel: "warn" });
			fixture = await loadClientFixtures(db, hub.storage, dir);
			params = {
				bulk_author: BULK_AUTHOR,
				files_repo: FILES_REPO,
				bare_id: BARE_ID,
				big_tree_repo: BIG_TREE_REPO,
			};
		}, 180_000);

		afterAll(async () => {
			await hub?.close();
			await db?.close();
			if (dir) rmSync(dir, { recursive: true, force: true });
		});

		async function count(where: string, values: unknown[] = []): Promise<number> {
			const result = await db.query<{ count: number | string }>(
				`SELECT count(*) AS count FROM repos m WHERE m.type = 'model' AND ${where}`,
				values,
			);
			return Number(result.rows[0]?.count);
		}

		it("lists models with every parameter list_models sends", async () => {
			const out = await client("list", hub.url, join(dir, "list"), params);
			expect(out._version).toBe(pythonEnv(generation).versions["huggingface-hub"]);
			const limit500 = out.limit_500 as Summary[];
			expect(limit500).toHaveLength(500);
			expect(new Set(limit500.map((m) => m.id)).size).toBe(500);
			expect(nonIncreasing(limit500.map((m) => m.downloads as number))).toBe(true);

			// Paging: 1300 bulk models come in pages of at most 1000, followed through Link.
			expect(out.limit_1200_by_id as string[]).toHaveLength(1200);
			const all = out.bulk_all as string[];
			expect(all).toHaveLength(BULK_COUNT);
			expect(new Set(all).size).toBe(BULK_COUNT);

			const filtered = out.filter as Summary[];
			expect(filtered.length).toBe(
				await count("m.filter_tags @> $1::text[]", [["text-generation", "transformers", "conversational"]]),
			);
			expect(filtered.length).toBeGreaterThan(5);
			for (const model of filtered) {
				expect(model.pipeline_tag).toBe("text-generation");
				expect(model.library_name).toBe("transformers");
				expect(model.tags).toContain("conversational");
			}
			expect(out.filter_tag_only as string[]).toContain("meta-llama/Llama-3.1-8B-Instruct");

			const search = out.search as string[];
			expect(search).toContain("meta-llama/Llama-3.3-70B-Instruct");
			for (const id of search) expect(id.toLowerCase()).toMatch(/llama.*3\.3|3\.3.*llama/);

			const author = out.author as Summary[];
			expect(author.length).toBe(await count("lower(m.namespace) = 'meta-llama'"));
			expect(author.every((m) => m.author === "meta-llama")).toBe(true);

			const groq = out.provider_groq as Summary[];
			expect(groq.length).toBeGreaterThan(2);
			for (const model of groq) {
				expect(model.mapping?.find((m) => m.provider === "groq")?.status).toBe("live");
			}
			const live =
				"EXISTS (SELECT 1 FROM provider_mappings p WHERE p.repo_type = m.type AND p.repo_id = m.id AND p.status = 'live'";
			expect((out.provider_all as string[]).length).toBe(await count(`${live})`));
			expect((out.provider_two as string[]).length).toBe(
				await count(`${live} AND p.provider IN ('groq', 'cerebras'))`),
			);

			const sorts = out.sorts as Record<string, Summary[]>;
			expect(nonIncreasing(sorts.downloads!.map((m) => m.downloads as number))).toBe(true);
			expect(nonIncreasing(sorts.likes!.map((m) => m.likes as number))).toBe(true);
			expect(nonIncreasing(sorts.created_at!.map((m) => m.created_at as string))).toBe(true);
			expect(nonIncreasing(sorts.last_modified!.map((m) => m.last_modified as string))).toBe(true);
			expect(nonIncreasing(sorts.trending_score!.map((m) => m.trending_score as number))).toBe(true);
			for (const [sort, models] of Object.entries(sorts)) expect(models, sort).toHaveLength(40);

			// Trending ties go by id A to Z, across list_models' pages of 1000 (issue 22): the order the
			// database gives for (score descending, id ascending), every bulk model once.
			const trending = out.bulk_trending as string[];
			const expected = await db.query<{ id: string }>(
				`SELECT id FROM repos WHERE type = 'model' AND namespace = $1 ORDER BY trending_score DESC, id COLLATE "C"`,
				[BULK_AUTHOR],
			);
			expect(trending).toEqual(expected.rows.map((row) => row.id));
			expect(trending.slice(0, 6)).toEqual(
				[1003, 1253, 503, 753, 3, 253].map((n) => `${BULK_AUTHOR}/bulk-${String(n).padStart(5, "0")}`),
			);
			// The API's ascending direction is the exact reverse, over pages of 400 followed through Link.
			const ascending: string[] = [];
			let next: string | undefined =
				`${hub.url}/api/models?author=${BULK_AUTHOR}&sort=trendingScore&direction=1&limit=400`;
			while (next) {
				const response: Response = await fetch(next);
				expect(response.status).toBe(200);
				ascending.push(...((await response.json()) as { id: string }[]).map((model) => model.id));
				next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
			}
			expect(ascending).toEqual([...trending].reverse());

			for (const model of out.full as Summary[]) {
				expect(model.sha).toMatch(/^[0-9a-f]{40}$/);
				expect(model.siblings?.map((s) => s.rfilename)).toContain("README.md");
				expect(model.gated).toBe(false);
			}
			expect((out.card_data as Summary[]).every((m) => m.card_data !== null)).toBe(true);
			expect((out.fetch_config as Summary[]).some((m) => m.config !== null)).toBe(true);

			const expanded = out.expand_all as Summary[];
			expect(expanded).toHaveLength(3);
			for (const model of expanded) {
				expect(model.sha).toMatch(/^[0-9a-f]{40}$/);
				expect(model.siblings?.length).toBeGreaterThan(0);
				expect(model.created_at).not.toBeNull();
				expect(model.gated).toBe(false);
				expect(model.disabled).toBe(false);
				expect(Array.isArray(model.mapping)).toBe(true);
				expect(model.used_storage).toBeGreaterThan(0);
				// Data the hub does not have is absent, not an error.
				expect(model.spaces).toBeNull();
			}
			const sized = out.num_parameters as Summary[];
			expect(sized.map((m) => m.id)).toContain("meta-llama/Llama-3.1-8B-Instruct");
			for (const model of sized) {
				const total = model.safetensors_total ?? model.gguf_total;
				expect(total, model.id).toBeGreaterThanOrEqual(6e9);
				expect(total, model.id).toBeLessThanOrEqual(1e10);
			}
			expect(out.gated_true).toEqual([]);
		}, 180_000);

		it("answers model_info, existence checks, refs and model cards", async () => {
			const out = await client("info", hub.url, join(dir, "info"), params);
			const info = out.info as Summary;
			expect(info.sha).toMatch(/^[0-9a-f]{40}$/);
			expect(info.siblings?.map((s) => s.rfilename).sort()).toEqual([
				".gitattributes",
				"README.md",
				"config.json",
				"tokenizer_config.json",
			]);
			expect(info.card_data).toMatchObject({ license: "llama3.1", base_model: "meta-llama/Llama-3.1-8B" });
			expect(info.transformers_info).toMatchObject({ auto_model: "AutoModelForCausalLM" });
			expect(info.safetensors_total).toBe(8030261248);
			expect((out.info_main as Summary).sha).toBe(info.sha);
			expect((out.info_commit as Summary).sha).toBe(info.sha);

			const stored = await mainFiles(db, FILES_REPO);
			const withBlobs = out.files_metadata as Summary;
			const weights = withBlobs.siblings?.find((s) => s.rfilename === "weights/model.safetensors");
			expect(weights?.size).toBe(fixture.files["weights/model.safetensors"]!.length);
			expect(weights?.lfs).toEqual({
				size: fixture.files["weights/model.safetensors"]!.length,
				sha256: stored.get("weights/model.safetensors"),
				pointer_size: expect.any(Number),
			});
			const readme = withBlobs.siblings?.find((s) => s.rfilename === "README.md");
			expect(readme?.lfs).toBeNull();
			expect(readme?.blob_id).toMatch(/^[0-9a-f]{40}$/);
			expect((out.security as Summary).security_repo_status).toEqual({
				scansDone: false,
				filesWithIssues: [],
			});
			const mapping = (out.expand_mapping as Summary).mapping ?? [];
			expect(mapping.map((m) => m.provider)).toContain("groq");

			const bare = out.bare_id as Summary;
			expect(bare.id).toBe(BARE_ID);
			expect(bare.author).toBeNull();
			expect(bare.siblings?.map((s) => s.rfilename)).toContain("config.json");

			expect(out.missing_repo).toBe("RepositoryNotFoundError");
			expect(out.missing_revision).toBe("RevisionNotFoundError");
			expect(out.repo_exists).toBe(true);
			expect(out.repo_exists_bare).toBe(true);
			expect(out.repo_missing).toBe(false);
			expect(out.revision_exists).toBe(true);
			expect(out.revision_missing).toBe(false);
			expect(out.file_exists).toBe(true);
			expect(out.file_missing).toBe(false);
			const sha = (
				await db.query<{ commit_id: string }>(
					"SELECT commit_id FROM refs WHERE repo_type = 'model' AND repo_id = $1",
					[FILES_REPO],
				)
			).rows[0]?.commit_id;
			expect(out.refs).toEqual({ branches: [["main", "refs/heads/main", sha]], tags: 0 });
			const card = out.card as { data: Record<string, unknown>; text_start: string };
			const seed = (await loadSeedModels()).find((m) => m.id === "meta-llama/Llama-3.1-8B-Instruct");
			expect(card.data).toEqual(seed?.cardData);
			expect(card.text_start).toMatch(/^\s*# Llama-3\.1-8B-Instruct\n/);
		}, 180_000);

		it("lists trees and paths with git ids, LFS details, folders, paging and last commits", async () => {
			const out = await client("files", hub.url, join(dir, "files"), params);
			const stored = await mainFiles(db, FILES_REPO);
			expect([...(out.files as string[])].sort()).toEqual([...stored.keys()].sort());
			expect(out.files_seed as string[]).toContain("README.md");

			const root = out.tree_root as Entry[];
			expect(root.map((e) => `${e.type}:${e.path}`).sort()).toEqual([
				"directory:notes",
				"directory:weights",
				"file:.gitattributes",
				"file:README.md",
				"file:config.json",
				"file:empty.txt",
			]);
			const recursive = out.tree_recursive as Entry[];
			expect(
				recursive
					.filter((e) => e.type === "file")
					.map((e) => e.path)
					.sort(),
			).toEqual([...stored.keys()].sort());
			expect(
				recursive
					.filter((e) => e.type === "directory")
					.map((e) => e.path)
					.sort(),
			).toEqual(["notes", "notes/deep", "weights"]);
			for (const entry of recursive.filter((e) => e.type === "file")) {
				expect(entry.size).toBe(fixture.files[entry.path]!.length);
			}
			const safetensors = recursive.find((e) => e.path === "weights/model.safetensors");
			expect(safetensors?.lfs?.sha256).toBe(sha256(fixture.files["weights/model.safetensors"]!));
			expect((out.tree_sub as Entry[]).map((e) => e.path).sort()).toEqual([
				"weights/extra.bin",
				"weights/model.safetensors",
			]);

			// lastCommit: the README changed in the second commit, the weights did not.
			const expanded = out.tree_expand as Entry[];
			const commits = await db.query<{ id: string; parent_id: string | null }>(
				"SELECT id, parent_id FROM commits WHERE repo_type = 'model' AND repo_id = $1 ORDER BY created_at",
				[FILES_REPO],
			);
			const [first, second] = commits.rows;
			expect(second?.parent_id).toBe(first?.id);
			expect(expanded.find((e) => e.path === "README.md")?.last_commit?.oid).toBe(second?.id);
			expect(expanded.find((e) => e.path === "weights/model.safetensors")?.last_commit?.oid).toBe(first?.id);
			expect(expanded.find((e) => e.path === "notes")?.last_commit?.oid).toBe(second?.id);
			expect(expanded.find((e) => e.path === "weights")?.last_commit?.oid).toBe(first?.id);
			expect(expanded.filter((e) => e.type === "file")).toHaveLength(stored.size);

			expect(out.tree_missing).toBe("RemoteEntryNotFoundError");
			expect(out.tree_big).toBe(BIG_TREE_FILES + 3);
			const paths = out.paths_info as Entry[];
			expect(paths.map((e) => `${e.type}:${e.path}`)).toEqual([
				"file:README.md",
				"directory:weights",
				"file:weights/model.safetensors",
			]);
			expect((out.paths_info_expand as Entry[])[0]?.last_commit?.oid).toBe(second?.id);
		}, 180_000);

		it("downloads files and snapshots byte-identical to what was stored", async () => {
			const out = await client("download", hub.url, join(dir, "download"), params);
			await expectDownloads(db, fixture, out);
		}, 180_000);
	});
}
