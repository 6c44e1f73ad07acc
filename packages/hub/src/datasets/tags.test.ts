import { describe, expect, it } from "vitest";
import { readmeFacts } from "./readme.js";
import { cardRowCount, dataFormat, datasetTags, sizeCategory } from "./tags.js";

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
		const numbers = { dataset_info: { features: [{ name: "x", dtype: "float64" }] } };
		expect(datasetTags([], numbers)).toEqual(["modality:tabular"]);
		expect(datasetTags(["clip.wav"].map(file), undefined)).toEqual([
			"format:audiofolder",
			"modality:audio",
			"library:datasets",
		]);
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
