import { describe, expect, it } from "vitest";
import { bashSyntaxErrors, parsePython } from "../../../../test-support/parsers.js";
import {
	DATASET_LIBRARIES,
	datasetLayout,
	datasetLibrariesFor,
	globPattern,
	singleFileSplits,
	splitOfPath,
	type DatasetData,
	type DatasetLibraryKey,
} from "./index.js";

const HUB = "http://127.0.0.1:8080";

/** What `Dataset.push_to_hub` writes: one Parquet file per split and a card with `configs:`. */
const PUSHED: DatasetData = {
	id: "alice/tiny-ds",
	files: [
		".gitattributes",
		"README.md",
		"data/test-00000-of-00001.parquet",
		"data/train-00000-of-00001.parquet",
	],
	cardData: {
		configs: [
			{
				config_name: "default",
				data_files: [
					{ split: "train", path: "data/train-*" },
					{ split: "test", path: "data/test-*" },
				],
			},
		],
	},
};

const CSV: DatasetData = { id: "bob/table", files: ["README.md", "train.csv", "validation.csv"] };
const JSONL: DatasetData = { id: "bob/lines", files: ["data.jsonl"], private: true };
const SHARDED: DatasetData = {
	id: "bob/sharded",
	files: ["data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet"],
};
const IMAGES: DatasetData = {
	id: "bob/pictures",
	files: ["train/cat/1.png", "train/dog/2.png", "metadata.csv"],
};
const CONFIGS: DatasetData = {
	id: "bob/two-configs",
	files: ["en/train.parquet", "fr/train.parquet"],
	cardData: {
		configs: [
			{ config_name: "en", data_files: "en/*.parquet" },
			{ config_name: "fr", data_files: [{ split: "train", path: "fr/*.parquet" }] },
		],
	},
};
const ODD: DatasetData = { id: 'eve/odd"name', files: ['it\'s "x".csv'], cardData: { configs: "nonsense" } };

const ALL = [PUSHED, CSV, JSONL, SHARDED, IMAGES, CONFIGS, ODD];

function blocks(key: DatasetLibraryKey, dataset: DatasetData, hubUrl?: string) {
	return DATASET_LIBRARIES[key].codeBlocks(dataset, hubUrl ? { hubUrl } : {});
}

describe("dataset layout (datasets' split resolution)", () => {
	it("finds split keywords in file and folder names as datasets' default patterns do", () => {
		expect(splitOfPath("data/train-00000-of-00001.parquet")).toBe("train");
		expect(splitOfPath("train.csv")).toBe("train");
		expect(splitOfPath("my_dev.jsonl")).toBe("validation");
		expect(splitOfPath("eval/x.parquet")).toBe("test");
		expect(splitOfPath("testing/part-1.csv")).toBe("test");
		expect(splitOfPath("trainer.csv")).toBeUndefined();
		expect(splitOfPath("contest.csv")).toBeUndefined();
		expect(splitOfPath("data.jsonl")).toBeUndefined();
	});

	it("matches data_files globs (fsspec: * inside a folder, ** across folders)", () => {
		expect(globPattern("data/train-*").test("data/train-00000-of-00001.parquet")).toBe(true);
		expect(globPattern("data/train-*").test("data/x/train-0.parquet")).toBe(false);
		expect(globPattern("**/*.csv").test("a/b/c.csv")).toBe(true);
		expect(globPattern("**/*.csv").test("c.csv")).toBe(true);
		expect(globPattern("a+b(1).csv").test("a+b(1).csv")).toBe(true);
	});

	it("reads configs: the default (or first) config's splits; keywords without configs", () => {
		expect(datasetLayout(PUSHED.files, PUSHED.cardData)).toEqual({
			config: "default",
			configs: ["default"],
			splits: [
				{ split: "train", files: ["data/train-00000-of-00001.parquet"] },
				{ split: "test", files: ["data/test-00000-of-00001.parquet"] },
			],
		});
		expect(datasetLayout(CONFIGS.files, CONFIGS.cardData).config).toBe("en");
		expect(datasetLayout(CSV.files, undefined).splits.map((s) => s.split)).toEqual(["train", "validation"]);
		// No keyword anywhere: everything is train; hidden files and the card are not data.
		expect(datasetLayout(JSONL.files, undefined).splits).toEqual([{ split: "train", files: ["data.jsonl"] }]);
		expect(singleFileSplits(datasetLayout(SHARDED.files, undefined))).toBeUndefined();
		expect(singleFileSplits(datasetLayout(IMAGES.files, undefined))).toBeUndefined();
	});
});

