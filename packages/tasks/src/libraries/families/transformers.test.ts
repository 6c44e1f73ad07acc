import { describe, expect, it } from "vitest";
import { checkLibraryFamily } from "../../../../../test-support/library-checks.js";
import { parseJsModule, parsePython } from "../../../../../test-support/parsers.js";
import type { CodeBlock, ModelData } from "../types.js";
import { transformersLibraries } from "./transformers.js";

describe("transformers libraries", () => checkLibraryFamily(transformersLibraries));

const ID = "acme/demo-model";

function blocks(key: keyof typeof transformersLibraries, partial: Partial<ModelData> = {}): CodeBlock[] {
	const entry = transformersLibraries[key];
	if (!("codeBlocks" in entry) || !entry.codeBlocks) throw new Error(`${key} has no snippets`);
	return entry.codeBlocks({ id: ID, tags: [], inference: "", ...partial });
}

function codes(key: keyof typeof transformersLibraries, partial: Partial<ModelData> = {}): string[] {
	return blocks(key, partial).map((b) => b.code);
}

function expectPythonParses(snippets: string[]): void {
	for (const [i, result] of parsePython(snippets).entries()) {
		expect(result.ok, `${snippets[i]}\n${result.ok ? "" : result.error}`).toBe(true);
	}
}

