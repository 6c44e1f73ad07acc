import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/types.js";
import { bytes, sha256 } from "./hf-client-suite.js";
import { createUser, startHub, type RunningHub } from "./hub.js";
import { runHubClient } from "./python.js";
import { pythonEnv, type HubGeneration } from "../../../../test-support/python-env.js";

const ADMIN = "datasets-admin-token-0123456789abcdef";
const SCRIPT = "hf_hub_datasets.py";

type Attempt<T = unknown> = { ok: T } | { error: string; status: number | null; message: string };

function okOf<T>(attempt: Attempt<T> | unknown): T {
	if (typeof attempt === "object" && attempt !== null && "error" in attempt) {
		throw new Error(`expected success, got ${JSON.stringify(attempt)}`);
	}
	return (attempt as { ok: T }).ok;
}

function errorOf(attempt: unknown): { error: string; status: number | null; message: string } {
	expect(attempt).toHaveProperty("error");
	return attempt as { error: string; status: number | null; message: string };
}

interface Info {
	id: string;
	author: string | null;
	sha: string | null;
	private: boolean | null;
	tags: string[] | null;
	card_data: Record<string, unknown> | null;
	siblings: string[] | null;
	sizes: Record<string, number | null> | null;
	description: string | null;
	citation: string | null;
	used_storage: number | null;
	has_pipeline_tag: boolean;
	downloads: number | null;
}

/**
 * Datasets end to end (issue 23) through the real clients: huggingface_hub 2.0 and 1.33 for the
 * repository API (create, upload, info, listings, trees, refs, commits, downloads, rights), and the
 * `datasets` library (5.0.1, in the hub1 environment: the one with pyarrow and pandas) for push_to_hub
 * and load_dataset.
 */
