import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
	ViewerFirstRowsAnswer,
	ViewerInfoAnswer,
	ViewerIsValidAnswer,
	ViewerParquetAnswer,
	ViewerRowsAnswer,
	ViewerSizeAnswer,
	ViewerSplitsAnswer,
	ViewerStatisticsAnswer,
	ViewerDatasetInfo,
} from "../src/api/viewer.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { firstRowsErrors, VIEWER_TEST_LIMITS, viewerGet } from "./support/viewer.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "viewer-admin-token-0123456789abcdef";

interface CroissantNode {
	"@id"?: string;
	"@type"?: string;
	includes?: string | string[];
	dataType?: string;
	field: CroissantNode[];
	[key: string]: unknown;
}
interface CroissantDoc {
	"@context": Record<string, unknown>;
	"@type": string;
	conformsTo: string;
	url: string;
	distribution: CroissantNode[];
	recordSet: CroissantNode[];
}

/**
 * The dataset viewer under /datasets-server/ (issue 23): datasets made and pushed by the real `datasets`
 * library and huggingface_hub (hub1 environment: datasets 5.0.1, pyarrow, pandas), every endpoint's answer
 * checked against what pyarrow and pandas read from the same files; private datasets; hostile files.
 */
describe("the dataset viewer API", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	const tokens: Record<string, string> = {};
	let pushed: {
		train_rows: Array<Record<string, unknown>>;
		train_num_rows: number;
		train_file: string;
		train_size: number;
		csv_train: Array<Record<string, unknown>>;
		jsonl_train: Array<Record<string, unknown>>;
		push_private: unknown;
		parquet_schemas: Record<
			string,
			{ columns: Array<[string, string]>; features: Record<string, { _type?: string }> }
		>;
	};

	let more: {
		push_stats: unknown;
		stats_expected: ViewerStatisticsAnswer;
		json_array: { ok?: Array<Record<string, unknown>> };
		json_document: { ok?: Array<Record<string, unknown>> };
		json_strings: { columns: string[]; rows: Array<Record<string, unknown>> };
		json_numbers: { columns: string[]; rows: Array<Record<string, unknown>> };
		json_words: { columns: string[]; rows: Array<Record<string, unknown>> };
	};

	const get = <T>(path: string, token?: string) => viewerGet<T>(hub.url, path, token);

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-viewer-"));
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		// Small limits, so that the hostile files meet them.
		hub = await startHub({
			db,
			seed: false,
			adminToken: ADMIN,
			viewer: VIEWER_TEST_LIMITS,
		});
		for (const name of ["alice", "bob"]) tokens[name] = await createUser(hub.url, ADMIN, name);
		pushed = await runHubClient(
			"push",
			hub.url,
			join(dir, "push"),
			{
				token: tokens.alice,
				repo: "alice/reviews",
				private_repo: "alice/secret",
				csv_repo: "alice/csv",
				jsonl_repo: "alice/jsonl",
			},
			{},
			"hf_hub_viewer.py",
			"hub1",
		);
		expect(pushed.push_private).toHaveProperty("ok");
		more = await runHubClient(
			"more",
			hub.url,
			join(dir, "more"),
			{ token: tokens.alice, stats_repo: "alice/stats", json_repo: "alice/json-docs" },
			{},
			"hf_hub_viewer.py",
			"hub1",
		);
		expect(more.push_stats).toHaveProperty("ok");
	}, 360_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("lists configs and splits as datasets derives them (card configs, file names, folders)", async () => {
		const splits = await get<ViewerSplitsAnswer>("/splits?dataset=alice/reviews");
		expect(splits.status).toBe(200);
		expect(splits.body).toEqual({
			splits: [
				{ dataset: "alice/reviews", config: "default", split: "train" },
				{ dataset: "alice/reviews", config: "default", split: "test" },
				{ dataset: "alice/reviews", config: "numbers", split: "train" },
			],
			pending: [],
			failed: [],
		});
		expect(splits.headers.get("x-revision")).toMatch(/^[0-9a-f]{40}$/);
		expect(
			(await get<ViewerSplitsAnswer>("/splits?dataset=alice/reviews&config=numbers")).body.splits,
		).toEqual([{ dataset: "alice/reviews", config: "numbers", split: "train" }]);
		expect(
			(await get<ViewerSplitsAnswer>("/splits?dataset=alice/csv")).body.splits.map((s) => s.split),
		).toEqual(["train", "test"]);
		expect(
			(await get<ViewerSplitsAnswer>("/splits?dataset=alice/jsonl")).body.splits.map((s) => s.split),
		).toEqual(["train", "validation"]);
		const valid = await get<ViewerIsValidAnswer>("/is-valid?dataset=alice/reviews");
		expect(valid.body).toEqual({
			preview: true,
			viewer: true,
			search: true,
			filter: true,
			statistics: true,
		});
	});

	it("answers the first rows and pages of rows as pyarrow reads them, with the datasets features", async () => {
		const first = await get<ViewerFirstRowsAnswer>(
			"/first-rows?dataset=alice/reviews&config=default&split=train",
		);
		expect(first.status).toBe(200);
		expect(first.body.features).toEqual([
			{ feature_idx: 0, name: "text", type: { dtype: "string", _type: "Value" } },
			{ feature_idx: 1, name: "label", type: { names: ["neg", "pos"], _type: "ClassLabel" } },
			{ feature_idx: 2, name: "score", type: { dtype: "float64", _type: "Value" } },
			{ feature_idx: 3, name: "tags", type: { feature: { dtype: "string", _type: "Value" }, _type: "List" } },
			{
				feature_idx: 4,
				name: "meta",
				type: { lang: { dtype: "string", _type: "Value" }, n: { dtype: "int32", _type: "Value" } },
			},
		]);
		expect(first.body.rows).toHaveLength(100);
		expect(first.body.truncated).toBe(true);
		expect(first.body.rows.map((item) => item.row)).toEqual(pushed.train_rows.slice(0, 100));
		expect(first.body.rows.map((item) => item.row_idx)).toEqual([...Array(100).keys()]);

		const page = await get<ViewerRowsAnswer>(
			"/rows?dataset=alice/reviews&config=default&split=train&offset=140&length=20",
		);
		expect(page.status).toBe(200);
		expect(page.body.num_rows_total).toBe(pushed.train_num_rows);
		expect(page.body.num_rows_per_page).toBe(100);
		expect(page.body.partial).toBe(false);
		expect(page.body.rows.map((item) => item.row_idx)).toEqual([...Array(10).keys()].map((i) => 140 + i));
		expect(page.body.rows.map((item) => item.row)).toEqual(pushed.train_rows.slice(140));

		const csv = await get<ViewerRowsAnswer>("/rows?dataset=alice/csv&config=default&split=train");
		expect(csv.body.rows.map((item) => item.row)).toEqual(pushed.csv_train);
		expect(csv.body.features.map((feature) => [feature.name, feature.type])).toEqual([
			["text", { dtype: "string", _type: "Value" }],
			["label", { dtype: "int64", _type: "Value" }],
			["score", { dtype: "float64", _type: "Value" }],
		]);
		const jsonl = await get<ViewerRowsAnswer>("/rows?dataset=alice/jsonl&config=default&split=train");
		expect(jsonl.body.rows.map((item) => item.row)).toEqual(pushed.jsonl_train);
		expect(jsonl.body.num_rows_total).toBe(2);
	});

	it("searches and filters with the engine", async () => {
		const search = await get<ViewerRowsAnswer>(
			"/search?dataset=alice/reviews&config=default&split=train&query=CHARLIE&length=5",
		);
		expect(search.status).toBe(200);
		const expected = pushed.train_rows
			.map((row, index) => ({ row, index }))
			.filter(({ row }) => String(row.text).includes("charlie"));
		expect(search.body.num_rows_total).toBe(expected.length);
		expect(search.body.rows.map((item) => item.row_idx)).toEqual(
			expected.slice(0, 5).map(({ index }) => index),
		);

		const where = encodeURIComponent(`"score" >= 30 AND "label" = 1`);
		const filtered = await get<ViewerRowsAnswer>(
			`/filter?dataset=alice/reviews&config=default&split=train&where=${where}&orderby=${encodeURIComponent('"score" DESC')}&length=3`,
		);
		expect(filtered.status).toBe(200);
		const matching = pushed.train_rows
			.map((row, index) => ({ row, index }))
			.filter(({ row }) => Number(row.score) >= 30 && row.label === 1)
			.sort((a, b) => Number(b.row.score) - Number(a.row.score));
		expect(filtered.body.num_rows_total).toBe(matching.length);
		expect(filtered.body.rows.map((item) => item.row_idx)).toEqual(
			matching.slice(0, 3).map(({ index }) => index),
		);
		expect(filtered.body.rows[0]?.row).toEqual(matching[0]?.row);

		for (const bad of [
			`"score" > 1; DROP TABLE data`,
			`"score" > (SELECT 1)`,
			`"a" = 1 OR 1 IN (SELECT * FROM read_csv('/etc/passwd'))`,
			`score > 1`,
			`"score" > 1 -- comment`,
		]) {
			const refused = await get<{ error: string }>(
				`/filter?dataset=alice/reviews&config=default&split=train&where=${encodeURIComponent(bad)}`,
			);
			expect(refused.status, bad).toBe(422);
			expect(refused.headers.get("x-error-code")).toBe("InvalidParameter");
			expect(refused.body.error).toBe("Parameter 'where' contains errors or invalid symbols");
		}
		const missingColumn = await get<{ error: string }>(
			`/filter?dataset=alice/reviews&config=default&split=train&where=${encodeURIComponent(`"nope" = 1`)}`,
		);
		expect(missingColumn.status).toBe(422);
		expect(missingColumn.headers.get("x-error-code")).toBe("InvalidParameter");
	});

	it("computes statistics per column as the public viewer does (checked with numpy and pandas)", async () => {
		const path = "/statistics?dataset=alice/stats&config=default&split=train";
		const stats = await get<ViewerStatisticsAnswer>(path);
		expect(stats.status).toBe(200);
		expect(stats.headers.get("x-revision")).toMatch(/^[0-9a-f]{40}$/);
		expect(stats.body.statistics.map((column) => [column.column_name, column.column_type])).toEqual([
			["b", "bool"],
			["f", "float"],
			["i", "int"],
			["kind", "string_label"],
			["label", "class_label"],
			["same", "float"],
			["seq", "list"],
			["text", "string_text"],
		]);
		expect(stats.body).toEqual(more.stats_expected);
		// Remembered by commit: the same answer again.
		expect((await get<ViewerStatisticsAnswer>(path)).body).toEqual(stats.body);
		const reviews = await get<ViewerStatisticsAnswer>(
			"/statistics?dataset=alice/reviews&config=default&split=train",
		);
		expect(reviews.body.num_examples).toBe(pushed.train_num_rows);
		expect(reviews.body.statistics.map((column) => column.column_type)).toEqual([
			"class_label",
			"float",
			"list",
			"string_text",
		]);
		// Bad input: the public viewer's errors, never a 5xx.
		expect((await get("/statistics?dataset=alice/stats&config=default")).status).toBe(422);
		expect((await get("/statistics?dataset=alice/stats&config=default&split=nope")).status).toBe(404);
		expect(
			(await get("/statistics?dataset=alice/secret&config=default&split=train", tokens.bob)).status,
		).toBe(404);
	});

	it("reads single-document .json files as datasets does: an array, and the array under the card's field", async () => {
		for (const [config, loaded] of [
			["array", more.json_array.ok ?? []],
			["document", more.json_document.ok ?? []],
		] as const) {
			const rows = await get<ViewerRowsAnswer>(`/rows?dataset=alice/json-docs&config=${config}&split=train`);
			expect(rows.status, config).toBe(200);
			expect(rows.body.num_rows_total, config).toBe(loaded.length);
			expect(rows.body.features.map((feature) => feature.name)).toEqual(["id", "name", "tags"]);
			expect(rows.body.rows.map((item) => item.row)).toEqual(loaded.slice(0, 100));
		}
		expect([more.json_array.ok?.length, more.json_document.ok?.length]).toEqual([130, 70]);
		const filtered = await get<ViewerRowsAnswer>(
			`/filter?dataset=alice/json-docs&config=document&split=train&where=${encodeURIComponent(`"id" >= 65`)}`,
		);
		expect(filtered.body.rows.map((item) => item.row_idx)).toEqual([65, 66, 67, 68, 69]);
	});

	it("names the one column of a .json array of values (not objects) as datasets does: text", async () => {
		for (const config of ["strings", "numbers", "words"] as const) {
			const loaded = more[`json_${config}`];
			expect(loaded.columns, config).toEqual(["text"]);
			const rows = await get<ViewerRowsAnswer>(`/rows?dataset=alice/json-docs&config=${config}&split=train`);
			expect(rows.status, config).toBe(200);
			expect(
				rows.body.features.map((feature) => feature.name),
				config,
			).toEqual(loaded.columns);
			expect(rows.body.num_rows_total, config).toBe(loaded.rows.length);
			expect(
				rows.body.rows.map((item) => item.row),
				config,
			).toEqual(loaded.rows.slice(0, 100));
		}
		expect(more.json_numbers.rows[3]).toEqual({ text: 1.5 });
		const found = await get<ViewerRowsAnswer>(
			`/filter?dataset=alice/json-docs&config=strings&split=train&where=${encodeURIComponent(`"text" = 'line 7'`)}`,
		);
		expect(found.body.rows.map((item) => item.row_idx)).toEqual([7]);
		const info = await get<ViewerInfoAnswer>("/info?dataset=alice/json-docs&config=words");
		expect(info.body.dataset_info.features).toEqual({ text: { dtype: "string", _type: "Value" } });
	});

	it("answers for another revision when asked (revision=: a branch, a commit), main otherwise", async () => {
		const mainRows = await get<ViewerRowsAnswer>("/rows?dataset=alice/csv&config=default&split=train");
		const mainCommit = mainRows.headers.get("x-revision") ?? "";
		const auth = { authorization: `Bearer ${tokens.alice}` };
		const branch = await fetch(`${hub.url}/api/datasets/alice/csv/branch/dev`, {
			method: "POST",
			headers: { ...auth, "content-type": "application/json" },
			body: "{}",
		});
		expect(branch.status).toBe(200);
		const csv =
			"text,label,score\n" +
			[...Array(5).keys()].map((i) => `dev film ${i},${i % 2},${i}.5`).join("\n") +
			"\n";
		const lines = [
			{ key: "header", value: { summary: "dev rows" } },
			{
				key: "file",
				value: { path: "train.csv", content: Buffer.from(csv).toString("base64"), encoding: "base64" },
			},
		];
		const committed = await fetch(`${hub.url}/api/datasets/alice/csv/commit/dev`, {
			method: "POST",
			headers: { ...auth, "content-type": "application/x-ndjson" },
			body: lines.map((line) => JSON.stringify(line)).join("\n"),
		});
		const devCommit = ((await committed.json()) as { commitOid: string }).commitOid;
		const dev = await get<ViewerRowsAnswer>(
			"/rows?dataset=alice/csv&config=default&split=train&revision=dev",
		);
		expect(dev.status).toBe(200);
		expect(dev.headers.get("x-revision")).toBe(devCommit);
		expect(dev.body.num_rows_total).toBe(5);
		expect(dev.body.rows[4]?.row).toEqual({ text: "dev film 4", label: 0, score: 4.5 });
		const stats = await get<ViewerStatisticsAnswer>(
			"/statistics?dataset=alice/csv&config=default&split=train&revision=dev",
		);
		expect(stats.body.num_examples).toBe(5);
		// main is unchanged, by name and by commit.
		expect((await get<ViewerRowsAnswer>("/rows?dataset=alice/csv&config=default&split=train")).body).toEqual(
			mainRows.body,
		);
		const byCommit = await get<ViewerRowsAnswer>(
			`/rows?dataset=alice/csv&config=default&split=train&revision=${mainCommit}`,
		);
		expect(byCommit.body.num_rows_total).toBe(3);
		const missing = await get<{ error: string }>("/splits?dataset=alice/csv&revision=nope");
		expect([missing.status, missing.body.error]).toEqual([404, "The revision 'nope' does not exist."]);
		// A dataset the viewer may not read stays the plain 404, whatever the revision.
		const hidden = await get<{ error: string }>("/splits?dataset=alice/secret&revision=nope", tokens.bob);
		expect(hidden.status).toBe(404);
		expect(hidden.body.error).toMatch(/^The dataset does not exist/);
		expect((await get("/splits?dataset=alice/csv&revision=%01")).status).toBe(404);
	});

	it("answers size, info and parquet", async () => {
		const size = await get<ViewerSizeAnswer>("/size?dataset=alice/reviews");
		expect(size.status).toBe(200);
		const train = size.body.size.splits.find(
			(split) => split.config === "default" && split.split === "train",
		);
		expect(train).toMatchObject({
			num_rows: pushed.train_num_rows,
			num_columns: 5,
			num_bytes_original_files: pushed.train_size,
			num_bytes_parquet_files: pushed.train_size,
			estimated_num_rows: null,
		});
		expect(size.body.size.dataset?.num_rows).toBe(pushed.train_num_rows + 4 + 3);
		expect(size.body.size.configs?.map((config) => [config.config, config.num_rows])).toEqual([
			["default", pushed.train_num_rows + 4],
			["numbers", 3],
		]);
		const info = await get<ViewerInfoAnswer>("/info?dataset=alice/reviews&config=numbers");
		const numbers = info.body.dataset_info as ViewerDatasetInfo;
		expect(numbers.features).toEqual({ x: { dtype: "float64", _type: "Value" } });
		expect(numbers.splits.train?.num_examples).toBe(3);
		expect(numbers.config_name).toBe("numbers");
		const parquet = await get<ViewerParquetAnswer>("/parquet?dataset=alice/reviews&config=default");
		const trainFile = parquet.body.parquet_files.find((file) => file.split === "train");
		expect(trainFile).toMatchObject({ dataset: "alice/reviews", config: "default", size: pushed.train_size });
		const download = await fetch(trainFile?.url ?? "");
		expect(download.status).toBe(200);
		expect((await download.arrayBuffer()).byteLength).toBe(pushed.train_size);
	});

	it("describes a dataset in Croissant (/api/datasets/{id}/croissant): each field as pyarrow reads its column", async () => {
		const response = await fetch(`${hub.url}/api/datasets/alice/reviews/croissant`);
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toContain("application/ld+json");
		const doc = (await response.json()) as CroissantDoc;
		const commit = response.headers.get("x-revision") ?? "";
		expect(commit).toMatch(/^[0-9a-f]{40}$/);
		expect(doc["@type"]).toBe("sc:Dataset");
		expect(doc.conformsTo).toBe("http://mlcommons.org/croissant/1.1");
		expect(doc["@context"]).toMatchObject({
			"@vocab": "https://schema.org/",
			cr: "http://mlcommons.org/croissant/",
		});
		expect(doc.url).toBe(`${hub.url}/datasets/alice/reviews`);
		expect(doc.distribution[0]).toMatchObject({
			"@type": "cr:FileObject",
			"@id": "repo",
			contentUrl: `${hub.url}/datasets/alice/reviews/tree/${commit}`,
			encodingFormat: "git+https",
		});
		// One FileSet per config holding exactly its Parquet files, as the repository lists them.
		const fileSets = doc.distribution.slice(1);
		const parquetPaths = Object.keys(pushed.parquet_schemas);
		expect(fileSets.map((set) => set["@id"])).toEqual([
			"parquet-files-for-config-default",
			"parquet-files-for-config-numbers",
		]);
		for (const set of fileSets) {
			expect(set).toMatchObject({
				"@type": "cr:FileSet",
				containedIn: { "@id": "repo" },
				encodingFormat: "application/x-parquet",
			});
		}
		expect([fileSets[0]?.includes, fileSets[1]?.includes].flat().sort()).toEqual([...parquetPaths].sort());
		expect(doc.recordSet.map((set) => set["@id"])).toEqual([
			"default_splits",
			"default",
			"numbers_splits",
			"numbers",
		]);
		expect(doc.recordSet[0]).toMatchObject({
			"@type": "cr:RecordSet",
			dataType: "cr:Split",
			key: { "@id": "default_splits/split_name" },
			data: [{ "default_splits/split_name": "train" }, { "default_splits/split_name": "test" }],
		});
		// Each field: its column, its file set, and the Croissant type of what pyarrow reads (datasets' ClassLabel,
		// stored beside the file's schema, is an integer; a list is an array of its items; a struct has sub-fields).
		const scalar: Record<string, string> = {
			string: "sc:Text",
			double: "cr:Float64",
			int64: "cr:Int64",
			int32: "cr:Int32",
			bool: "sc:Boolean",
		};
		const expectedField = (
			id: string,
			column: string,
			type: string,
			fileSet: string,
			jsonPath: string[],
		): Record<string, unknown> => {
			const source: Record<string, unknown> = { fileSet: { "@id": fileSet }, extract: { column } };
			if (jsonPath.length === 1) source.transform = { jsonPath: jsonPath[0] };
			const list = /^list<[^:]+: (.+)>$/.exec(type);
			if (list)
				return {
					...expectedField(id, column, list[1] ?? "", fileSet, jsonPath),
					isArray: true,
					arrayShape: "-1",
				};
			const struct = /^struct<(.+)>$/.exec(type);
			if (struct) {
				return {
					"@type": "cr:Field",
					"@id": id,
					subField: (struct[1] ?? "").split(", ").map((entry) => {
						const [name = "", inner = ""] = entry.split(": ");
						return expectedField(`${id}/${name}`, column, inner, fileSet, [...jsonPath, name]);
					}),
				};
			}
			return { "@type": "cr:Field", "@id": id, dataType: scalar[type], source };
		};
		for (const [config, prefix] of [
			["default", "data/"],
			["numbers", "numbers/"],
		] as const) {
			const recordSet = doc.recordSet.find((set) => set["@id"] === config);
			const [path, schema] =
				Object.entries(pushed.parquet_schemas).find(([name]) => name.startsWith(prefix)) ?? [];
			expect(path).toBeDefined();
			const fileSet = `parquet-files-for-config-${config}`;
			// First the record's split, from its file's path (checked against datasets below), then the columns.
			expect(recordSet?.field[0]).toEqual({
				"@type": "cr:Field",
				"@id": `${config}/split`,
				dataType: "sc:Text",
				source: {
					fileSet: { "@id": fileSet },
					extract: { fileProperty: "fullpath" },
					transform: { regex: expect.any(String) as string },
				},
				references: { field: { "@id": `${config}_splits/split_name` } },
			});
			expect(recordSet?.field.slice(1)).toEqual(
				(schema?.columns ?? []).map(([column, type]) =>
					schema?.features[column]?._type === "ClassLabel"
						? {
								"@type": "cr:Field",
								"@id": `${config}/${column}`,
								dataType: "sc:Integer",
								source: { fileSet: { "@id": fileSet }, extract: { column } },
							}
						: expectedField(`${config}/${column}`, column, type, fileSet, []),
				),
			);
		}
		expect(
			doc.recordSet.find((set) => set["@id"] === "default")?.field.map((field) => field.dataType),
		).toEqual(["sc:Text", "sc:Text", "sc:Integer", "cr:Float64", "sc:Text", undefined]);

		// A private dataset: its reader gets it; others get the plain 404 a missing dataset gets.
		const own = await fetch(`${hub.url}/api/datasets/alice/secret/croissant`, {
			headers: { authorization: `Bearer ${tokens.alice}` },
		});
		expect(own.status).toBe(200);
		expect(own.headers.get("cache-control")).toContain("private");
		expect(((await own.json()) as CroissantDoc).recordSet[1]?.field[1]).toMatchObject({
			"@id": "default/secret",
			dataType: "sc:Text",
		});
		for (const token of [undefined, tokens.bob]) {
			const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
			const hidden = await fetch(`${hub.url}/api/datasets/alice/secret/croissant`, { headers });
			const missing = await fetch(`${hub.url}/api/datasets/alice/nothing-here/croissant`, { headers });
			expect(hidden.status).toBe(404);
			expect(missing.status).toBe(404);
			expect(hidden.headers.get("x-error-code")).toBe(missing.headers.get("x-error-code"));
			expect(await hidden.text()).toBe(await missing.text());
		}
	});

	it("gives each record's split in Croissant from its file's path: the split datasets assigns the file", async () => {
		const found = await runHubClient<
			Record<
				string,
				{ regex: string | null; files: Record<string, [string, string | null]>; description: string }
			>
		>(
			"croissant_splits",
			hub.url,
			join(dir, "croissant-splits"),
			{ token: tokens.alice, repos: ["alice/reviews", "alice/csv", "alice/jsonl", "alice/json-docs"] },
			{},
			"hf_hub_viewer.py",
			"hub1",
		);
		// push_to_hub's shards, split files and split folders: one regex each, every file's split as datasets has it.
		expect(found["alice/reviews:default"]?.regex).toBe("data/(train|test)-[0-9]+-of-[0-9]+\\.parquet$");
		expect(found["alice/csv:default"]?.regex).toBe("(train|test)\\.csv$");
		expect(found["alice/jsonl:default"]?.regex).toBe("data/(train|validation)\\.jsonl$");
		for (const key of [
			"alice/reviews:default",
			"alice/reviews:numbers",
			"alice/csv:default",
			"alice/jsonl:default",
		]) {
			const files = Object.values(found[key]?.files ?? {});
			expect(files.length, key).toBeGreaterThan(0);
			for (const [split, fromRegex] of files) expect(fromRegex, key).toBe(split);
		}
		expect(Object.keys(found["alice/reviews:default"]?.files ?? {})).toHaveLength(2);
		// The card names array.json as the train split: no path says it, so no split field, and the description says so.
		expect(found["alice/json-docs:array"]?.regex).toBeNull();
		expect(found["alice/json-docs:array"]?.files).toEqual({ "array.json": ["train", null] });
		expect(found["alice/json-docs:array"]?.description).toContain(
			"no split field: the files' paths do not tell their splits apart",
		);
	}, 120_000);

	it("answers private and gated datasets to their readers only, and missing ones with the public viewer's 404", async () => {
		const own = await get<ViewerFirstRowsAnswer>(
			"/first-rows?dataset=alice/secret&config=default&split=train",
			tokens.alice,
		);
		expect(own.status).toBe(200);
		expect(own.body.rows.map((item) => item.row)).toEqual([{ secret: "s1" }, { secret: "s2" }]);
		expect(own.headers.get("cache-control")).toContain("private");
		for (const token of [undefined, tokens.bob]) {
			for (const path of [
				"/splits?dataset=alice/secret",
				"/rows?dataset=alice/secret&config=default&split=train",
				"/is-valid?dataset=alice/secret",
			]) {
				const hidden = await get<{ error: string }>(path, token);
				expect(hidden.status).toBe(404);
				expect(hidden.headers.get("x-error-code")).toBe("ResponseNotFound");
				const missing = await get<{ error: string }>(
					path.replace("alice/secret", "alice/nothing-here"),
					token,
				);
				expect(missing.status).toBe(404);
				expect(hidden.body).toEqual(missing.body);
			}
		}
		// A gated dataset: its rows only to those with access (its namespace here), the 404 to others.
		const gate = await fetch(`${hub.url}/api/datasets/alice/csv/settings`, {
			method: "PUT",
			headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/json" },
			body: JSON.stringify({ gated: "manual" }),
		});
		expect(gate.status).toBe(200);
		try {
			expect(
				(await get<ViewerRowsAnswer>("/rows?dataset=alice/csv&config=default&split=train", tokens.alice))
					.status,
			).toBe(200);
			for (const token of [undefined, tokens.bob]) {
				const gated = await get<{ error: string }>(
					"/rows?dataset=alice/csv&config=default&split=train",
					token,
				);
				expect(gated.status).toBe(404);
				expect(gated.headers.get("x-error-code")).toBe("ResponseNotFound");
				expect(
					(await get<{ error: string }>("/first-rows?dataset=alice/csv&config=default&split=train", token))
						.status,
				).toBe(404);
			}
		} finally {
			await fetch(`${hub.url}/api/datasets/alice/csv/settings`, {
				method: "PUT",
				headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/json" },
				body: JSON.stringify({ gated: false }),
			});
		}
		const noSplit = await get<{ error: string }>("/rows?dataset=alice/reviews&config=default&split=nope");
		expect(noSplit.status).toBe(404);
		expect(noSplit.body).toEqual({ error: "Not found." });
	});

	it("refuses bad parameters with the public viewer's 422s", async () => {
		const cases: Array<[string, string, string]> = [
			["/splits", "MissingRequiredParameter", "Parameter 'dataset' is required"],
			[
				"/rows?dataset=alice/reviews&split=train",
				"MissingRequiredParameter",
				"Parameter 'config' is required",
			],
			[
				"/rows?dataset=alice/reviews&config=default&split=train&length=101",
				"InvalidParameter",
				"Parameter 'length' must not be greater than 100",
			],
			[
				"/rows?dataset=alice/reviews&config=default&split=train&offset=-1",
				"InvalidParameter",
				"Parameter 'offset' must be positive",
			],
			[
				"/rows?dataset=alice/reviews&config=default&split=train&offset=x",
				"InvalidParameter",
				"Parameter 'offset' must be integer",
			],
			[
				"/search?dataset=alice/reviews&config=default&split=train",
				"MissingRequiredParameter",
				"Parameter 'query' is required",
			],
		];
		for (const [path, code, message] of cases) {
			const refused = await get<{ error: string }>(path);
			expect(refused.status, path).toBe(422);
			expect(refused.headers.get("x-error-code")).toBe(code);
			expect(refused.body).toEqual({ error: message });
		}
	});

	it("answers hostile files with clear errors and keeps serving", async () => {
		const made = await runHubClient<{ commit: unknown }>(
			"hostile",
			hub.url,
			join(dir, "hostile"),
			{ token: tokens.alice, repo: "alice/hostile" },
			{},
			"hf_hub_viewer.py",
			"hub1",
		);
		expect(made.commit).toHaveProperty("ok");
		const rows = (config: string) =>
			get<ViewerRowsAnswer & { error?: string }>(
				`/rows?dataset=alice/hostile&config=${config}&split=train`,
				tokens.alice,
			);
		for (const config of ["bad_magic", "lying_footer", "truncated", "garbage_csv"]) {
			const answer = await rows(config);
			expect(answer.status, config).toBe(422);
			expect(answer.headers.get("x-error-code"), config).toBe("StreamingRowsError");
			expect(answer.body.error, config).toMatch(/^Cannot read the split's files: /);
			// The engine's words name the repository's file, never the hub's local copy.
			expect(answer.body.error).not.toContain("modelhub-viewer-");
		}
		const wide = await rows("wide");
		expect(wide.status).toBe(422);
		expect(wide.headers.get("x-error-code")).toBe("TooManyColumnsError");

		const huge = await rows("huge_string");
		expect(huge.status).toBe(200);
		expect(huge.body.rows[0]?.truncated_cells).toEqual(["s"]);
		expect(String(huge.body.rows[0]?.row.s)).toHaveLength(1000);
		expect(huge.body.rows[1]).toEqual({ row_idx: 1, row: { s: "short", n: 2 }, truncated_cells: [] });

		// 40 nested lists: refused by the features' depth bound; JSON nested 5,000 deep: the engine keeps
		// what is deeper than 32 levels as JSON text.
		const deep = await rows("deep");
		expect(deep.status).toBe(422);
		expect(deep.headers.get("x-error-code")).toBe("FeaturesError");
		const deepJson = await rows("deep_json");
		expect(deepJson.status).toBe(200);
		expect(deepJson.body.num_rows_total).toBe(1);

		// /statistics on every hostile file: a clear 4xx (or an answer), never a 5xx.
		for (const config of ["bad_magic", "lying_footer", "truncated", "garbage_csv", "wide", "deep"]) {
			const answer = await get<{ error?: string }>(
				`/statistics?dataset=alice/hostile&config=${config}&split=train`,
				tokens.alice,
			);
			expect(answer.status, config).toBeGreaterThanOrEqual(400);
			expect(answer.status, config).toBeLessThan(500);
			expect(answer.body.error, config).toBeTruthy();
		}
		// JSON nested 5,000 deep is one list column (deeper levels kept as JSON text): its lengths' statistics.
		const deepStats = await get<ViewerStatisticsAnswer>(
			"/statistics?dataset=alice/hostile&config=deep_json&split=train",
			tokens.alice,
		);
		expect(deepStats.status).toBe(200);
		expect(deepStats.body.num_examples).toBe(1);
		const bigStats = await get<ViewerStatisticsAnswer>(
			"/statistics?dataset=alice/hostile&config=big_rowgroup&split=train",
			tokens.alice,
		);
		expect(bigStats.body.statistics[0]?.column_statistics).toMatchObject({
			min: 0,
			max: 199_999,
			mean: 99_999.5,
		});

		const big = await get<ViewerRowsAnswer>(
			"/rows?dataset=alice/hostile&config=big_rowgroup&split=train&offset=199990",
			tokens.alice,
		);
		expect(big.status).toBe(200);
		expect(big.body.num_rows_total).toBe(200_000);
		expect(big.body.rows.map((item) => item.row.v)).toEqual([...Array(10).keys()].map((i) => 199_990 + i));

		// Still serving.
		expect((await get<ViewerSplitsAnswer>("/splits?dataset=alice/reviews")).status).toBe(200);
	}, 120_000);

	it("shows a folder of audio files (audiofolder) as datasets loads it: audio cells linking the files here, labels from folders", async () => {
		interface Loaded {
			builder: string;
			features: Record<string, unknown>;
			num_rows: number;
			labels: number[];
			files: string[];
		}
		const made = await runHubClient<{
			wav: Record<string, number[]>;
			loaded: { ok?: Record<string, Loaded> };
			[push: string]: unknown;
		}>(
			"audiofolder",
			hub.url,
			join(dir, "audio"),
			{
				token: tokens.alice,
				repo: "alice/sounds",
				private_repo: "alice/sounds-secret",
				odd_repo: "alice/sounds-odd",
				empty_repo: "alice/sounds-none",
			},
			{},
			"hf_hub_viewer.py",
			"hub1",
		);
		for (const key of ["push_sounds", "push_private", "push_odd", "push_nothing", "loaded"])
			expect(made[key], `${key}: ${JSON.stringify(made[key])}`).toHaveProperty("ok");
		const loaded = made.loaded.ok ?? {};
		const splits = await get<ViewerSplitsAnswer>("/splits?dataset=alice/sounds");
		expect(splits.status).toBe(200);
		expect(splits.body.splits.map((item) => item.split)).toEqual(["train", "test"]);
		expect(Object.keys(loaded).sort()).toEqual(["test", "train"]);
		expect(loaded.train?.builder).toBe("audiofolder");
		expect((await get<ViewerIsValidAnswer>("/is-valid?dataset=alice/sounds")).body).toEqual({
			preview: true,
			viewer: true,
			search: false,
			filter: true,
			statistics: true,
		});

		const commit = (await get<ViewerSplitsAnswer>("/splits?dataset=alice/sounds")).headers.get("x-revision");
		for (const split of ["train", "test"]) {
			const expected = loaded[split];
			const first = await get<ViewerFirstRowsAnswer>(
				`/first-rows?dataset=alice/sounds&config=default&split=${split}`,
			);
			expect(first.status, split).toBe(200);
			// The features datasets gives the loaded split, as the public viewer shows them.
			expect(first.body.features).toEqual([
				{ feature_idx: 0, name: "audio", type: expected?.features.audio },
				{ feature_idx: 1, name: "label", type: expected?.features.label },
			]);
			expect(first.body.features[0]?.type).toEqual({ _type: "Audio" });
			expect(first.body.features[1]?.type).toEqual({ names: ["cat", "dog"], _type: "ClassLabel" });
			expect(first.body.rows.map((item) => item.row.label)).toEqual(expected?.labels);
			expect(first.body.truncated).toBe(false);
			const paths: string[] = [];
			for (const item of first.body.rows) {
				// The public viewer's audio cell: a list of one { src, type }.
				const cell = item.row.audio as Array<{ src: string; type: string }>;
				expect(cell).toHaveLength(1);
				expect(cell[0]?.type).toBe("audio/wav");
				const src = cell[0]?.src ?? "";
				const prefix = `${hub.url}/datasets/alice/sounds/resolve/${commit}/`;
				expect(src.startsWith(prefix), src).toBe(true);
				const path = src.slice(prefix.length);
				paths.push(path);
				const served = await fetch(src);
				expect(served.status).toBe(200);
				expect([...new Uint8Array(await served.arrayBuffer())]).toEqual(made.wav[path]);
			}
			expect(paths.map((path) => path.slice(path.lastIndexOf("/") + 1))).toEqual(expected?.files);
		}
		const page = await get<ViewerRowsAnswer>(
			"/rows?dataset=alice/sounds&config=default&split=train&offset=2&length=5",
		);
		expect(page.body.num_rows_total).toBe(3);
		expect(page.body.rows.map((item) => [item.row_idx, item.row.label])).toEqual([[2, 1]]);
		const dogs = await get<ViewerRowsAnswer>(
			`/filter?dataset=alice/sounds&config=default&split=train&where=${encodeURIComponent('"label"=1')}`,
		);
		expect(dogs.status).toBe(200);
		expect(dogs.body.rows.map((item) => (item.row.audio as Array<{ src: string }>)[0]?.src)).toEqual([
			`${hub.url}/datasets/alice/sounds/resolve/${commit}/train/dog/c.wav`,
		]);
		const size = await get<ViewerSizeAnswer>("/size?dataset=alice/sounds");
		expect(size.status).toBe(200);
		const bytesOf = (split: string): number =>
			Object.entries(made.wav)
				.filter(([path]) => path.startsWith(`${split}/`))
				.reduce((sum, [, data]) => sum + data.length, 0);
		expect(
			size.body.size.splits.map((item) => [
				item.split,
				item.num_rows,
				item.num_columns,
				item.num_bytes_original_files,
			]),
		).toEqual([
			["train", 3, 2, bytesOf("train")],
			["test", 2, 2, bytesOf("test")],
		]);
		const info = await get<ViewerInfoAnswer>("/info?dataset=alice/sounds&config=default");
		expect(info.status).toBe(200);
		const described = info.body.dataset_info as ViewerDatasetInfo;
		expect(described.features).toEqual(loaded.train?.features);
		expect(described.builder_name).toBe("audiofolder");
		expect(described.splits.test?.num_examples).toBe(loaded.test?.num_rows);
		const statistics = await get<ViewerStatisticsAnswer>(
			"/statistics?dataset=alice/sounds&config=default&split=train",
		);
		expect(statistics.body.statistics.map((item) => [item.column_name, item.column_type])).toEqual([
			["label", "class_label"],
		]);

		// Private: its rows and its files to its readers only, the public viewer's 404 to others.
		const own = await get<ViewerRowsAnswer>(
			"/rows?dataset=alice/sounds-secret&config=default&split=train",
			tokens.alice,
		);
		expect(own.status).toBe(200);
		expect(own.headers.get("cache-control")).toContain("private");
		const secretSrc = (own.body.rows[0]?.row.audio as Array<{ src: string }>)[0]?.src ?? "";
		expect(secretSrc).toContain("/datasets/alice/sounds-secret/resolve/");
		expect((await fetch(secretSrc, { headers: { authorization: `Bearer ${tokens.alice}` } })).status).toBe(
			200,
		);
		for (const token of [undefined, tokens.bob]) {
			const hidden = await get<{ error: string }>(
				"/rows?dataset=alice/sounds-secret&config=default&split=train",
				token,
			);
			expect(hidden.status).toBe(404);
			expect(hidden.headers.get("x-error-code")).toBe("ResponseNotFound");
			const file = await fetch(secretSrc, token ? { headers: { authorization: `Bearer ${token}` } } : {});
			expect(file.status).toBe(404);
		}

		// Odd files: a .wav that is empty, one that is text; a folder without audio (no split).
		const oddSplits = await get<ViewerSplitsAnswer>("/splits?dataset=alice/sounds-odd");
		expect(oddSplits.body.splits.map((item) => item.split)).toEqual(["train"]);
		const oddRow = (offset: number) =>
			get<ViewerRowsAnswer & { error?: string }>(
				`/rows?dataset=alice/sounds-odd&config=default&split=train&offset=${offset}&length=1`,
			);
		const empty = await oddRow(0);
		expect(empty.status).toBe(422);
		expect(empty.headers.get("x-error-code")).toBe("RowsPostProcessingError");
		expect(empty.body.error).toBe("Cannot show the audio file 'train/empty.wav' (row 0): it is empty.");
		const fake = await oddRow(1);
		expect(fake.status).toBe(422);
		expect(fake.body.error).toBe(
			"Cannot show the audio file 'train/fake.wav' (row 1): it does not start as a WAV file does (RIFF…WAVE).",
		);
		const first = await get<{ error?: string }>(
			"/first-rows?dataset=alice/sounds-odd&config=default&split=train",
		);
		expect(first.status).toBe(422);
		const real = await oddRow(2);
		expect(real.status).toBe(200);
		expect((real.body.rows[0]?.row.audio as Array<{ src: string }>)[0]?.src).toMatch(/\/train\/real\.wav$/);
		// No audio at all: no split, nothing the viewer shows; never a 5xx.
		const none = await get<ViewerSplitsAnswer>("/splits?dataset=alice/sounds-none");
		expect(none.status).toBe(200);
		expect(none.body.splits).toEqual([]);
		expect((await get<ViewerIsValidAnswer>("/is-valid?dataset=alice/sounds-none")).body).toMatchObject({
			preview: false,
			viewer: false,
		});
		const missing = await get<{ error?: string }>(
			"/first-rows?dataset=alice/sounds-none&config=default&split=train",
		);
		expect(missing.status).toBe(404);
	}, 240_000);

	it("shows audio and image folders with metadata files as datasets builds them, image folders by label; hostile metadata gets clear errors", async () => {
		interface Built {
			builder: string;
			features: Record<string, unknown>;
			rows: Array<Record<string, unknown>>;
		}
		const made = await runHubClient<{
			bytes: Record<string, number>;
			sounds: { ok?: Record<string, Built> };
			pictures: { ok?: Record<string, Built> };
			labelled: { ok?: Record<string, Built> };
			loaded_pictures: { ok?: { columns: string[]; sizes: Array<[number, number]> } };
			[push: string]: unknown;
		}>(
			"folder_metadata",
			hub.url,
			join(dir, "folder-metadata"),
			{
				token: tokens.alice,
				sounds_repo: "alice/sounds-meta",
				pictures_repo: "alice/pictures-meta",
				labelled_repo: "alice/pictures-labelled",
				hostile_repo: "alice/folders-hostile",
			},
			{},
			"hf_hub_viewer.py",
			"hub1",
		);
		for (const key of ["push_sounds", "push_pictures", "push_labelled", "push_hostile", "loaded_pictures"])
			expect(made[key], `${key}: ${JSON.stringify(made[key])}`).toHaveProperty("ok");
		type Cell = { src: string; type?: string; height?: number; width?: number };
		const srcPath = (cell: unknown): string | null => {
			if (cell === null) return null;
			const src = (Array.isArray(cell) ? (cell[0] as Cell) : (cell as Cell)).src;
			return decodeURIComponent(
				src.slice(src.indexOf("/resolve/") + "/resolve/".length).replace(/^[0-9a-f]{40}\//, ""),
			);
		};
		/** A page's rows as datasets' examples: each media cell the repository path it links. */
		const asBuilt = (rows: ViewerRowsAnswer["rows"], media: string): Array<Record<string, unknown>> =>
			rows.map((item) => ({ ...item.row, [media]: srcPath(item.row[media]) }));

		// Audio with a metadata.csv per split: the metadata's rows and columns (file_name becomes `audio`, in its
		// place; a nested file; a row whose file is missing keeps its row with no audio; a file in no row is no row).
		const sounds = made.sounds.ok ?? {};
		expect(
			(await get<ViewerSplitsAnswer>("/splits?dataset=alice/sounds-meta")).body.splits.map(
				(item) => item.split,
			),
		).toEqual(["train", "test"]);
		expect((await get<ViewerIsValidAnswer>("/is-valid?dataset=alice/sounds-meta")).body).toEqual({
			preview: true,
			viewer: true,
			search: true,
			filter: true,
			statistics: true,
		});
		for (const split of ["train", "test"]) {
			const first = await get<ViewerFirstRowsAnswer>(
				`/first-rows?dataset=alice/sounds-meta&config=default&split=${split}`,
			);
			expect(first.status, JSON.stringify(first.body)).toBe(200);
			expect(Object.fromEntries(first.body.features.map((item) => [item.name, item.type]))).toEqual(
				sounds[split]?.features,
			);
			expect(first.body.features.map((item) => item.name)).toEqual(
				Object.keys(sounds[split]?.features ?? {}),
			);
			expect(asBuilt(first.body.rows, "audio")).toEqual(
				(sounds[split]?.rows ?? []).map((row) => ({
					...row,
					audio: row.audio === "train/missing.wav" ? null : row.audio,
				})),
			);
			expect((first.body.rows[0]?.row.audio as Cell[])[0]?.type).toBe("audio/wav");
		}
		const deep = await get<ViewerRowsAnswer>(
			"/rows?dataset=alice/sounds-meta&config=default&split=train&offset=1&length=1",
		);
		const served = await fetch((deep.body.rows[0]?.row.audio as Cell[])[0]?.src ?? "");
		expect((await served.arrayBuffer()).byteLength).toBe(made.bytes["train/deep/b.wav"]);
		const night = await get<ViewerRowsAnswer>(
			"/search?dataset=alice/sounds-meta&config=default&split=train&query=night",
		);
		expect(night.body.rows.map((item) => item.row_idx)).toEqual([1]);
		const filtered = await get<ViewerRowsAnswer>(
			`/filter?dataset=alice/sounds-meta&config=default&split=train&where=${encodeURIComponent('"speaker_id">7')}`,
		);
		expect(asBuilt(filtered.body.rows, "audio").map((row) => row.transcription)).toEqual([
			"good night",
			"not recorded",
		]);
		const soundSize = await get<ViewerSizeAnswer>("/size?dataset=alice/sounds-meta");
		expect(soundSize.body.size.splits.map((item) => [item.split, item.num_rows, item.num_columns])).toEqual([
			["train", 3, 3],
			["test", 1, 3],
		]);
		const soundInfo = await get<ViewerInfoAnswer>("/info?dataset=alice/sounds-meta&config=default");
		expect((soundInfo.body.dataset_info as ViewerDatasetInfo).features).toEqual(sounds.train?.features);
		const soundStats = await get<ViewerStatisticsAnswer>(
			"/statistics?dataset=alice/sounds-meta&config=default&split=train",
		);
		expect(soundStats.body.statistics.map((item) => item.column_name)).toEqual([
			"speaker_id",
			"transcription",
		]);

		// Images with a root metadata.jsonl naming files in nested folders: the public viewer's image cells.
		const pictures = made.pictures.ok?.train;
		const loadedPictures = made.loaded_pictures.ok;
		const shown = await get<ViewerFirstRowsAnswer>(
			"/first-rows?dataset=alice/pictures-meta&config=default&split=train",
		);
		expect(shown.status, JSON.stringify(shown.body)).toBe(200);
		expect(shown.body.features.map((item) => item.name)).toEqual(loadedPictures?.columns);
		expect(Object.fromEntries(shown.body.features.map((item) => [item.name, item.type]))).toEqual(
			pictures?.features,
		);
		expect(asBuilt(shown.body.rows, "image")).toEqual(pictures?.rows);
		expect(
			shown.body.rows.map((item) => [(item.row.image as Cell).width, (item.row.image as Cell).height]),
		).toEqual(loadedPictures?.sizes);
		for (const item of shown.body.rows) {
			const picture = await fetch((item.row.image as Cell).src);
			expect((await picture.arrayBuffer()).byteLength).toBe(made.bytes[srcPath(item.row.image) ?? ""]);
		}
		// Images labelled by their folders (no metadata).
		const labelled = made.labelled.ok?.train;
		const byLabel = await get<ViewerFirstRowsAnswer>(
			"/first-rows?dataset=alice/pictures-labelled&config=default&split=train",
		);
		expect(byLabel.status, JSON.stringify(byLabel.body)).toBe(200);
		expect(Object.fromEntries(byLabel.body.features.map((item) => [item.name, item.type]))).toEqual(
			labelled?.features,
		);
		expect(asBuilt(byLabel.body.rows, "image")).toEqual(labelled?.rows);
		expect(
			byLabel.body.rows.map((item) => [(item.row.image as Cell).width, (item.row.image as Cell).height]),
		).toEqual([
			[4, 3],
			[6, 2],
			[5, 5],
		]);

		// Hostile metadata: a clear error each, never a 5xx.
		const answers = await firstRowsErrors(hub.url, "alice/folders-hostile", [
			"nofile",
			"lying",
			"wide",
			"longline",
			"escape",
		]);
		expect(answers.nofile?.slice(0, 2)).toEqual([422, "DatasetGenerationError"]);
		expect(answers.nofile?.[2]).toContain("`file_name`");
		expect(answers.lying?.slice(0, 2)).toEqual([422, "StreamingRowsError"]);
		expect(answers.lying?.[2]).toMatch(/^Cannot read the split's metadata files: .*lying\/metadata\.parquet/);
		expect(answers.wide?.slice(0, 2)).toEqual([422, "TooManyColumnsError"]);
		expect(answers.longline?.slice(0, 2)).toEqual([422, "StreamingRowsError"]);
		expect(answers.escape?.slice(0, 2)).toEqual([422, "RowsPostProcessingError"]);
		expect(answers.escape?.[2]).toContain("must stay inside the folder of its metadata file");
		expect((await get<ViewerSplitsAnswer>("/splits?dataset=alice/folders-hostile")).status).toBe(200);
	}, 240_000);
});