describe("transformers generator", () => {
	it("loads the base model with AutoModel, under the verbatim warning, without transformersInfo", () => {
		const out = codes("transformers", { pipeline_tag: "fill-mask", tags: ["custom_code"] });
		expect(out).toHaveLength(1);
		expect(out[0]!.split("\n")[0]).toBe("# ⚠️ Type of model unknown");
		expect(out[0]).toContain("from transformers import AutoModel\n");
		expect(out[0]).toContain(`model = AutoModel.from_pretrained("${ID}", trust_remote_code=True)`);
		expect(out[0]).not.toContain("pipeline");
		expectPythonParses(out);
	});

	it("offers no pipeline for the tasks transformers 5 removed from pipeline()", () => {
		for (const pipeline_tag of [
			"question-answering",
			"summarization",
			"translation",
			"text2text-generation",
			"image-to-text",
			"image-to-image",
			"visual-question-answering",
		] as const) {
			const out = codes("transformers", { pipeline_tag, transformersInfo: { auto_model: "AutoModel" } });
			expect(out, pipeline_tag).toHaveLength(1);
			expect(out[0]).not.toContain("pipeline(");
		}
	});

	it("offers the pipelines transformers 5 added, and the text-to-speech alias", () => {
		for (const pipeline_tag of ["any-to-any", "text-to-speech"] as const) {
			const [pipe] = codes("transformers", { pipeline_tag, transformersInfo: { auto_model: "AutoModel" } });
			expect(pipe).toContain(`pipe = pipeline("${pipeline_tag}", model="${ID}")`);
		}
	});

	it("replaces the auto class transformers 5 removed with its successor", () => {
		const [auto] = codes("transformers", {
			transformersInfo: { auto_model: "AutoModelForVision2Seq", processor: "AutoProcessor" },
		});
		expect(auto).toContain("from transformers import AutoProcessor, AutoModelForImageTextToText\n");
		expect(auto).toContain(`model = AutoModelForImageTextToText.from_pretrained("${ID}")`);
		expect(auto).not.toContain("Vision2Seq");
	});

	it("emits the pipeline snippet first, then the auto classes, for a task in LIBRARY_TASK_MAPPING", () => {
		const [pipe, auto, ...rest] = codes("transformers", {
			pipeline_tag: "fill-mask",
			transformersInfo: { auto_model: "AutoModelForMaskedLM", processor: "AutoTokenizer" },
		});
		expect(rest).toEqual([]);
		expect(pipe).toBe(
			[
				"# Use a pipeline as a high-level helper",
				"from transformers import pipeline",
				"",
				`pipe = pipeline("fill-mask", model="${ID}")`,
			].join("\n"),
		);
		expect(auto).toBe(
			[
				"# Load model directly",
				"from transformers import AutoTokenizer, AutoModelForMaskedLM",
				"",
				`tokenizer = AutoTokenizer.from_pretrained("${ID}")`,
				`model = AutoModelForMaskedLM.from_pretrained("${ID}")`,
			].join("\n"),
		);
	});

	it("gives only the auto-class snippet when the task is missing or outside the mapping", () => {
		for (const pipeline_tag of [undefined, "text-ranking", "sentence-similarity"] as const) {
			const out = codes("transformers", { pipeline_tag, transformersInfo: { auto_model: "AutoModel" } });
			expect(out).toHaveLength(1);
			expect(out[0]).not.toContain("pipeline");
			expect(out[0]).toContain("from transformers import AutoModel\n");
		}
	});

	it("ignores transformersInfo.pipeline_tag and custom_class", () => {
		const out = codes("transformers", {
			transformersInfo: { auto_model: "AutoModel", pipeline_tag: "fill-mask", custom_class: "Custom" },
		});
		expect(out).toHaveLength(1);
		expect(out[0]).not.toContain("Custom");
	});

	it("names the processor variable after its class", () => {
		const variable = (processor: string) =>
			codes("transformers", { transformersInfo: { auto_model: "AutoModel", processor } })[0];
		expect(variable("AutoTokenizer")).toContain("tokenizer = AutoTokenizer.from_pretrained(");
		expect(variable("AutoFeatureExtractor")).toContain("extractor = AutoFeatureExtractor.from_pretrained(");
		expect(variable("AutoImageProcessor")).toContain("processor = AutoImageProcessor.from_pretrained(");
		expect(variable("AutoProcessor")).toContain("processor = AutoProcessor.from_pretrained(");
	});

	it("replaces class names that are not Python identifiers with safe defaults", () => {
		const [auto] = codes("transformers", {
			transformersInfo: { auto_model: "Evil; import os", processor: "x = 1\nimport os" },
		});
		expect(auto).toContain("from transformers import AutoProcessor, AutoModel\n");
		expect(auto).toContain(`processor = AutoProcessor.from_pretrained("${ID}")`);
		expect(auto).toContain(`model = AutoModel.from_pretrained("${ID}")`);
		expect(auto).not.toContain("import os");
	});

	it("adds the chat example only with the conversational tag and a chat template", () => {
		const base = {
			pipeline_tag: "text-generation",
			transformersInfo: { auto_model: "AutoModelForCausalLM", processor: "AutoTokenizer" },
		} as const;
		const [chat] = codes("transformers", {
			...base,
			tags: ["conversational"],
			config: { tokenizer_config: { chat_template: "{{ messages }}" } },
		});
		expect(chat).toContain(
			[
				"messages = [",
				'    {"role": "user", "content": "What is the capital of France?"},',
				"]",
				"pipe(messages)",
			].join("\n"),
		);
		const noTemplate = codes("transformers", { ...base, tags: ["conversational"] });
		const noTag = codes("transformers", { ...base, config: { tokenizer_config: { chat_template: "x" } } });
		const emptyTemplate = codes("transformers", {
			...base,
			tags: ["conversational"],
			config: { tokenizer_config: { chat_template: "" } },
		});
		for (const out of [noTemplate, noTag, emptyTemplate]) expect(out.join("\n")).not.toContain("messages");
		const namedTemplates = codes("transformers", {
			...base,
			tags: ["conversational"],
			config: { tokenizer_config: { chat_template: [{ name: "default", template: "x" }] } },
		});
		expect(namedTemplates[0]).toContain("pipe(messages)");
	});

	it("passes an image and a question as text to the image-text-to-text pipeline", () => {
		const out = codes("transformers", {
			pipeline_tag: "image-text-to-text",
			tags: ["conversational"],
			transformersInfo: { auto_model: "AutoModelForImageTextToText", processor: "AutoProcessor" },
			config: { tokenizer_config: { chat_template: "t" } },
		});
		const [chat] = out;
		expect(chat).toContain("pipe(text=messages)");
		expect(chat).toContain('"type": "image",');
		expect(chat).toContain(
			'"url": "https://cdn.britannica.com/61/93061-050-99147DCE/Statue-of-Liberty-Island-New-York-Bay.jpg",',
		);
		expect(chat).toContain('"text": "Describe this image in one sentence.",');
		expect(chat).toContain('"type": "text",');
		expectPythonParses(out);
	});

	it("does not add a chat example when there is no pipeline snippet", () => {
		const out = codes("transformers", {
			pipeline_tag: "summarization",
			tags: ["conversational"],
			transformersInfo: { auto_model: "AutoModel" },
			config: { tokenizer_config: { chat_template: "t" } },
		});
		expect(out).toHaveLength(1);
		expect(out[0]).not.toContain("messages");
	});

	it("adds trust_remote_code=True to the pipeline and every from_pretrained call for custom_code", () => {
		const out = codes("transformers", {
			tags: ["custom_code"],
			pipeline_tag: "text-generation",
			transformersInfo: { auto_model: "AutoModelForCausalLM", processor: "AutoTokenizer" },
		});
		expect(out[0]).toContain(`pipeline("text-generation", model="${ID}", trust_remote_code=True)`);
		expect(out[1]).toContain(`AutoTokenizer.from_pretrained("${ID}", trust_remote_code=True)`);
		expect(out[1]).toContain(`AutoModelForCausalLM.from_pretrained("${ID}", trust_remote_code=True)`);
		expectPythonParses(out);
	});

	it("quotes hostile ids", () => {
		const id = `x"); import os; ("`;
		const out = codes("transformers", {
			id,
			pipeline_tag: "fill-mask",
			transformersInfo: { auto_model: "AutoModel" },
		});
		expectPythonParses(out);
		expect(out[0]).toContain(`model="x\\"); import os; (\\""`);
	});
});

