import { describe, expect, it } from "vitest";
import type { ModelDetail } from "../api/models";
import {
	cardBody,
	cardMetadata,
	isConversational,
	modelHref,
	modelLicense,
	modelSize,
	ggufFacts,
	parameterTypes,
	splitModelId,
	toModelData,
} from "./model";

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

	it("names the license, preferring the card's license name for other licenses", () => {
		expect(modelLicense(model)).toBe("apache-2.0");
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

describe("model card helpers", () => {
	it("drops the YAML front matter and keeps the rest byte for byte", () => {
		expect(cardBody("---\nlicense: mit\ntags:\n- a\n---\n# Title\n\nText\n")).toBe("# Title\n\nText\n");
		expect(cardBody("\uFEFF---\r\nlicense: mit\r\n---\r\nBody")).toBe("Body");
		expect(cardBody("---\n---\nBody")).toBe("Body");
		// A thematic break later on, or an unclosed block, is not front matter.
		expect(cardBody("# Title\n---\ntext")).toBe("# Title\n---\ntext");
		expect(cardBody("---\nlicense: mit\n")).toBe("---\nlicense: mit\n");
	});

	it("lists the card data as metadata, and names license and size", () => {
		expect(
			cardMetadata({ license: "other", license_name: "qwen", language: ["en", "zh"], widget: [{}] }),
		).toEqual([
			{ label: "License", values: ["other"] },
			{ label: "License name", values: ["qwen"] },
			{ label: "Languages", values: ["en", "zh"] },
		]);
		expect(modelLicense({ cardData: { license: "other", license_name: "qwen" }, tags: [] })).toBe("qwen");
		expect(modelLicense({ tags: ["license:mit"] })).toBe("mit");
		expect(modelSize({ safetensors: { total: 8_030_261_248 } })).toBe("8.03B params");
		expect(modelSize({ gguf: { total: 494_032_768 } })).toBe("494M params");
		expect(modelSize({})).toBeUndefined();
	});
});

describe("ggufFacts", () => {
	it("names the architecture, the context length and a chat template, from the GGUF header's facts", () => {
		expect(
			ggufFacts({
				gguf: { total: 494_032_768, architecture: "qwen2", context_length: 32768, chat_template: "{{x}}" },
			}),
		).toBe("qwen2 · 32,768-token context · chat template");
		expect(ggufFacts({ gguf: { architecture: "llama" } })).toBe("llama");
	});

	it("leaves out what the header did not give or gave in another shape", () => {
		expect(ggufFacts({})).toBeUndefined();
		expect(ggufFacts({ gguf: { total: 12 } })).toBeUndefined();
		// As another hub might send it: JSON of other shapes.
		const odd = JSON.parse('{"architecture":"","context_length":-1,"chat_template":3}') as {
			architecture: string;
		};
		expect(ggufFacts({ gguf: odd })).toBeUndefined();
	});
});

describe("parameterTypes", () => {
	it("lists the parameter count of each tensor type, largest first", () => {
		expect(parameterTypes({ safetensors: { parameters: { F32: 1_200_000, BF16: 8_030_261_248 } } })).toBe(
			"BF16 8.03B · F32 1.2M",
		);
	});

	it("skips empty and malformed counts", () => {
		expect(parameterTypes({})).toBeUndefined();
		expect(parameterTypes({ safetensors: { parameters: {} } })).toBeUndefined();
		expect(parameterTypes({ safetensors: { parameters: { F32: 0, I64: Number.NaN } } })).toBeUndefined();
	});
});