export function defineDatasetSuite(
	label: string,
	openDb: () => Promise<Database>,
	options: { generations: readonly HubGeneration[]; datasetsLibrary: boolean },
): void {
	describe(`datasets over ${label} through huggingface_hub${options.datasetsLibrary ? " and the datasets library" : ""}`, () => {
		let db: Database;
		let hub: RunningHub;
		let dir: string;
		let large: string;
		const tokens: Record<string, string> = {};

		function client<T = Record<string, unknown>>(
			group: string,
			generation: HubGeneration,
			params: Record<string, unknown>,
			env: Record<string, string> = {},
		): Promise<T> {
			return runHubClient<T>(
				group,
				hub.url,
				join(dir, `${group}-${generation}-${Math.random().toString(36).slice(2)}`),
				params,
				env,
				SCRIPT,
				generation,
			);
		}

		async function api<T>(path: string, token?: string): Promise<{ status: number; body: T }> {
			const response = await fetch(`${hub.url}${path}`, {
				headers: token ? { authorization: `Bearer ${token}` } : {},
			});
			return { status: response.status, body: (await response.json()) as T };
		}

		beforeAll(async () => {
			dir = mkdtempSync(join(tmpdir(), "modelhub-datasets-"));
			// Larger than a regular git file: it goes through LFS or Xet.
			large = join(dir, "blob.parquet");
			writeFileSync(large, bytes(11 * 1024 * 1024 + 5, 23));
			db = await openDb();
			hub = await startHub({ db, seed: false, adminToken: ADMIN });
			for (const name of ["alice", "bob"]) tokens[name] = await createUser(hub.url, ADMIN, name);
			const org = await fetch(`${hub.url}/api/admin/orgs`, {
				method: "POST",
				headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
				body: JSON.stringify({ name: "datalab", members: [{ user: "alice", role: "write" }] }),
			});
			expect(org.status).toBe(201);
		}, 180_000);

		afterAll(async () => {
			await hub?.close();
			await db?.close();
			if (dir) rmSync(dir, { recursive: true, force: true });
		});

		for (const generation of options.generations) {
			// Large files go through Xet with huggingface_hub 2.0 (its default) and through LFS with 1.33.
			const transfer = generation === "hub2" ? "Xet" : "LFS";
			it(`is a repository type of its own through huggingface_hub (${generation}, ${transfer})`, async () => {
				const repo = `alice/reviews-${generation}`;
				const privateRepo = `alice/secret-${generation}`;
				const orgRepo = `datalab/shared-${generation}`;
				const out = await client<Record<string, unknown>>(
					"api",
					generation,
					{
						token: tokens.alice,
						other_token: tokens.bob,
						repo,
						private_repo: privateRepo,
						org_repo: orgRepo,
						org: "datalab",
						search: `reviews-${generation}`,
						large,
					},
					transfer === "LFS" ? { HF_HUB_DISABLE_XET: "1" } : {},
				);
				expect(out._version).toBe(pythonEnv(generation).versions["huggingface-hub"]);
				expect(okOf(out.create)).toBe(`${hub.url}/datasets/${repo}`);
				expect(errorOf(out.create_again).status).toBe(409);
				expect(okOf(out.create_exist_ok)).toBe(`${hub.url}/datasets/${repo}`);
				expect(okOf(out.create_model)).toBe(`${hub.url}/${repo}`);
				expect(okOf(out.create_private)).toBe(`${hub.url}/datasets/${privateRepo}`);
				expect(okOf(out.create_org)).toBe(`${hub.url}/datasets/${orgRepo}`);
				expect(errorOf(out.create_org_denied).status).toBe(403);
				for (const step of ["readme", "files", "model_file", "private_file", "org_file", "dev_file"]) {
					expect(okOf<string>(out[step]), step).toMatch(/^[0-9a-f]{40}$/);
				}
				const info = okOf<Info>(out.info);
				expect(info).toMatchObject({ id: repo, author: "alice", private: false, downloads: 0 });
				expect(info.siblings).toEqual([
					".gitattributes",
					"README.md",
					"data/blob.parquet",
					"data/extra.jsonl",
					"data/train.csv",
				]);
				expect(info.card_data).toMatchObject({ license: "mit", task_categories: ["text-classification"] });
				expect(info.has_pipeline_tag).toBe(false);
				const withSizes = okOf<Info>(out.info_files_metadata);
				expect(withSizes.sizes?.["data/blob.parquet"]).toBe(11 * 1024 * 1024 + 5);
				expect(okOf<Info>(out.info_dev).siblings).toContain("data/dev.csv");
				expect(info.siblings).not.toContain("data/dev.csv");
				// The model of the same id holds only its own files.
				expect(okOf(out.model_info)).toEqual({ id: repo, siblings: [".gitattributes", "config.json"] });
				expect(out.repo_exists).toBe(true);
				expect(out.file_exists).toBe(true);
				expect(out.file_exists_model_side).toBe(false);
				expect(okOf(out.tree)).toEqual([
					[".gitattributes", "RepoFile"],
					["README.md", "RepoFile"],
					["data", "RepoFolder"],
					["data/blob.parquet", "RepoFile"],
					["data/extra.jsonl", "RepoFile"],
					["data/train.csv", "RepoFile"],
				]);
				expect(okOf(out.tree_folder)).toEqual(["data/blob.parquet", "data/extra.jsonl", "data/train.csv"]);
				expect(okOf(out.paths_info)).toEqual([
					["data", null, null],
					["data/blob.parquet", 11 * 1024 * 1024 + 5, true],
					["data/train.csv", 46, false],
				]);
				expect(okOf(out.refs)).toEqual({ branches: ["dev", "main"], tags: ["v1"] });
				expect(okOf<string[]>(out.commits)[0]).toBe("Add data");
				expect(okOf(out.download)).toBe("text,label\ngood film,1\nbad film,0\nfine film,1\n");
				expect(okOf(out.download_parquet)).toBe(sha256(bytes(11 * 1024 * 1024 + 5, 23)));
				expect(okOf(out.download_tag)).not.toContain("data/dev.csv");
				expect(okOf(out.download_dev)).toBe("text,label\nonly on dev,1\n");
				// A private dataset is missing for everyone but its readers, on every route.
				expect(errorOf(out.private_other)).toMatchObject({ error: "RepositoryNotFoundError", status: 404 });
				expect(errorOf(out.private_anonymous)).toMatchObject({
					error: "RepositoryNotFoundError",
					status: 404,
				});
				expect(errorOf(out.private_other_download)).toMatchObject({ status: 404 });
				expect(okOf(out.private_owner)).toBe(true);
				expect(errorOf(out.other_write).status).toBe(403);
				expect(okOf(out.org_info_member)).toBe(orgRepo);
				// Listings: private datasets only for their readers; models never.
				expect(okOf<string[]>(out.list_all)).toEqual(expect.arrayContaining([repo, privateRepo, orgRepo]));
				expect(okOf<string[]>(out.list_all_other)).toContain(repo);
				expect(okOf<string[]>(out.list_all_other)).not.toContain(privateRepo);
				expect(okOf(out.list_search)).toEqual([repo]);
				expect(okOf<string[]>(out.list_author)).toContain(orgRepo);
				expect(okOf<string[]>(out.list_author).every((id) => id.startsWith("datalab/"))).toBe(true);
				expect(okOf<string[]>(out.list_sort)[0]).toBe(orgRepo);
				expect(okOf<string[]>(out.list_limit)).toHaveLength(2);
				const expanded = okOf<Info[]>(out.list_expand);
				expect(expanded).toHaveLength(1);
				expect(expanded[0]?.sha).toMatch(/^[0-9a-f]{40}$/);
				expect(expanded[0]?.card_data).toMatchObject({ license: "mit" });
				expect(okOf<Info[]>(out.list_full)[0]?.siblings).toContain("data/train.csv");
				expect(okOf(out.list_models)).toEqual([repo]);
				expect(okOf(out.public_now)).toBe(privateRepo);
				expect(okOf(out.info_after_model_delete)).toBe(repo);
			}, 240_000);
		}

		for (const generation of options.generations) {
			it(`lists datasets by search, author, filters, sort, expand and pages, as huggingface_hub parses them (${generation})`, async () => {
				await hub.server.analysis.idle();
				// The earlier tests' downloads are written now, not in a batch landing between the full listing
				// and its pages: the default order (trending) would change between them (a CI saw
				// alice/reviews-hub1 move up mid-listing).
				await hub.server.downloads.flush();
				const out = await client<{
					all: Array<{ id: string; tags: string[]; created_at: string }>;
					[list: string]: unknown;
				}>("listings", generation, { token: tokens.alice });
				const ids = out.all.map((dataset) => dataset.id);
				const tagged = (...tags: string[]) =>
					out.all.filter((dataset) => tags.every((tag) => dataset.tags.includes(tag))).map((d) => d.id);
				// The datasets the suite made so far (both generations' when this one runs second).
				expect(ids).toEqual(
					expect.arrayContaining([`alice/reviews-${generation}`, `datalab/shared-${generation}`]),
				);
				expect(out.search).toEqual(ids.filter((id) => id.includes("reviews")));
				expect(out.search_author).toEqual(
					ids.filter((id) => id.startsWith("datalab/") && id.includes("shared")),
				);
				expect(out.author_other).toEqual([]);
				// Filters are tags (ANDed), the card's task and language included, as dataset_info shows them.
				for (const [list, tags] of [
					["filter_csv", ["format:csv"]],
					["filter_and", ["format:csv", "license:mit"]],
					["task", ["task_categories:text-classification"]],
					["language", ["language:en"]],
				] as const) {
					expect(out[list], list).toEqual(tagged(...tags));
				}
				expect(tagged("task_categories:text-classification")).toContain(`alice/reviews-${generation}`);
				expect(tagged("format:csv").length).toBeGreaterThan(0);
				// Newest first.
				const created = new Map(out.all.map((dataset) => [dataset.id, dataset.created_at]));
				const order = (out.sort_created as string[]).map((id) => created.get(id) ?? "");
				expect(order).toEqual([...order].sort().reverse());
				expect(out.sort_created as string[]).toHaveLength(ids.length);
				// Exactly the properties asked for, with the id (and _id, as the public hub always sends it).
				const expanded = out.expand as Array<Record<string, unknown>>;
				expect(expanded.map((dataset) => dataset.id)).toEqual(ids.filter((id) => id.includes("reviews")));
				for (const dataset of expanded) {
					expect(Object.keys(dataset).sort()).toEqual(["_id", "downloads", "id", "likes", "private"]);
					expect(dataset).toMatchObject({
						likes: 0,
						private: false,
						downloads: expect.any(Number) as number,
					});
				}
				// Two a page (more than one page: three datasets at least), the next from the Link header: every
				// dataset once, in the listing's order.
				expect(ids.length).toBeGreaterThan(2);
				expect(out.pages).toEqual(ids);
			}, 240_000);
		}

		it("derives a dataset's tags, description and citation from its card and files", async () => {
			await hub.server.analysis.idle();
			const repo = `alice/reviews-${options.generations[0]}`;
			const { status, body } = await api<Record<string, unknown>>(`/api/datasets/${repo}`, tokens.alice);
			expect(status).toBe(200);
			expect(Object.keys(body)).toEqual([
				"_id",
				"id",
				"author",
				"sha",
				"lastModified",
				"private",
				"gated",
				"disabled",
				"citation",
				"description",
				"downloads",
				"likes",
				"tags",
				"cardData",
				"siblings",
				"createdAt",
				"usedStorage",
			]);
			expect(body.description).toBe("Three short reviews, each labelled positive or negative, for tests.");
			expect(body.citation).toBe("@misc{tiny2026,\n  title={Tiny reviews}\n}");
			// The format of most data files (one CSV, one JSON Lines, one Parquet: a tie goes to Parquet).
			expect(body.tags).toEqual([
				"reviews",
				"task_categories:text-classification",
				"language:en",
				"license:mit",
				"format:parquet",
				"library:datasets",
				"library:pandas",
				"library:polars",
			]);
			const filtered = await api<Array<{ id: string }>>(
				"/api/datasets?filter=task_categories:text-classification&filter=format:parquet",
			);
			expect(filtered.body.map((dataset) => dataset.id)).toContain(repo);
			// Bad input is a clear 400, never a 5xx.
			for (const query of [
				"expand=pipeline_tag",
				"sort=nope",
				"limit=-1",
				"cursor=zzz",
				"full=true&expand=tags",
			]) {
				const bad = await fetch(`${hub.url}/api/datasets?${query}`);
				expect(bad.status, query).toBe(400);
			}
			expect((await fetch(`${hub.url}/api/datasets/${repo}?expand=config`)).status).toBe(400);
			expect((await fetch(`${hub.url}/api/datasets/alice/nothing-here`)).status).toBe(404);
		});

		it("counts what a listing's filters match, per viewer (/api/datasets-count), and answers dataset pages with their status", async () => {
			const secret = "alice/count-secret";
			const created = await fetch(`${hub.url}/api/repos/create`, {
				method: "POST",
				headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/json" },
				body: JSON.stringify({ type: "dataset", name: "count-secret", private: true }),
			});
			expect(created.status).toBe(200);
			for (const [query, token] of [
				["", undefined],
				["", tokens.alice],
				["filter=format:parquet", undefined],
				["author=alice&search=reviews", tokens.alice],
				["search=count-secret", tokens.bob],
			] as const) {
				const listed = await api<unknown[]>(`/api/datasets?limit=1000&${query}`, token);
				const counted = await api<{ count: number; exact: boolean }>(`/api/datasets-count?${query}`, token);
				expect(counted.status, query).toBe(200);
				expect(counted.body, query).toEqual({ count: listed.body.length, exact: true });
			}
			// The private dataset counts for its owner only.
			const mine = await api<{ count: number }>("/api/datasets-count?search=count-secret", tokens.alice);
			const others = await api<{ count: number }>("/api/datasets-count?search=count-secret");
			expect([mine.body.count, others.body.count]).toEqual([1, 0]);
			for (const query of ["sort=nope", "author=a%20b", `search=${"x".repeat(201)}`]) {
				expect((await fetch(`${hub.url}/api/datasets-count?${query}`)).status, query).toBe(400);
			}
			// Pages: the list, a dataset, its browsing views; missing or private ones are 404 (as the public sees them).
			const repo = `alice/reviews-${options.generations[0]}`;
			const page = async (path: string) =>
				(await fetch(`${hub.url}${path}`, { headers: { accept: "text/html" } })).status;
			expect(await page("/datasets")).toBe(200);
			expect(await page(`/datasets/${repo}`)).toBe(200);
			expect(await page(`/datasets/${repo}/tree/main`)).toBe(200);
			expect(await page(`/datasets/${repo}/blob/main/README.md`)).toBe(200);
			expect(await page(`/datasets/${repo}/commits/main`)).toBe(200);
			expect(await page(`/datasets/${repo}/blob/main/missing.csv`)).toBe(404);
			expect(await page("/datasets/alice/nothing-here")).toBe(404);
			expect(await page(`/datasets/${secret}`)).toBe(404);
			// A dataset is not a model: its id under the model pages is unknown.
			expect(await page(`/${repo}`)).toBe(404);
		});

		if (!options.datasetsLibrary) return;

		it("pushes and loads with the datasets library (hub1: datasets 5.0.1)", async () => {
			const repo = "alice/pushed";
			const out = await client<Record<string, unknown>>("push", "hub1", { token: tokens.alice, repo });
			expect(out.datasets_version).toBe(pythonEnv("hub1").versions.datasets);
			okOf(out.push);
			expect(okOf(out.load)).toEqual({ text: ["good", "bad", "fine"], label: [1, 0, 1] });
			okOf(out.push_dict);
			okOf(out.push_config);
			expect(okOf(out.load_dict)).toEqual({
				train: { text: ["a", "b", "c", "d"], label: [0, 1, 0, 1] },
				test: { text: ["e"], label: [1] },
			});
			expect(okOf(out.load_config)).toEqual({ x: [1.5, 2.5] });
			expect(okOf(out.load_revision)).toEqual({ train: 3 });
			expect(okOf(out.stream)).toEqual([
				{ text: "a", label: 0 },
				{ text: "b", label: 1 },
				{ text: "c", label: 0 },
				{ text: "d", label: 1 },
			]);
			expect(okOf(out.stream_config)).toEqual([{ x: 1.5 }, { x: 2.5 }]);
			await hub.server.analysis.idle();
			const { body } = await api<{ cardData: Record<string, unknown>; tags: string[] }>(
				`/api/datasets/${repo}`,
				tokens.alice,
			);
			// push_to_hub's card: its configs and dataset_info, as the client wrote them.
			const configs = body.cardData.configs as Array<{ config_name: string }>;
			expect(configs.map((config) => config.config_name).sort()).toEqual(["default", "numbers"]);
			expect(body.cardData.dataset_info).toBeDefined();
			expect(body.tags).toEqual(
				expect.arrayContaining([
					"format:parquet",
					"modality:text",
					"size_categories:n<1K",
					"library:datasets",
				]),
			);
		}, 240_000);

		it("loads CSV, JSON Lines and an imagefolder with the datasets library (hub1)", async () => {
			const out = await client<Record<string, unknown>>("files", "hub1", {
				token: tokens.alice,
				csv_repo: "alice/csv-files",
				jsonl_repo: "alice/jsonl-files",
				image_repo: "alice/pictures",
				parquet_repo: "alice/parquet-files",
				json_repo: "alice/json-array",
				field_repo: "alice/json-field",
				audio_repo: "alice/clips",
				media_repo: "alice/csv-media",
			});
			expect(okOf(out.csv)).toEqual({
				train: { text: ["good film", "bad film", "fine film"], label: [1, 0, 1] },
				test: { text: ["okay film"], label: [1] },
			});
			expect(okOf(out.jsonl)).toEqual({ text: ["first", "second"], n: [1, 2] });
			expect(okOf(out.jsonl_stream)).toEqual([
				{ text: "first", n: 1 },
				{ text: "second", n: 2 },
			]);
			const images = okOf<{
				rows: Array<{ size: number[]; pixel: number[]; label: number }>;
				names: string[];
			}>(out.images);
			expect(images.names).toEqual(["cat", "dog"]);
			expect(images.rows.map((row) => [row.size, row.pixel, row.label])).toEqual([
				[[4, 3], [255, 0, 0], 0],
				[[4, 3], [250, 5, 0], 0],
				[[4, 3], [0, 0, 255], 1],
			]);
			await hub.server.analysis.idle();
			const tagsOf = async (id: string) =>
				(await api<{ tags: string[] }>(`/api/datasets/${id}`, tokens.alice)).body.tags;
			// No card: the size comes from the data files (CSV records, JSON lines, Parquet footers).
			// No card: modalities from the files' columns, by the public hub's rules (a string column is text;
			// one number is not a table).
			expect(await tagsOf("alice/csv-files")).toEqual([
				"format:csv",
				"modality:text",
				"size_categories:n<1K",
				"library:datasets",
				"library:pandas",
				"library:polars",
			]);
			expect(await tagsOf("alice/jsonl-files")).toEqual([
				"format:json",
				"modality:text",
				"size_categories:n<1K",
				"library:datasets",
				"library:pandas",
				"library:polars",
			]);
			expect(await tagsOf("alice/pictures")).toEqual([
				"format:imagefolder",
				"modality:image",
				"library:datasets",
			]);
			expect(okOf(out.parquet_rows)).toEqual({ train: 1200, test: 300 });
			// The columns datasets reads (int64, string, float64, a list of float32): a table (two numbers),
			// text, and a time series (a float32 list not named as an embedding).
			expect(okOf(out.parquet_features)).toBe(
				"{'n': Value('int64'), 's': Value('string'), 'x': Value('float64'), 'series': List(Value('float32'))}",
			);
			expect(await tagsOf("alice/parquet-files")).toEqual([
				"format:parquet",
				"modality:tabular",
				"modality:text",
				"modality:timeseries",
				"size_categories:1K<n<10K",
				"library:datasets",
				"library:pandas",
				"library:polars",
			]);
			// Single-document .json files are counted as datasets reads them (an array; the card's field).
			expect([okOf(out.json_rows), okOf(out.field_rows)]).toEqual([1500, 1100]);
			for (const id of ["alice/json-array", "alice/json-field"])
				expect(await tagsOf(id)).toEqual(
					expect.arrayContaining(["format:json", "modality:text", "size_categories:1K<n<10K"]),
				);

			// An audiofolder: datasets resolves it through the hub (the builder, its split's clips and metadata),
			// the clips come back intact, the metadata loads; decoding needs torchcodec, which the environment lacks.
			expect(out.audio_builder).toEqual({
				name: "audiofolder",
				data_files: {
					train: ["train/clip0.wav", "train/clip1.wav", "train/clip2.wav", "train/metadata.csv"],
				},
			});
			expect(out.audio_clips).toEqual(out.audio_expected);
			expect(okOf(out.audio_metadata)).toEqual({
				file_name: ["clip0.wav", "clip1.wav", "clip2.wav"],
				transcription: ["zero", "one", "two"],
			});
			expect(out.audio_load).toMatchObject({ cause: expect.stringContaining("torchcodec") as string });
			expect(await tagsOf("alice/clips")).toEqual([
				"format:audiofolder",
				"modality:audio",
				"library:datasets",
			]);
			// Modalities from every file's type too (the public hub's file types): audio and an image beside a CSV.
			expect(await tagsOf("alice/csv-media")).toEqual([
				"format:csv",
				"modality:audio",
				"modality:image",
				"modality:text",
				"size_categories:n<1K",
				"library:datasets",
				"library:pandas",
				"library:polars",
			]);
			// The viewer answers for the audiofolder with its metadata file: the metadata rows, each with its clip.
			const viewer = async <T>(path: string) => api<T>(`/datasets-server${path}`, tokens.alice);
			expect((await viewer("/splits?dataset=alice/clips")).body).toEqual({
				splits: [{ dataset: "alice/clips", config: "default", split: "train" }],
				pending: [],
				failed: [],
			});
			expect((await viewer("/is-valid?dataset=alice/clips")).body).toEqual({
				preview: true,
				viewer: true,
				search: true,
				filter: true,
				statistics: true,
			});
			const rows = await viewer<{
				rows: { row: { audio: { src: string }[] | null; transcription: string } }[];
			}>("/first-rows?dataset=alice/clips&config=default&split=train");
			expect(rows.status).toBe(200);
			expect(rows.body.rows.map(({ row }) => row.transcription)).toEqual(["zero", "one", "two"]);
			expect(rows.body.rows.map(({ row }) => row.audio?.[0]?.src)).toEqual(
				[0, 1, 2].map((index) =>
					expect.stringMatching(new RegExp(`/datasets/alice/clips/resolve/[^?]+/train/clip${index}\\.wav`)),
				),
			);
		}, 240_000);
	});
}