describe("Use this dataset", () => {
	it("offers what the files allow, in menu order; git only for the public hub", () => {
		expect(datasetLibrariesFor(PUSHED, { hubUrl: HUB })).toEqual([
			"datasets",
			"pandas",
			"polars",
			"duckdb",
			"huggingface_hub",
			"hf-cli",
		]);
		expect(datasetLibrariesFor(PUSHED)).toContain("git");
		// Shards and pictures: no one-file-per-split table, so no pandas or polars.
		expect(datasetLibrariesFor(SHARDED, { hubUrl: HUB })).toEqual(["datasets", "huggingface_hub", "hf-cli"]);
		expect(datasetLibrariesFor(IMAGES, { hubUrl: HUB })).toEqual(["datasets", "huggingface_hub", "hf-cli"]);
		// A private dataset on another hub: polars and DuckDB would need a header they are not shown.
		expect(datasetLibrariesFor(JSONL, { hubUrl: HUB })).not.toContain("polars");
		expect(datasetLibrariesFor(JSONL, { hubUrl: HUB })).not.toContain("duckdb");
		expect(datasetLibrariesFor(JSONL)).toContain("polars");
		expect(datasetLibrariesFor(JSONL)).toContain("duckdb");
		// An empty repository has nothing for datasets to load.
		expect(datasetLibrariesFor({ id: "a/b", files: [".gitattributes"] }, { hubUrl: HUB })).toEqual([
			"huggingface_hub",
			"hf-cli",
		]);
	});

	it("writes each snippet from the data: endpoint, id, config, splits and reader", () => {
		expect(blocks("datasets", PUSHED, HUB)[0]?.code).toBe(
			[
				"import os",
				"",
				"# The dataset's files are on this hub; set before importing any library (it is read once, at import)",
				`os.environ["HF_ENDPOINT"] = "${HUB}"`,
				"",
				"from datasets import load_dataset",
				"",
				'ds = load_dataset("alice/tiny-ds")',
			].join("\n"),
		);
		expect(blocks("datasets", CONFIGS)[0]?.code).toContain('load_dataset("bob/two-configs", "en")');
		expect(blocks("pandas", PUSHED, HUB)[0]?.code).toContain(
			'splits = {"train": "data/train-00000-of-00001.parquet", "test": "data/test-00000-of-00001.parquet"}\n' +
				'df = pd.read_parquet("hf://datasets/alice/tiny-ds/" + splits["train"])',
		);
		expect(blocks("pandas", CSV)[0]?.code).toContain(
			'pd.read_csv("hf://datasets/bob/table/" + splits["train"])',
		);
		expect(blocks("pandas", JSONL, HUB)[0]?.code).toContain(
			'df = pd.read_json("hf://datasets/bob/lines/data.jsonl", lines=True)',
		);
		expect(blocks("pandas", JSONL, HUB)[0]?.code).toContain("# Private dataset: set HF_TOKEN");
		expect(blocks("polars", PUSHED)[0]?.code).toContain(
			'pl.read_parquet("hf://datasets/alice/tiny-ds/" + splits["train"])',
		);
		expect(blocks("polars", PUSHED, HUB)[0]?.code).toContain(
			`pl.read_parquet("${HUB}/datasets/alice/tiny-ds/resolve/main/" + splits["train"])`,
		);
		expect(blocks("polars", PUSHED, HUB)[0]?.code).not.toContain("HF_ENDPOINT");
		expect(blocks("duckdb", PUSHED)[0]?.code).toBe(
			[
				"import duckdb",
				"",
				`duckdb.sql("SELECT * FROM read_parquet('hf://datasets/alice/tiny-ds/data/train-00000-of-00001.parquet') LIMIT 10").show()`,
			].join("\n"),
		);
		expect(blocks("duckdb", PUSHED, HUB)[0]?.code).toContain(
			`read_parquet('${HUB}/datasets/alice/tiny-ds/resolve/main/data/train-00000-of-00001.parquet')`,
		);
		expect(blocks("duckdb", CSV)[0]?.code).toContain("read_csv('hf://datasets/bob/table/");
		// A private dataset on the public hub: the secret that reads the saved token, never a token.
		expect(blocks("duckdb", JSONL)[0]?.code).toContain(
			`duckdb.sql("CREATE SECRET hf_token (TYPE huggingface, PROVIDER credential_chain)")`,
		);
		expect(blocks("duckdb", JSONL)[0]?.code).toContain(
			"read_json('hf://datasets/bob/lines/data.jsonl', format = 'newline_delimited')",
		);
		expect(blocks("huggingface_hub", JSONL, HUB)[0]?.code).toContain(
			'snapshot_download(repo_id="bob/lines", repo_type="dataset")',
		);
		expect(blocks("hf-cli", PUSHED, HUB)[0]?.code).toBe(
			`HF_ENDPOINT=${HUB} hf download alice/tiny-ds --repo-type dataset`,
		);
		expect(blocks("git", PUSHED)[0]?.code).toContain(
			"git clone https://huggingface.co/datasets/alice/tiny-ds",
		);
	});

	it("parses: every Python block with python3's ast, every shell block with bash -n; literals hold the data", () => {
		const python: string[] = [];
		const shell: string[] = [];
		for (const dataset of ALL)
			for (const hubUrl of [undefined, HUB])
				for (const key of datasetLibrariesFor(dataset, hubUrl ? { hubUrl } : {}))
					for (const block of blocks(key, dataset, hubUrl))
						(block.language === "python" ? python : shell).push(block.code);
		expect(python.length).toBeGreaterThan(20);
		const parsed = parsePython(python);
		expect(parsed.filter((result) => !result.ok)).toEqual([]);
		// The odd id and file name arrive intact as string values, never as code.
		const odd = parsed.flatMap((result) => (result.ok ? result.strings : []));
		expect(odd).toContain('eve/odd"name');
		expect(odd.some((text) => text.endsWith('it\'s "x".csv'))).toBe(true);
		expect(bashSyntaxErrors(shell).filter((error) => error !== null)).toEqual([]);
	});
});
