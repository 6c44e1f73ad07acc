import { describe, expect, it } from "vitest";
import { readmeFacts } from "./readme.js";
import { cardRowCount, dataFormat, datasetTags, fileTypeModalities, sizeCategory } from "./tags.js";
import {
	columnModalities,
	csvColumns,
	featuresJsonColumns,
	jsonRecordColumns,
	type DataColumn,
} from "./columns.js";

const file = (path: string) => ({ path, size: 1 });

describe("dataset tags", () => {
	it("names the size category of a row count with the public hub's bounds", () => {
		expect([0, 999, 1000, 9999, 10_000, 999_999, 1_000_000, 2e12].map(sizeCategory)).toEqual([
			"n<1K",
			"n<1K",
			"1K<n<10K",
			"1K<n<10K",
			"10K<n<100K",
			"100K<n<1M",
			"1M<n<10M",
			"n>1T",
		]);
	});

	it("picks the format of most data files, ignoring the card, metadata and hidden files", () => {
		expect(dataFormat(["README.md", ".gitattributes", "a.csv", "b.csv", "c.jsonl"].map(file))).toBe("csv");
		expect(dataFormat(["train/cat/1.png", "train/dog/2.jpg", "metadata.csv"].map(file))).toBe("imagefolder");
		expect(dataFormat(["x.parquet", "y.csv"].map(file))).toBe("parquet");
		expect(dataFormat(["README.md", ".hidden/a.csv"].map(file))).toBeUndefined();
	});

	it("counts the rows of the largest config of dataset_info", () => {
		const card = {
			dataset_info: [
				{
					config_name: "a",
					splits: [
						{ name: "train", num_examples: 10 },
						{ name: "test", num_examples: 5 },
					],
				},
				{ config_name: "b", splits: [{ name: "train", num_examples: 12 }] },
			],
		};
		expect(cardRowCount(card)).toBe(15);
		expect(cardRowCount({ dataset_info: { splits: [{ num_examples: "many" }] } })).toBeUndefined();
	});

	it("derives modality from features and folders, and keeps the card's size category", () => {
		const card = {
			license: ["mit", "cc-by-4.0"],
			size_categories: ["1K<n<10K"],
			dataset_info: {
				features: [
					{ name: "image", dtype: "image" },
					{ name: "label", dtype: { class_label: { names: { "0": "a" } } } },
					{ name: "caption", sequence: "string" },
				],
				splits: [{ name: "train", num_examples: 3 }],
			},
		};
		expect(datasetTags(["data/train-00000-of-00001.parquet"].map(file), card)).toEqual([
			"license:mit",
			"license:cc-by-4.0",
			"size_categories:1K<n<10K",
			"format:parquet",
			"modality:image",
			"modality:text",
			"library:datasets",
			"library:pandas",
			"library:polars",
		]);
		// Tabular needs two top-level numbers (the public hub's rule); one is not a table.
		const numbers = {
			dataset_info: {
				features: [
					{ name: "x", dtype: "float64" },
					{ name: "y", dtype: "int32" },
				],
			},
		};
		expect(datasetTags([], numbers)).toEqual(["modality:tabular"]);
		expect(datasetTags([], { dataset_info: { features: [{ name: "x", dtype: "float64" }] } })).toEqual([]);
		expect(datasetTags(["clip.wav"].map(file), undefined)).toEqual([
			"format:audiofolder",
			"modality:audio",
			"library:datasets",
		]);

		// Every file's type counts (the public hub's dataset-filetypes), whatever the data format: a CSV with audio
		// clips and images beside it is audio and image too; compressed files by the type inside; .tif is geospatial.
		const beside = ["data.csv", "clips/a.WAV", "clips/b.flac.gz", "thumbs/c.png", "notes/readme.md"].map(
			file,
		);
		expect(
			datasetTags(beside, undefined, 3, [{ name: "path", type: { kind: "value", dtype: "string" } }]),
		).toEqual([
			"format:csv",
			"modality:audio",
			"modality:image",
			"modality:text",
			"size_categories:n<1K",
			"library:datasets",
			"library:pandas",
			"library:polars",
		]);
		expect(
			[...fileTypeModalities(["a/b.tif", "m.glb", "v.mp4", "x.txt", "y.ogg", "z.geojson"].map(file))].sort(),
		).toEqual(["3d", "audio", "geospatial", "text", "video"]);
		expect(fileTypeModalities(["data.parquet", "README.md", "noext", ".gitattributes"].map(file)).size).toBe(
			0,
		);
	});

	it("survives hostile cards: deep features, odd types, control characters", () => {
		let deep: unknown = { dtype: "string" };
		for (let i = 0; i < 10_000; i++) deep = { sequence: deep };
		const card = {
			tags: ["ok", "bad\u0001tag", 7],
			dataset_info: { features: [deep] },
			language: { en: true },
		};
		expect(datasetTags([], card)).toEqual(["ok"]);
	});
});

