import { describe, expect, it } from "vitest";
import { globMatcher } from "./glob.js";
import { datasetLayout, type LayoutFile } from "./layout.js";
import { isValidOrderBy, isValidWhere } from "./where.js";

function files(...paths: string[]): LayoutFile[] {
	return paths.map((path, index) => ({ path, size: 10 + index, sha256: String(index).padStart(64, "0") }));
}

function splitsOf(
	card: Record<string, unknown> | undefined,
	...paths: string[]
): Record<string, Record<string, string[]>> {
	return Object.fromEntries(
		datasetLayout(card, files(...paths)).map((config) => [
			config.name,
			Object.fromEntries(config.splits.map((split) => [split.name, split.files.map((file) => file.path)])),
		]),
	);
}

describe("configs and splits as the datasets library derives them", () => {
	it("reads a folder of audio files (audiofolder): its audio files only, and the metadata files its splits' patterns match", () => {
		const layout = (...paths: string[]) =>
			datasetLayout(undefined, files(...paths)).map((config) => ({
				otherFormat: config.otherFormat,
				hasMetadata: config.hasMetadata ?? false,
				splits: Object.fromEntries(
					config.splits.map((split) => [split.name, split.files.map((file) => file.path)]),
				),
			}));
		// As datasets 5.0.1 resolves them (load_dataset_builder("audiofolder", data_dir=…).config.data_files):
		// a metadata file at the root is in no split when the files' folders name the splits…
		expect(
			layout("train/cat/a.wav", "train/dog/b.wav", "test/cat/c.wav", "metadata.csv", "train/notes.txt"),
		).toEqual([
			{
				otherFormat: "audiofolder",
				hasMetadata: false,
				splits: { train: ["train/cat/a.wav", "train/dog/b.wav"], test: ["test/cat/c.wav"] },
			},
		]);
		// …and in the split when everything is one split, or when it sits in the split's folder.
		expect(layout("a.wav", "metadata.csv")).toEqual([
			{ otherFormat: "audiofolder", hasMetadata: true, splits: { train: ["a.wav"] } },
		]);
		expect(layout("train/a.wav", "train/metadata.jsonl")).toEqual([
			{ otherFormat: "audiofolder", hasMetadata: true, splits: { train: ["train/a.wav"] } },
		]);
		// Other formats never read a metadata file as data.
		expect(splitsOf(undefined, "data.csv", "metadata.csv")).toEqual({ default: { train: ["data.csv"] } });
	});

	it("reads push_to_hub's sharded names first, known splits first", () => {
		expect(
			splitsOf(
				undefined,
				"data/zeta-00000-of-00001.parquet",
				"data/test-00000-of-00001.parquet",
				"data/train-00000-of-00002.parquet",
				"data/train-00001-of-00002.parquet",
				"README.md",
			),
		).toEqual({
			default: {
				test: ["data/test-00000-of-00001.parquet"],
				train: ["data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet"],
				zeta: ["data/zeta-00000-of-00001.parquet"],
			},
		});
	});

	it("reads split keywords in folder names before file names, delimited by non-word characters", () => {
		expect(splitsOf(undefined, "data/train/a.csv", "data/dev/b.csv", "test.csv")).toEqual({
			default: { train: ["data/train/a.csv"], validation: ["data/dev/b.csv"] },
		});
		expect(
			splitsOf(undefined, "my_train_file.csv", "train1.csv", "valid.csv", "testfile.csv", "eval-set.csv"),
		).toEqual({
			default: {
				train: ["my_train_file.csv", "train1.csv"],
				validation: ["valid.csv"],
				test: ["eval-set.csv"],
			},
		});
		// No keyword: everything is train; hidden files and the card are no data.
		expect(splitsOf(undefined, "rows.jsonl", ".hidden/x.jsonl", "README.md", "__pycache__/y.jsonl")).toEqual({
			default: { train: ["rows.jsonl"] },
		});
	});

	it("reads the card's configs: patterns, lists, split entries, data_dir, the default first", () => {
		const card = {
			configs: [
				{ config_name: "a", data_files: "a/*.csv" },
				{
					config_name: "b",
					data_files: [
						{ split: "train", path: ["b/x-*.parquet"] },
						{ split: "test", path: "b/y.parquet" },
					],
				},
				{ config_name: "c", data_dir: "c", default: true },
				"not a config",
			],
		};
		expect(
			splitsOf(
				card,
				"a/1.csv",
				"a/2.csv",
				"a/sub/3.csv",
				"b/x-1.parquet",
				"b/y.parquet",
				"c/train.jsonl",
				"c/test.jsonl",
			),
		).toEqual({
			c: { train: ["c/train.jsonl"], test: ["c/test.jsonl"] },
			a: { train: ["a/1.csv", "a/2.csv"] },
			b: { train: ["b/x-1.parquet"], test: ["b/y.parquet"] },
		});
		const [images] = datasetLayout(undefined, files("train/cat/1.png", "train/dog/2.png"));
		expect(images).toMatchObject({ name: "default", format: undefined, otherFormat: "imagefolder" });
	});
});

