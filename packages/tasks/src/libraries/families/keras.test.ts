import { describe, expect, it } from "vitest";
import { checkLibraryFamily } from "../../../../../test-support/library-checks.js";
import type { ModelData } from "../types.js";
import { kerasLibraries } from "./keras.js";

describe("keras libraries", () => checkLibraryFamily(kerasLibraries));

const model = (tasks?: unknown): ModelData =>
	({
		id: "acme/demo-model",
		tags: [],
		inference: "",
		...(tasks === undefined ? {} : { config: { keras_hub: { tasks } } }),
	}) as ModelData;
const kerasHub = (tasks?: unknown): string[] => kerasLibraries["keras-hub"].snippets?.(model(tasks)) ?? [];
/** The task class each block loads, e.g. `CausalLM`. */
const taskOf = (block: string): string | undefined =>
	/keras_hub\.models\.(\w+)\.from_preset/.exec(block)?.[1];

describe("keras-hub", () => {
	it("shows the four example tasks in a fixed order, then other tasks in config order, then Backbone", () => {
		const blocks = kerasHub([
			"Zeta",
			"ImageClassifier",
			"TextClassifier",
			"Alpha",
			"CausalLM",
			"TextToImage",
		]);
		expect(blocks.map(taskOf)).toEqual([
			"CausalLM",
			"TextToImage",
			"TextClassifier",
			"ImageClassifier",
			"Zeta",
			"Alpha",
			"Backbone",
		]);
	});

	it("has an open-ended count: example tasks once each, other tasks as often as listed", () => {
		expect(kerasHub(["CausalLM", "CausalLM", "Seq2SeqLM", "Seq2SeqLM"]).map(taskOf)).toEqual([
			"CausalLM",
			"Seq2SeqLM",
			"Seq2SeqLM",
			"Backbone",
		]);
	});

	it("shows only the backbone without tasks", () => {
		for (const tasks of [undefined, [], "CausalLM", null])
			expect(kerasHub(tasks).map(taskOf)).toEqual(["Backbone"]);
	});

	it("leaves out task names that are not Python identifiers", () => {
		const blocks = kerasHub(["not a class", "class", "x).y", 42, "Seq2SeqLM"]);
		expect(blocks.map(taskOf)).toEqual(["Seq2SeqLM", "Backbone"]);
		expect(blocks.join("\n")).not.toContain("not a class");
	});

	it("loads every preset from the hf:// path with the example constants", () => {
		const text = kerasHub(["CausalLM", "TextToImage", "TextClassifier", "ImageClassifier"]).join("\n");
		expect(text.match(/from_preset\("hf:\/\/acme\/demo-model"/g)).toHaveLength(5);
		expect(text).toContain('dtype="bfloat16"');
		expect(text).toContain('sampler="greedy"');
		expect(text).toContain('"Keras: deep learning for", max_length=64');
		expect(text).toContain('"Astronaut in a jungle"');
		expect(text).toContain("num_classes=2");
		expect(text).toContain("keras.random.randint((32, 64, 64, 3), 0, 256)");
		expect(text).toContain("keras.random.randint((32, 1), 0, 2)");
		expect(text).toContain("keras.random.randint((1, 64, 64, 3), 0, 256)");
		for (const block of kerasHub(["CausalLM"])) expect(block.startsWith("import ")).toBe(true);
	});
});

describe("keras", () => {
	it("sets the backend before importing keras and loads from hf://", () => {
		const block = kerasLibraries.keras.snippets?.(model())[0] ?? "";
		expect(block.indexOf('os.environ["KERAS_BACKEND"] = "jax"')).toBeLessThan(block.indexOf("import keras"));
		expect(block).toContain('keras.saving.load_model("hf://acme/demo-model")');
	});
});

describe("tf-keras", () => {
	it("downloads the SavedModel by id and loads it with tf_keras, not from_pretrained_keras", () => {
		const block = kerasLibraries["tf-keras"].snippets?.(model())[0] ?? "";
		// huggingface_hub 1.0 removed from_pretrained_keras; the snippet names it only in the comment that says so.
		expect(block).not.toMatch(/^[^#\n]*from_pretrained_keras/m);
		expect(block).toContain("import tf_keras\nfrom huggingface_hub import snapshot_download\n");
		expect(block).toContain(
			'model = tf_keras.models.load_model(snapshot_download(repo_id="acme/demo-model"))',
		);
		expect(kerasLibraries["tf-keras"].installCommand).toBe("pip install tensorflow tf_keras huggingface_hub");
	});
});

describe("fastai", () => {
	it("loads the learner by id with huggingface_hub's from_pretrained_fastai (still in huggingface_hub 2.0)", () => {
		expect(kerasLibraries.fastai.snippets?.(model())[0]).toBe(
			'from huggingface_hub import from_pretrained_fastai\n\nlearn = from_pretrained_fastai("acme/demo-model")',
		);
	});
});
