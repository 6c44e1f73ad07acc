import { describe, expect, it } from "vitest";
import { searchItems, type SearchItem } from "./search";

const items: SearchItem[] = [
	{
		kind: "task",
		id: "text-classification",
		label: "Text Classification",
		href: "/tasks/text-classification",
	},
	{
		kind: "task",
		id: "image-classification",
		label: "Image Classification",
		href: "/tasks/image-classification",
	},
	{ kind: "task", id: "text-generation", label: "Text Generation", href: "/tasks/text-generation" },
	{ kind: "library", id: "transformers", label: "Transformers", href: "/libraries/transformers" },
	{
		kind: "library",
		id: "sentence-transformers",
		label: "sentence-transformers",
		href: "/libraries/sentence-transformers",
	},
];

describe("searchItems", () => {
	it("ranks prefix matches before word matches before substrings", () => {
		// Equal ranks: the shorter label first.
		expect(searchItems(items, "class").map((item) => item.id)).toEqual([
			"text-classification",
			"image-classification",
		]);
		expect(searchItems(items, "trans").map((item) => item.id)).toEqual([
			"transformers",
			"sentence-transformers",
		]);
		expect(searchItems(items, "text").map((item) => item.id)[0]).toMatch(/^text-/);
	});

	it("needs every word, ignores case, dashes and accents", () => {
		expect(searchItems(items, "TEXT gen").map((item) => item.id)).toEqual(["text-generation"]);
		expect(searchItems(items, "séntence").map((item) => item.id)).toEqual(["sentence-transformers"]);
		expect(searchItems(items, "image-class").map((item) => item.id)).toEqual(["image-classification"]);
	});

	it("gives nothing for an empty query and honours the limit", () => {
		expect(searchItems(items, "  ")).toEqual([]);
		expect(searchItems(items, "t", 2)).toHaveLength(2);
	});
});