describe("glob patterns", () => {
	it("matches as fsspec's glob: * within a segment, **/ across whole segments", () => {
		expect(globMatcher("**/train/**")("data/train/a.csv")).toBe(true);
		expect(globMatcher("**/train/**")("train/a.csv")).toBe(true);
		expect(globMatcher("**/train/**")("xtrain/a.csv")).toBe(false);
		expect(globMatcher("data/*.csv")("data/sub/a.csv")).toBe(false);
		expect(globMatcher("data/[!x]?.csv")("data/ab.csv")).toBe(true);
		expect(globMatcher("data/[!x]?.csv")("data/xb.csv")).toBe(false);
	});

	it("answers patterns that make a backtracking matcher explode (a hang would time the test out)", () => {
		expect(globMatcher(`${"*a".repeat(40)}b`)("a".repeat(1000))).toBe(false);
		expect(globMatcher(`${"**/a".repeat(30)}/b`)("a/".repeat(500) + "c")).toBe(false);
	});
});

describe("where and orderby", () => {
	it("lets through the public viewer's clauses", () => {
		for (const where of [
			`"a" = 1`,
			`("a" >= 1.5 AND "b" ILIKE '%x%') OR "c" IS NOT NULL`,
			`"s"."t" = 'it''s'`,
			`"n".len() > 3`,
		]) {
			expect(isValidWhere(where), where).toBe(true);
		}
		expect(isValidOrderBy(`"a" DESC, "b"`)).toBe(true);
	});

	it("refuses anything else", () => {
		for (const where of [
			`a = 1`,
			`"a" = 1; SELECT 1`,
			`"a" = (SELECT 1)`,
			`"a" IN (1, 2)`,
			`"a" = read_csv('x')`,
			`"a" = 1 /* x */`,
			`"a" = 'open`,
			`("a" = 1`,
			`"a" = 1)`,
			"",
		]) {
			expect(isValidWhere(where), where).toBe(false);
		}
		expect(isValidOrderBy(`"a" DESC; DROP`)).toBe(false);
		expect(isValidOrderBy(`random()`)).toBe(false);
	});
});

describe("a folder dataset's .zip archives", () => {
	const paths = (...names: string[]): LayoutFile[] =>
		names.map((path, index) => ({ path, size: 100 + index, sha256: String(index).padStart(64, "0") }));

	it("make an imagefolder whose splits come from the archives' paths, as plain files' do", () => {
		const archives = new Map([
			["train/images.zip", ["cat/1.png", "dog/2.png"]],
			["test/images.zip", ["cat/3.png"]],
		]);
		const [config, ...others] = datasetLayout(
			undefined,
			paths("train/images.zip", "test/images.zip", "README.md"),
			archives,
		);
		expect(others).toEqual([]);
		expect(config?.otherFormat).toBe("imagefolder");
		expect(config?.format).toBeUndefined();
		expect(config?.hasMetadata).toBeUndefined();
		expect(
			config?.splits.map((split) => [split.name, split.files, split.archives?.map((file) => file.path)]),
		).toEqual([
			["train", [], ["train/images.zip"]],
			["test", [], ["test/images.zip"]],
		]);
	});

	it("find metadata files inside the archives and beside them", () => {
		const inside = datasetLayout(
			undefined,
			paths("train/images.zip"),
			new Map([["train/images.zip", ["a.png", "metadata.csv"]]]),
		);
		expect(inside[0]?.hasMetadata).toBe(true);
		expect(inside[0]?.labels).toBe("never");
		const beside = datasetLayout(
			undefined,
			paths("train/images.zip", "train/metadata.csv"),
			new Map([["train/images.zip", ["a.png"]]]),
		);
		expect(beside[0]?.hasMetadata).toBe(true);
		expect(beside[0]?.splits[0]?.metadata?.map((file) => file.path)).toEqual(["train/metadata.csv"]);
	});

	it("are not a folder when they hold other files, lose to more plain files, or were not listed", () => {
		const csv = datasetLayout(undefined, paths("data.zip"), new Map([["data.zip", ["a.csv", "b.csv"]]]));
		expect(csv[0]?.otherFormat).not.toBe("imagefolder");
		const parquet = datasetLayout(
			undefined,
			paths("a.parquet", "images.zip"),
			new Map([["images.zip", ["a.png"]]]),
		);
		expect(parquet[0]?.format).toBe("parquet");
		const unlisted = datasetLayout(undefined, paths("images.zip"));
		expect(unlisted[0]?.otherFormat).not.toBe("imagefolder");
		expect(unlisted[0]?.splits[0]?.archives).toBeUndefined();
		// A tie of counts goes to the zip against image extensions (datasets sorts `.zip` after `.png`).
		const tie = datasetLayout(
			undefined,
			paths("train/a.png", "train/b.zip"),
			new Map([["train/b.zip", ["c.png"]]]),
		);
		expect(tie[0]?.splits[0]?.archives?.map((file) => file.path)).toEqual(["train/b.zip"]);
		expect(tie[0]?.splits[0]?.files.map((file) => file.path)).toEqual(["train/a.png"]);
	});
});
