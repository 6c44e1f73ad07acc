import { describe, expect, it } from "vitest";
import type { ModelDetail } from "../api/models";
import { displayTags, isConversational, modelFacts, modelHref, splitModelId, toModelData } from "./model";

const model: ModelDetail = {
	id: "acme/chat-7b",
	author: "acme",
	pipeline_tag: "text-generation",
	library_name: "transformers",
	tags: ["transformers", "conversational", "license:apache-2.0", "en"],
	downloads: 123456,
	likes: 789,
	lastModified: "2025-01-02T03:04:05.000Z",
	config: { architectures: ["LlamaForCausalLM"], model_type: "llama" },
	cardData: { base_model: ["acme/base-7b"] },
	transformersInfo: { auto_model: "AutoModelForCausalLM", processor: "AutoTokenizer" },
	mask_token: "<mask>",
};

describe("model view", () => {
	it("splits ids and builds page links", () => {
		expect(splitModelId("a/b")).toEqual({ namespace: "a", name: "b" });
		expect(splitModelId("gpt2")).toEqual({ namespace: "", name: "gpt2" });
		expect(modelHref("org/name with space")).toBe("/org/name%20with%20space");
	});

	it("lists the facts people look for", () => {
		const facts = modelFacts(model, (key) => (key === "transformers" ? "Transformers" : undefined));
		expect(facts).toEqual([
			{ term: "Task", value: "Text Generation", href: "/tasks/text-generation" },
			{ term: "Library", value: "Transformers", href: "/libraries/transformers" },
			{ term: "Downloads", value: "123,456" },
			{ term: "Likes", value: "789" },
			{ term: "Updated", value: "Jan 2, 2025" },
			{ term: "Architecture", value: "LlamaForCausalLM" },
			{ term: "Base model", value: "acme/base-7b", href: "/acme/base-7b" },
			{ term: "License", value: "apache-2.0" },
		]);
	});

	it("splits prefixed tags", () => {
		expect(displayTags(["license:mit", "en", "a:"])).toEqual([
			{ tag: "license:mit", kind: "license", label: "mit" },
			{ tag: "en", label: "en" },
			{ tag: "a:", label: "a:" },
		]);
	});

	it("keeps what snippet generators read", () => {
		const data = toModelData(model);
		expect(data).toMatchObject({
			id: "acme/chat-7b",
			pipeline_tag: "text-generation",
			library_name: "transformers",
			mask_token: "<mask>",
			config: { architectures: ["LlamaForCausalLM"] },
		});
		expect(isConversational(model)).toBe(true);
		expect(isConversational({ tags: [] })).toBe(false);
	});
});