describe("transformers.js generator", () => {
	it("loads the model with AutoModel, under the verbatim warning, without a pipeline tag", () => {
		const [block] = blocks("transformers.js");
		expect(block?.language).toBe("javascript");
		expect(block?.code).toContain("import { AutoModel } from '@huggingface/transformers';");
		expect(block?.code).toContain("// ⚠️ Unknown pipeline tag: load the model itself");
		expect(block?.code).toContain(`const model = await AutoModel.from_pretrained('${ID}');`);
		expect(parseJsModule(block!.code).ok).toBe(true);
	});

	it("uses AutoModel for tasks Transformers.js has no pipeline for", () => {
		for (const pipeline_tag of ["image-text-to-text", "text-ranking", "sentence-similarity"] as const) {
			const [code] = codes("transformers.js", { pipeline_tag });
			expect(code, pipeline_tag).toContain(
				"// Transformers.js has no pipeline for this task: load the model itself",
			);
			expect(code).toContain(`AutoModel.from_pretrained('${ID}')`);
			expect(code).not.toContain("pipeline(");
		}
		const [alias] = codes("transformers.js", { pipeline_tag: "text-to-speech" });
		expect(alias).toContain(`await pipeline('text-to-speech', '${ID}');`);
	});

	it("builds a single-quoted ES module snippet", () => {
		const [code] = codes("transformers.js", { pipeline_tag: "feature-extraction" });
		expect(code).toContain("// npm i @huggingface/transformers");
		expect(code).toContain("import { pipeline } from '@huggingface/transformers';");
		expect(code).toContain(`const pipe = await pipeline('feature-extraction', '${ID}');`);
	});

	it("keeps quotes and backslashes in the id intact", () => {
		const id = `it's "q" \\ \u2028 end`;
		const [code] = codes("transformers.js", { id, pipeline_tag: "fill-mask" });
		const parsed = parseJsModule(code!);
		expect(parsed.ok).toBe(true);
		if (parsed.ok) expect(parsed.strings).toContain(id);
	});
});

