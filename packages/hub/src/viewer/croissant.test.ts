import { describe, expect, it } from "vitest";
import type { ViewerFeature } from "../api/viewer.js";
import {
	cardBody,
	cardCitation,
	croissantDocument,
	escapeId,
	jsonPathKey,
	splitRegex,
	type JsonLd,
} from "./croissant.js";

const value = (dtype: string): ViewerFeature => ({ dtype, _type: "Value" });

function recordSets(doc: JsonLd): JsonLd[] {
	return doc.recordSet as JsonLd[];
}

describe("Croissant metadata", () => {
	it("escapes ids as dataset-viewer does: unsafe characters to _, repeats made unique", () => {
		const taken = new Set<string>();
		expect(escapeId("a/b c", taken)).toBe("a_b_c");
		expect(escapeId("a/b c", taken)).toBe("a_b_c_0");
		expect(escapeId("a.b-c_d", taken)).toBe("a.b-c_d");
		expect(jsonPathKey("plain_1")).toBe("plain_1");
		expect(jsonPathKey("it's [x]")).toBe("['it\\'s \\[x\\]']");
	});

	it("reads the card's description, citation and license", () => {
		const card =
			"---\nlicense: mit\n---\n\n# Reviews\n\nShort reviews.\n\n```bibtex\n@misc{r, title={R}}\n```\n";
		expect(cardBody(card)).toBe("# Reviews\n\nShort reviews.\n\n```bibtex\n@misc{r, title={R}}\n```");
		expect(cardCitation(cardBody(card))).toBe("@misc{r, title={R}}");
		expect(cardCitation("no citation")).toBeUndefined();
		const doc = croissantDocument({
			id: "alice/reviews",
			url: "http://hub/datasets/alice/reviews",
			revision: "main",
			card,
			license: "mit",
			configs: [],
		});
		expect(doc).toMatchObject({
			name: "reviews",
			description: cardBody(card),
			license: "https://choosealicense.com/licenses/mit/",
			citeAs: "@misc{r, title={R}}",
			url: "http://hub/datasets/alice/reviews",
		});
		const bare = croissantDocument({ id: "a/b", url: "u", revision: "main", configs: [] });
		expect(bare.description).toBe("a/b dataset");
		expect(bare).not.toHaveProperty("license");
		expect(bare).not.toHaveProperty("citeAs");
	});

	it("maps features to fields: values, class labels, images, nested lists and structs; skips what has no type", () => {
		const doc = croissantDocument({
			id: "a/b",
			url: "u",
			revision: "main",
			configs: [
				{
					name: "my config",
					format: "csv",
					splits: [
						{ name: "train", files: ["train.csv"] },
						{ name: "test", files: ["test/odd[1]*.csv"] },
					],
					partial: false,
					features: {
						"n/x": value("int64"),
						label: { names: ["a", "b"], _type: "ClassLabel" },
						picture: { _type: "Image" },
						grid: { feature: { feature: value("float32"), length: 3, _type: "List" }, _type: "List" },
						meta: { "a b": value("bool"), deep: { c: value("string") } },
						odd: value("decimal128(10, 2)"),
					},
				},
			],
		});
		const distribution = doc.distribution as JsonLd[];
		expect(distribution[1]).toMatchObject({
			"@id": "csv-files-for-config-my_config",
			encodingFormat: "text/csv",
			includes: ["train.csv", "test/odd[[]1[]][*].csv"],
		});
		const [splits, fields] = recordSets(doc);
		expect(splits?.data).toEqual([
			{ "my_config_splits/split_name": "train" },
			{ "my_config_splits/split_name": "test" },
		]);
		const fileSet = { "@id": "csv-files-for-config-my_config" };
		expect(fields?.field).toEqual([
			{
				"@type": "cr:Field",
				"@id": "my_config/split",
				dataType: "sc:Text",
				source: {
					fileSet,
					extract: { fileProperty: "fullpath" },
					transform: { regex: "(train)\\.csv$|(test)/odd\\[[0-9]+\\]\\*\\.csv$" },
				},
				references: { field: { "@id": "my_config_splits/split_name" } },
			},
			{
				"@type": "cr:Field",
				"@id": "my_config/n_x",
				dataType: "cr:Int64",
				source: { fileSet, extract: { column: "n/x" } },
			},
			{
				"@type": "cr:Field",
				"@id": "my_config/label",
				dataType: "sc:Integer",
				source: { fileSet, extract: { column: "label" } },
			},
			{
				"@type": "cr:Field",
				"@id": "my_config/picture",
				dataType: "sc:ImageObject",
				source: { fileSet, extract: { column: "picture" }, transform: { jsonPath: "bytes" } },
			},
			{
				"@type": "cr:Field",
				"@id": "my_config/grid",
				dataType: "cr:Float32",
				source: { fileSet, extract: { column: "grid" } },
				isArray: true,
				arrayShape: "-1,3",
			},
			{
				"@type": "cr:Field",
				"@id": "my_config/meta",
				subField: [
					{
						"@type": "cr:Field",
						"@id": "my_config/meta/a_b",
						dataType: "sc:Boolean",
						source: { fileSet, extract: { column: "meta" }, transform: { jsonPath: "['a b']" } },
					},
					{
						"@type": "cr:Field",
						"@id": "my_config/meta/deep",
						subField: [
							{
								"@type": "cr:Field",
								"@id": "my_config/meta/deep/c",
								dataType: "sc:Text",
								source: {
									fileSet,
									extract: { column: "meta" },
									transform: [{ jsonPath: "deep" }, { jsonPath: "c" }],
								},
							},
						],
					},
				],
			},
		]);
		expect(fields?.description).toBe(
			"a/b - 'my config' subset\n\nAdditional information:\n- 2 splits: train, test\n- 1 skipped column: odd",
		);
	});

	it("keeps at most maxFields fields and says how many it left out; a config named as the dataset gets a prefix", () => {
		const features = Object.fromEntries([...Array(5).keys()].map((index) => [`c${index}`, value("string")]));
		const doc = croissantDocument({
			id: "x",
			url: "u",
			revision: "main",
			maxFields: 3,
			configs: [
				{
					name: "x",
					format: "parquet",
					splits: [{ name: "train", files: ["a.parquet"] }],
					partial: false,
					features,
				},
			],
		});
		const [splits, fields] = recordSets(doc);
		expect(splits?.["@id"]).toBe("record_set_x_splits");
		expect((fields?.field as JsonLd[]).map((field) => field["@id"])).toEqual([
			"record_set_x/c0",
			"record_set_x/c1",
			"record_set_x/c2",
		]);
		expect(fields?.description).toBe(
			"x - 'x' subset\n\nAdditional information:\n- no split field: the files' paths do not tell their splits apart\n- 2 skipped columns (max number of columns reached)",
		);
		expect((doc.distribution as JsonLd[])[1]?.includes).toBe("a.parquet");
	});

	it("reads each file's split from its path with one regex, as mlcroissant applies it (match, first group)", () => {
		const splitOf = (regex: string, path: string) =>
			new RegExp(`^(?:${regex})`)
				.exec(path)
				?.slice(1)
				.find((group) => group !== undefined);
		// push_to_hub's files: one group, the shard numbers generalised.
		const pushed = [
			{ name: "train", files: ["data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet"] },
			{ name: "test", files: ["data/test-00000-of-00001.parquet"] },
		];
		expect(splitRegex(pushed)).toBe("data/(train|test)-[0-9]+-of-[0-9]+\\.parquet$");
		// Split folders, and a split name that is also a longer word's start (trainer/) elsewhere in the path.
		const folders = [
			{ name: "train", files: ["trainer/train/a.csv"] },
			{ name: "validation", files: ["trainer/validation/b.csv"] },
		];
		const folderRegex = splitRegex(folders) ?? "";
		expect(folderRegex).toBe("trainer/(train)/a\\.csv$|trainer/(validation)/b\\.csv$");
		expect(splitOf(folderRegex, "trainer/validation/b.csv")).toBe("validation");
		// Generalised digits would give a22.csv to split "a": the exact paths are used instead.
		const close = [
			{ name: "a", files: ["a2.csv"] },
			{ name: "a2", files: ["a22.csv"] },
		];
		const exact = splitRegex(close) ?? "";
		expect(exact).toBe("(a|a2)2\\.csv$");
		expect([splitOf(exact, "a2.csv"), splitOf(exact, "a22.csv")]).toEqual(["a", "a2"]);
		// Regex characters in names and paths are literal.
		const odd = [{ name: "x+y", files: ["d (1)/x+y.json"] }];
		expect(splitOf(splitRegex(odd) ?? "", "d (1)/x+y.json")).toBe("x+y");
		// A card's data_files may name a split's files anything: no regex can say that split.
		expect(splitRegex([{ name: "train", files: ["reviews.csv"] }])).toBeUndefined();
		expect(splitRegex([])).toBeUndefined();
		// 2,000 files in 7 shapes: 7 alternatives; 2,000 unlike paths: too long a regex, no split field.
		const many = [...Array(2000).keys()].map((index) => `train/${"x".repeat(index % 7)}f${index}.csv`);
		expect(splitRegex([{ name: "train", files: many }])?.split("|")).toHaveLength(7);
		const unlike = [...Array(2000).keys()].map((index) => `${"ab".repeat(index)}/train.csv`.slice(-300));
		expect(splitRegex([{ name: "train", files: unlike }])).toBeUndefined();
	});
});