describe("modalities from columns (dataset-viewer's detect_features_modalities)", () => {
	const value = (dtype: string) => ({ kind: "value", dtype }) as const;

	it("applies the public hub's rules", () => {
		const modalities = (columns: DataColumn[]) => [...columnModalities(columns)].sort();
		expect(modalities([{ name: "t", type: value("string") }])).toEqual(["text"]);
		expect(
			modalities([
				{ name: "a", type: value("int64") },
				{ name: "b", type: value("float32") },
				{ name: "c", type: value("string") },
			]),
		).toEqual(["tabular", "text"]);
		// No table beside images or audio, nor with one number, nor from booleans or class labels.
		expect(
			modalities([
				{ name: "image", type: { kind: "image" } },
				{ name: "a", type: value("int64") },
				{ name: "b", type: value("int64") },
			]),
		).toEqual(["image"]);
		expect(
			modalities([
				{ name: "a", type: value("int64") },
				{ name: "b", type: value("bool") },
				{ name: "c", type: { kind: "class_label" } },
			]),
		).toEqual([]);
		// Media and text anywhere inside lists and structs.
		expect(
			modalities([
				{ name: "clips", type: { kind: "list", of: { kind: "struct", fields: [{ kind: "audio" }] } } },
				{ name: "doc", type: { kind: "pdf" } },
				{ name: "tr", type: { kind: "translation" } },
			]),
		).toEqual(["audio", "document", "text"]);
		// Lists of float32 are time series, unless the column's name says embeddings.
		const series = { kind: "list", of: value("float32") } as const;
		expect(modalities([{ name: "signal", type: series }])).toEqual(["timeseries"]);
		expect(modalities([{ name: "text_embedding", type: series }])).toEqual([]);
	});

	it("reads features as datasets writes them in Parquet files and in cards", () => {
		expect(
			featuresJsonColumns({
				img: { _type: "Image" },
				seq: { feature: { dtype: "float32", _type: "Value" }, _type: "Sequence" },
				nested: { a: { dtype: "string", _type: "Value" } },
				old: [{ dtype: "int64", _type: "Value" }],
			}),
		).toEqual([
			{ name: "img", type: { kind: "image" } },
			{ name: "seq", type: { kind: "list", of: value("float32") } },
			{ name: "nested", type: { kind: "struct", fields: [value("string")] } },
			{ name: "old", type: { kind: "list", of: value("int64") } },
		]);
		// Column files without a card: CSV types as pandas infers them, JSON records as pyarrow does.
		expect(
			csvColumns(
				["a", "b", "c", "d"],
				[
					["1", "1", "x", "True"],
					["2", "", "3", "False"],
				],
			),
		).toEqual([
			{ name: "a", type: value("int64") },
			{ name: "b", type: value("float64") },
			{ name: "c", type: value("string") },
			{ name: "d", type: value("bool") },
		]);
		expect(
			jsonRecordColumns([
				{ n: 1, s: "x" },
				{ n: 1.5, l: [1] },
			]),
		).toEqual([
			{ name: "n", type: value("float64") },
			{ name: "s", type: value("string") },
			{ name: "l", type: { kind: "list", of: value("int64") } },
		]);
		expect(jsonRecordColumns(["p", "q"])).toEqual([{ name: "text", type: value("string") }]);
		// Any values that are not objects are datasets' one `text` column (load_dataset("json") of [1, 2]); a mix is unknown.
		expect(jsonRecordColumns([1, 2.5])).toEqual([{ name: "text", type: value("float64") }]);
		expect(jsonRecordColumns([[1], [2, 3]])).toEqual([
			{ name: "text", type: { kind: "list", of: value("int64") } },
		]);
		expect(jsonRecordColumns(["p", { a: 1 }])).toBeUndefined();
	});

	it("takes the card's columns over the files', and the files' when the card has none", () => {
		const parquet = ["data/train.parquet"].map(file);
		const numbers: DataColumn[] = [
			{ name: "a", type: value("int64") },
			{ name: "b", type: value("float64") },
		];
		expect(datasetTags(parquet, undefined, 10, numbers)).toContain("modality:tabular");
		const card = { dataset_info: { features: [{ name: "t", dtype: "string" }] } };
		expect(datasetTags(parquet, card, 10, numbers).filter((tag) => tag.startsWith("modality:"))).toEqual([
			"modality:text",
		]);
	});
});

describe("dataset card text", () => {
	it("reads the first paragraph of prose and the first BibTeX block", () => {
		const text =
			"---\nlicense: mit\n---\n# Title\n\n![badge](x.png)\n\nA **small** [set](https://x) of\nrows.\n\nMore.\n\n```bibtex\n@misc{a,\n title={A}\n}\n```\n";
		expect(readmeFacts(text)).toEqual({
			description: "A small set of rows.",
			citation: "@misc{a,\n title={A}\n}",
		});
		expect(readmeFacts("---\nonly: front\n---\n")).toEqual({});
		expect(readmeFacts("---\nnever closed\n")).toEqual({});
	});
});