describe("peft generator", () => {
	it("maps each PEFT TaskType to the auto class of its AutoPeftModelFor* class", () => {
		const expected = {
			CAUSAL_LM: "AutoModelForCausalLM",
			SEQ_2_SEQ_LM: "AutoModelForSeq2SeqLM",
			TOKEN_CLS: "AutoModelForTokenClassification",
			SEQ_CLS: "AutoModelForSequenceClassification",
			QUESTION_ANS: "AutoModelForQuestionAnswering",
			FEATURE_EXTRACTION: "AutoModel",
		};
		for (const [task_type, autoClass] of Object.entries(expected)) {
			const [code] = codes("peft", { config: { peft: { task_type, base_model_name_or_path: "org/base" } } });
			expect(code).toBe(
				[
					"from peft import PeftModel",
					`from transformers import ${autoClass}`,
					"",
					`base_model = ${autoClass}.from_pretrained("org/base")`,
					`model = PeftModel.from_pretrained(base_model, "${ID}")`,
				].join("\n"),
			);
		}
	});

	it("uses AutoPeftModel only for adapters without a task type, which is the only case it accepts", () => {
		for (const config of [{}, { peft: {} }, { peft: { task_type: "" } }]) {
			const [code] = codes("peft", { config });
			expect(code).toContain("from peft import AutoPeftModel\n");
			expect(code).toContain(`model = AutoPeftModel.from_pretrained("${ID}")`);
		}
		const [withTask] = codes("peft", { config: { peft: { task_type: "QUESTION_ANS" } } });
		expect(withTask).not.toContain("AutoPeftModel");
	});

	it("warns that an unknown task type is invalid and guesses AutoModel", () => {
		for (const task_type of ["toString", "X"]) {
			const [code] = codes("peft", { config: { peft: { task_type, base_model_name_or_path: "org/base" } } });
			expect(code!.split("\n")[0]).toMatch(/^# Task type is invalid/);
			expect(code).toContain(`base_model = AutoModel.from_pretrained("org/base")`);
			expect(code).toContain(`PeftModel.from_pretrained(base_model, "${ID}")`);
			expect(code).not.toContain("AutoPeftModel");
		}
	});

	it("reports a missing base model verbatim and leaves a placeholder that parses", () => {
		const [code] = codes("peft", { config: { peft: { task_type: "CAUSAL_LM" } } });
		expect(code!.split("\n")[0]).toBe("# Base model is not found.");
		expect(code).toContain(`AutoModelForCausalLM.from_pretrained("path/to/base-model")`);
		expect(code).toContain(`PeftModel.from_pretrained(base_model, "${ID}")`);
		expectPythonParses([code!]);
	});
});

describe("sentence-transformers generator", () => {
	it("uses the cross-encoder for the tag or the text-ranking task", () => {
		for (const partial of [{ tags: ["cross-encoder"] }, { pipeline_tag: "text-ranking" as const }]) {
			const [code] = codes("sentence-transformers", partial);
			expect(code).toContain(`model = CrossEncoder("${ID}")`);
			expect(code).toContain(`query = "Which planet is known as the Red Planet?"`);
			expect((code!.match(/^ {4}"/gm) ?? []).length).toBe(4);
			expect(code).not.toContain("SentenceTransformer");
		}
	});

	it("takes sentences from the widget only when it has a source sentence and a non-empty list", () => {
		const [fromWidget] = codes("sentence-transformers", {
			widgetData: [{ source_sentence: "A", sentences: ["B", "C", "D"] }],
		});
		expect(fromWidget).toContain('sentences = [\n    "A",\n    "B",\n    "C",\n    "D",\n]');
		expect(fromWidget).toContain("# [4, 4]");
		for (const widgetData of [[{ source_sentence: "A", sentences: [] }], [{ sentences: ["B"] }], []]) {
			const [code] = codes("sentence-transformers", { widgetData });
			expect(code).toContain("# [3, 3]");
			expect(code).not.toContain('"B"');
		}
	});

	it("loads sparse and multi-vector models with the classes sentence-transformers 6 tags them for", () => {
		const [sparse] = codes("sentence-transformers", { tags: ["sparse-encoder"] });
		expect(sparse).toContain("from sentence_transformers import SparseEncoder\n");
		expect(sparse).toContain(`model = SparseEncoder("${ID}")`);
		const [multi] = codes("sentence-transformers", { tags: ["multi-vector", "colbert"] });
		expect(multi).toContain("from sentence_transformers import MultiVectorEncoder\n");
		expect(multi).toContain(`model = MultiVectorEncoder("${ID}")`);
		for (const code of [sparse, multi]) {
			expect(code).toContain("embeddings = model.encode(sentences)");
			expect(code).toContain("model.similarity(embeddings, embeddings)");
			expect(code).not.toContain("SentenceTransformer");
		}
		const [cross] = codes("sentence-transformers", { tags: ["sparse-encoder", "cross-encoder"] });
		expect(cross).toContain(`CrossEncoder("${ID}")`);
	});

	it("adds trust_remote_code=True to either constructor for custom_code", () => {
		expect(codes("sentence-transformers", { tags: ["custom_code"] })[0]).toContain(
			`SentenceTransformer("${ID}", trust_remote_code=True)`,
		);
		expect(codes("sentence-transformers", { tags: ["custom_code", "cross-encoder"] })[0]).toContain(
			`CrossEncoder("${ID}", trust_remote_code=True)`,
		);
	});
});

describe("other generators", () => {
	it("adapter-transformers loads the base model from config, or a placeholder instead of undefined", () => {
		const [withBase] = codes("adapter-transformers", {
			config: { adapter_transformers: { model_name: "bert-base-uncased" } },
		});
		expect(withBase).toContain(`AutoAdapterModel.from_pretrained("bert-base-uncased")`);
		expect(withBase).toContain(`model.load_adapter("${ID}", set_active=True)`);
		const [withoutBase] = codes("adapter-transformers");
		expect(withoutBase).not.toContain("undefined");
		expectPythonParses([withoutBase!]);
	});

	it("perception-encoder adds the CLIP snippet only for ids containing Core", () => {
		const core = codes("perception-encoder", { id: "facebook/PE-Core-L14-336" });
		expect(core).toHaveLength(2);
		expect(core[0]).toContain('model_id = "facebook/PE-Core-L14-336"\nname = model_id.split("/")[-1]\n');
		expect(core[0]).toContain(
			'pe.CLIP.from_config(name, pretrained=True, checkpoint_path=f"hf://{model_id}:{name}.pt")',
		);
		expect(core[1]).toContain("pe.VisionTransformer.from_config(");
		const spatial = codes("perception-encoder", { id: "facebook/PE-Spatial-G14-448" });
		expect(spatial).toHaveLength(1);
		expect(spatial[0]).not.toContain("pe.CLIP");
		expect(codes("perception-encoder", { id: "facebook/pe-core" })).toHaveLength(1);
	});

	it("open_clip uses single-quoted hf-hub names and timm uses hf_hub", () => {
		const [openClip] = codes("open_clip", { id: "it's/x" });
		expect(openClip).toContain(`create_model_and_transforms('hf-hub:it\\'s/x')`);
		expectPythonParses([openClip!]);
		expect(codes("timm")[0]).toContain(`timm.create_model("hf_hub:${ID}", pretrained=True)`);
	});

	it("araclip installs from GitHub, as its README says, then loads the model by id", () => {
		const out = blocks("araclip");
		expect(out.map((b) => b.language)).toEqual(["shell", "python"]);
		expect(out[0]!.code).toBe("pip install git+https://github.com/Arabic-Clip/Araclip.git");
		expect(transformersLibraries.araclip.installCommand).toBe(out[0]!.code);
		expect(out[1]!.code).toContain(`model = AraClip.from_pretrained("${ID}")`);
		expect(out[1]!.code).toContain("model.embed(text=");
	});

	it("entries without snippets have metadata only", () => {
		for (const key of ["big_vision", "birder", "clipscope", "mindspore", "tic-clip"] as const) {
			const entry = transformersLibraries[key];
			expect("codeBlocks" in entry && entry.codeBlocks).toBeFalsy();
			expect(entry.snippets).toBeUndefined();
		}
	});
});
