import { describe, expect, it } from "vitest";
import {
	activeChips,
	filterQuery,
	listQuery,
	patchListState,
	readListState,
	tagLinks,
	writeListState,
} from "./model-filters";

const names = {
	task: (id: string) => `T(${id})`,
	library: (key: string) => `L(${key})`,
	provider: (id: string) => `P(${id})`,
};

describe("the model list's URL state", () => {
	it("reads every filter, and writes it back without defaults", () => {
		const params = new URLSearchParams(
			"search=llama+3.3&pipeline_tag=text-generation&library=transformers&inference_provider=groq&author=meta-llama&license=llama3.3&language=en&tag=conversational&tag=conversational&sort=likes&cursor=abc",
		);
		const state = readListState(params);
		expect(state).toEqual({
			search: "llama 3.3",
			pipelineTag: "text-generation",
			library: "transformers",
			provider: "groq",
			author: "meta-llama",
			license: "llama3.3",
			language: "en",
			tags: ["conversational"],
			sort: "likes",
			cursor: "abc",
		});
		expect(readListState(writeListState(state))).toEqual(state);
		expect(writeListState(readListState(new URLSearchParams("sort=downloads"))).toString()).toBe("");
		expect(readListState(new URLSearchParams("sort=nonsense")).sort).toBe("downloads");
	});

	it("turns license, language and tags into the hub's filter values, and resets the page on a change", () => {
		const state = readListState(
			new URLSearchParams("license=mit&language=fr&tag=gguf&author=+Qwen+&cursor=x"),
		);
		expect(filterQuery(state)).toEqual({ author: "Qwen", filter: ["license:mit", "fr", "gguf"] });
		expect(listQuery(state, 20)).toMatchObject({ sort: "downloads", direction: -1, limit: 20, cursor: "x" });
		expect(listQuery({ ...state, sort: "id" }, 20).direction).toBe(1);
		expect(patchListState(state, { license: "" })).toMatchObject({ license: "", cursor: "" });
	});

	it("gives one removable chip per active filter", () => {
		const state = readListState(
			new URLSearchParams("pipeline_tag=fill-mask&inference_provider=groq&tag=a&tag=b"),
		);
		const chips = activeChips(state, names);
		expect(chips.map((chip) => chip.label)).toEqual([
			"Task: T(fill-mask)",
			"Inference provider: P(groq)",
			"Tag: a",
			"Tag: b",
		]);
		expect(chips[2]?.without).toEqual({ tags: ["b"] });
	});
});

describe("tag links", () => {
	it("links licenses, languages and other tags to the filtered list, and hides hosting tags", () => {
		expect(
			tagLinks(["license:apache-2.0", "fr", "conversational", "base_model:finetune:org/base", "region:us"]),
		).toEqual([
			{ tag: "license:apache-2.0", kind: "license", label: "apache-2.0", href: "/models?license=apache-2.0" },
			{ tag: "fr", kind: "language", label: "French", href: "/models?language=fr" },
			{ tag: "conversational", label: "conversational", href: "/models?tag=conversational" },
			{
				tag: "base_model:finetune:org/base",
				kind: "base model",
				label: "org/base",
				href: "/models?tag=base_model%3Afinetune%3Aorg%2Fbase",
			},
		]);
	});
});
