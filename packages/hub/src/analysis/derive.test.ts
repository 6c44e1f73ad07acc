import { describe, expect, it } from "vitest";
import { deriveMetadata } from "./derive.js";
import { MAX_ANALYSED_JSON_BYTES, parseJsonObject } from "./json.js";
import type { RevisionSnapshot } from "./snapshot.js";
import { autoClassOf } from "./transformers.js";

function snapshot(
	paths: string[],
	json: RevisionSnapshot["json"] = {},
	extra: Partial<RevisionSnapshot> = {},
): RevisionSnapshot {
	return { files: paths.map((path) => ({ path, size: 10 })), json, ...extra };
}

const BERT_TOKENIZER = {
	mask_token: "[MASK]",
	pad_token: "[PAD]",
	unk_token: "[UNK]",
	model_max_length: 512,
};

describe("deriveMetadata", () => {
	it("files a transformers sequence classifier as text-classification with its auto classes", () => {
		const derived = deriveMetadata(
			snapshot(["config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json", "vocab.txt"], {
				"config.json": {
					architectures: ["BertForSequenceClassification"],
					model_type: "bert",
					hidden_size: 32,
				},
				"tokenizer_config.json": BERT_TOKENIZER,
			}),
		);
		expect(derived.library_name).toBe("transformers");
		expect(derived.pipeline_tag).toBe("text-classification");
		expect(derived.transformersInfo).toEqual({
			auto_model: "AutoModelForSequenceClassification",
			pipeline_tag: "text-classification",
			processor: "AutoTokenizer",
		});
		expect(derived.config).toEqual({
			architectures: ["BertForSequenceClassification"],
			model_type: "bert",
			tokenizer_config: { mask_token: "[MASK]", pad_token: "[PAD]", unk_token: "[UNK]" },
		});
		expect(derived.mask_token).toBe("[MASK]");
		expect(derived.tags.slice(0, 4)).toEqual(["transformers", "safetensors", "bert", "text-classification"]);
		expect(derived.widgetData?.[0]).toHaveProperty("text");
	});

	it("files GPT-2 as text-generation, a chat template as conversational", () => {
		const derived = deriveMetadata(
			snapshot(["config.json", "model.safetensors", "tokenizer_config.json", "vocab.json"], {
				"config.json": { architectures: ["GPT2LMHeadModel"], model_type: "gpt2" },
				"tokenizer_config.json": { eos_token: "<|endoftext|>", chat_template: "{{ messages }}" },
			}),
		);
		expect(derived.pipeline_tag).toBe("text-generation");
		expect(derived.transformersInfo?.auto_model).toBe("AutoModelForCausalLM");
		expect(derived.config?.tokenizer_config).toEqual({
			eos_token: "<|endoftext|>",
			chat_template: "{{ messages }}",
		});
		expect(derived.tags).toContain("conversational");
	});

	it("replaces the default fill-mask input's mask with the model's mask token", () => {
		const derived = deriveMetadata(
			snapshot(["config.json", "tokenizer_config.json"], {
				"config.json": { architectures: ["BertForMaskedLM"], model_type: "bert" },
				"tokenizer_config.json": BERT_TOKENIZER,
			}),
		);
		expect(derived.pipeline_tag).toBe("fill-mask");
		expect(JSON.stringify(derived.widgetData)).toContain("[MASK]");
		expect(JSON.stringify(derived.widgetData)).not.toContain("<mask>");
	});

	it("tells apart the families of *ForConditionalGeneration", () => {
		expect(autoClassOf("WhisperForConditionalGeneration")?.pipelineTag).toBe("automatic-speech-recognition");
		expect(autoClassOf("T5ForConditionalGeneration")?.autoModel).toBe("AutoModelForSeq2SeqLM");
		expect(autoClassOf("Gemma3ForConditionalGeneration")?.pipelineTag).toBe("image-text-to-text");
		expect(autoClassOf("MusicgenForConditionalGeneration")?.pipelineTag).toBe("text-to-audio");
		expect(autoClassOf("ViTForImageClassification")?.pipelineTag).toBe("image-classification");
		expect(autoClassOf("BertModel")).toEqual({ autoModel: "AutoModel", pipelineTag: "feature-extraction" });
		expect(autoClassOf("Model")).toBeUndefined();
	});

	it("picks the processor by the files a processor writes", () => {
		const whisper = deriveMetadata(
			snapshot(["config.json", "preprocessor_config.json", "tokenizer_config.json"], {
				"config.json": { architectures: ["WhisperForConditionalGeneration"], model_type: "whisper" },
				"preprocessor_config.json": { feature_extractor_type: "WhisperFeatureExtractor" },
			}),
		);
		expect(whisper.transformersInfo?.processor).toBe("AutoProcessor");
		const vit = deriveMetadata(
			snapshot(["config.json", "preprocessor_config.json"], {
				"config.json": { architectures: ["ViTForImageClassification"], model_type: "vit" },
				"preprocessor_config.json": { image_processor_type: "ViTImageProcessor" },
			}),
		);
		expect(vit.transformersInfo?.processor).toBe("AutoImageProcessor");
		const ast = deriveMetadata(
			snapshot(["config.json", "preprocessor_config.json"], {
				"config.json": {
					architectures: ["ASTForAudioClassification"],
					model_type: "audio-spectrogram-transformer",
				},
				"preprocessor_config.json": { feature_extractor_type: "ASTFeatureExtractor" },
			}),
		);
		expect(ast.transformersInfo?.processor).toBe("AutoFeatureExtractor");
		expect(ast.pipeline_tag).toBe("audio-classification");
	});

	it("files sentence-transformers over transformers, with transformersInfo", () => {
		const derived = deriveMetadata(
			snapshot(
				[
					"config.json",
					"modules.json",
					"config_sentence_transformers.json",
					"tokenizer.json",
					"1_Pooling/config.json",
				],
				{
					"config.json": { architectures: ["BertModel"], model_type: "bert" },
				},
			),
		);
		expect(derived.library_name).toBe("sentence-transformers");
		expect(derived.pipeline_tag).toBe("sentence-similarity");
		expect(derived.transformersInfo).toEqual({
			auto_model: "AutoModel",
			pipeline_tag: "feature-extraction",
			processor: "AutoTokenizer",
		});
	});

	it("files a peft adapter under peft with config.peft, not transformers", () => {
		const derived = deriveMetadata(
			snapshot(
				["adapter_config.json", "adapter_model.safetensors", "config.json", "README.md"],
				{
					"adapter_config.json": {
						base_model_name_or_path: "alice/tiny-gpt2",
						task_type: "CAUSAL_LM",
						r: 8,
						peft_type: "LORA",
					},
					"config.json": { architectures: ["GPT2LMHeadModel"], model_type: "gpt2" },
				},
				{ card: { base_model: "alice/tiny-gpt2", library_name: "peft" } },
			),
		);
		expect(derived.library_name).toBe("peft");
		expect(derived.pipeline_tag).toBe("text-generation");
		expect(derived.transformersInfo).toBeUndefined();
		expect(derived.config?.peft).toEqual({
			base_model_name_or_path: "alice/tiny-gpt2",
			task_type: "CAUSAL_LM",
		});
		expect(derived.tags).toEqual(
			expect.arrayContaining(["peft", "base_model:alice/tiny-gpt2", "base_model:adapter:alice/tiny-gpt2"]),
		);
	});

	it("files diffusers pipelines by their class", () => {
		const derived = deriveMetadata(
			snapshot(["model_index.json", "unet/config.json", "unet/diffusion_pytorch_model.safetensors"], {
				"model_index.json": { _class_name: "StableDiffusionPipeline", _diffusers_version: "0.30.0" },
			}),
		);
		expect(derived.library_name).toBe("diffusers");
		expect(derived.pipeline_tag).toBe("text-to-image");
		expect(derived.config).toEqual({ diffusers: { _class_name: "StableDiffusionPipeline" } });
		expect(derived.tags).toEqual(
			expect.arrayContaining([
				"diffusers",
				"safetensors",
				"text-to-image",
				"diffusers:StableDiffusionPipeline",
			]),
		);
		const img2img = deriveMetadata(
			snapshot(["model_index.json"], {
				"model_index.json": { _class_name: "StableDiffusionImg2ImgPipeline" },
			}),
		);
		expect(img2img.pipeline_tag).toBe("image-to-image");
	});

	it("files timm's config.json under timm, headless models as feature extractors", () => {
		const timm = (numClasses: number) =>
			deriveMetadata(
				snapshot(["config.json", "model.safetensors"], {
					"config.json": {
						architecture: "resnet18",
						num_classes: numClasses,
						num_features: 512,
						pretrained_cfg: { input_size: [3, 224, 224] },
					},
				}),
			);
		expect(timm(10)).toMatchObject({
			library_name: "timm",
			pipeline_tag: "image-classification",
			config: { architecture: "resnet18", num_classes: 10 },
		});
		expect(timm(0).pipeline_tag).toBe("image-feature-extraction");
		expect(timm(10).transformersInfo).toBeUndefined();
	});

	it("files skops and speechbrain layouts", () => {
		const sklearn = deriveMetadata(
			snapshot(["config.json", "skops-model.skops"], {
				"config.json": {
					sklearn: {
						model: { file: "skops-model.skops" },
						model_format: "skops",
						task: "tabular-regression",
					},
				},
			}),
		);
		expect(sklearn).toMatchObject({
			library_name: "sklearn",
			pipeline_tag: "tabular-regression",
			config: { sklearn: { model_format: "skops" } },
		});
		const speechbrain = deriveMetadata(
			snapshot(["hyperparams.yaml", "embedding_model.ckpt", "config.json"], {
				"config.json": { speechbrain_interface: "EncoderClassifier" },
			}),
		);
		expect(speechbrain).toMatchObject({
			library_name: "speechbrain",
			pipeline_tag: "audio-classification",
			config: { speechbrain: { speechbrain_interface: "EncoderClassifier" } },
		});
	});

	it("gives GGUF-only repositories no library, the gguf tag and the header's architecture", () => {
		const derived = deriveMetadata(
			snapshot(
				["model-Q4_K_M.gguf"],
				{},
				{
					weights: { ggufArchitecture: "llama", ggufChatTemplate: "{{x}}" },
					card: { base_model: "meta-llama/Llama-3.1-8B" },
				},
			),
		);
		expect(derived.library_name).toBeUndefined();
		expect(derived.config).toEqual({ model_type: "llama" });
		expect(derived.tags).toEqual([
			"gguf",
			"llama",
			"base_model:meta-llama/Llama-3.1-8B",
			"base_model:quantized:meta-llama/Llama-3.1-8B",
			"conversational",
		]);
	});

	it("takes tags from the card: datasets, languages, licence, arXiv links, stated relations", () => {
		const derived = deriveMetadata(
			snapshot(
				["config.json"],
				{ "config.json": { architectures: ["BertForTokenClassification"], model_type: "bert" } },
				{
					card: {
						tags: ["ner"],
						datasets: ["conll2003"],
						language: ["en", "de"],
						license: "mit",
						base_model: ["a/x", "b/y"],
						pipeline_tag: "token-classification",
					},
					readme: "See https://arxiv.org/abs/1810.04805 and arxiv.org/pdf/2106.04624v2.",
				},
			),
		);
		expect(derived.tags).toEqual([
			"transformers",
			"bert",
			"token-classification",
			"ner",
			"dataset:conll2003",
			"en",
			"de",
			"arxiv:1810.04805",
			"arxiv:2106.04624",
			"base_model:a/x",
			"base_model:b/y",
			"base_model:merge:a/x",
			"base_model:merge:b/y",
			"license:mit",
		]);
		const stated = deriveMetadata(
			snapshot([], {}, { card: { base_model: "a/x", base_model_relation: "quantized" } }),
		);
		expect(stated.tags).toContain("base_model:quantized:a/x");
	});

	it("lets the card's library decide the task and tags, but keeps the derived library apart", () => {
		const derived = deriveMetadata(
			snapshot(
				["config.json"],
				{ "config.json": { architectures: ["BertModel"], model_type: "bert" } },
				{ card: { library_name: "sentence-transformers" } },
			),
		);
		expect(derived.library_name).toBe("transformers");
		expect(derived.pipeline_tag).toBe("sentence-similarity");
		expect(derived.tags[0]).toBe("sentence-transformers");
	});

	it("derives nothing from files it does not know", () => {
		expect(deriveMetadata(snapshot(["weights.bin", "notes.txt"]))).toEqual({ tags: [] });
	});
});

describe("parseJsonObject", () => {
	const bytes = (text: string) => new TextEncoder().encode(text);
	it("reads objects and refuses what analysis cannot use", () => {
		expect(parseJsonObject(bytes('{"a": 1}'))).toEqual({ ok: true, value: { a: 1 } });
		expect(parseJsonObject(bytes("[1]"))).toEqual({ ok: false, reason: "not an object" });
		expect(parseJsonObject(bytes("{"))).toEqual({ ok: false, reason: "not JSON" });
		expect(parseJsonObject(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual({ ok: false, reason: "not UTF-8" });
		expect(parseJsonObject(bytes(`{"a": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`)).ok).toBe(false);
		expect(parseJsonObject(bytes('{"a": "\\u0000"}'))).toEqual({ ok: false, reason: "unstorable JSON" });
		expect(parseJsonObject(new Uint8Array(MAX_ANALYSED_JSON_BYTES + 1))).toEqual({
			ok: false,
			reason: "too large",
		});
	});
});
