/**
 * Keras and the libraries built on it (KerasHub presets, legacy TF-Keras), plus fastai.
 */
import { isPyIdentifier, pyString } from "../../literals/index.js";
import { defineLibrary, python } from "../define.js";
import type { LibraryUiElement, ModelData } from "../types.js";

/** KerasHub tasks that get a dedicated example, in the order their blocks are shown. */
export const KERAS_HUB_TASKS_WITH_EXAMPLE = [
	"CausalLM",
	"TextToImage",
	"TextClassifier",
	"ImageClassifier",
] as const;

type KerasHubExampleTask = (typeof KERAS_HUB_TASKS_WITH_EXAMPLE)[number];

const kerasHubExamples: Record<KerasHubExampleTask, (preset: string) => string> = {
	CausalLM: (preset) => `import keras_hub

# bfloat16 halves the memory the weights take for inference.
causal_lm = keras_hub.models.CausalLM.from_preset(${preset}, dtype="bfloat16")
causal_lm.compile(sampler="greedy")  # always pick the most likely next token

print(causal_lm.generate("Keras: deep learning for", max_length=64))`,
	TextToImage: (preset) => `import keras_hub

text_to_image = keras_hub.models.TextToImage.from_preset(${preset}, dtype="bfloat16")

image = text_to_image.generate("Astronaut in a jungle")`,
	TextClassifier: (preset) => `import keras_hub

text_classifier = keras_hub.models.TextClassifier.from_preset(${preset}, num_classes=2)

# Fine-tune on a tiny labelled batch: 1 is a positive review, 0 a negative one.
text_classifier.fit(
	x=["A warm, funny film with a cast I would happily watch again.", "The plot dragged and the ending made no sense."],
	y=[1, 0],
	batch_size=2,
)
predictions = text_classifier.predict(["Beautifully shot, if a little too long."])`,
	ImageClassifier: (preset) => `import keras
import keras_hub

image_classifier = keras_hub.models.ImageClassifier.from_preset(${preset}, num_classes=2)

# Random pixels and labels stand in for a real dataset.
images = keras.random.randint((32, 64, 64, 3), 0, 256)
labels = keras.random.randint((32, 1), 0, 2)
image_classifier.fit(x=images, y=labels, batch_size=16)

predictions = image_classifier.predict(keras.random.randint((1, 64, 64, 3), 0, 256))`,
};

function isExampleTask(task: string): task is KerasHubExampleTask {
	return (KERAS_HUB_TASKS_WITH_EXAMPLE as readonly string[]).includes(task);
}

/**
 * One block per example task present (fixed order), then one per other task in config order, then the
 * backbone. A task name is written as an attribute, so names that are not identifiers are left out.
 */
function kerasHubCode(model: ModelData): string[] {
	const preset = pyString(`hf://${model.id}`);
	const tasks = Array.isArray(model.config?.keras_hub?.tasks) ? model.config.keras_hub.tasks : [];
	const names = tasks.filter((task): task is string => typeof task === "string");
	const examples = KERAS_HUB_TASKS_WITH_EXAMPLE.filter((task) => names.includes(task)).map((task) =>
		kerasHubExamples[task](preset),
	);
	const others = names
		.filter((task) => !isExampleTask(task) && isPyIdentifier(task))
		.map((task) => `import keras_hub\n\ntask = keras_hub.models.${task}.from_preset(${preset})`);
	const backbone = `import keras_hub\n\nbackbone = keras_hub.models.Backbone.from_preset(${preset})`;
	return [...examples, ...others, backbone];
}

export const kerasLibraries = {
	fastai: defineLibrary({
		prettyLabel: "fastai",
		repoName: "fastai",
		repoUrl: "https://github.com/fastai/fastai",
		docsUrl: "https://huggingface.co/docs/hub/fastai",
		filter: true,
		installCommand: "pip install -U fastai",
		codeBlocks: (model) => [
			python(`from huggingface_hub import from_pretrained_fastai

learn = from_pretrained_fastai(${pyString(model.id)})`),
		],
	}),
	keras: defineLibrary({
		prettyLabel: "Keras",
		repoName: "Keras",
		repoUrl: "https://github.com/keras-team/keras",
		docsUrl: "https://huggingface.co/docs/hub/keras",
		filter: true,
		countDownloads: `path:"config.json" OR path_extension:"keras"`,
		installCommand: "pip install -U keras",
		codeBlocks: (model) => [
			python(`import os

# The backend must be chosen before Keras is imported: "jax", "torch" or "tensorflow".
os.environ["KERAS_BACKEND"] = "jax"

import keras

model = keras.saving.load_model(${pyString(`hf://${model.id}`)})`),
		],
	}),
	"tf-keras": defineLibrary({
		prettyLabel: "TF-Keras",
		repoName: "TF-Keras",
		repoUrl: "https://github.com/keras-team/tf-keras",
		docsUrl: "https://huggingface.co/docs/hub/tf-keras",
		countDownloads: `path:"saved_model.pb"`,
		installCommand: "pip install tensorflow tf_keras huggingface_hub",
		codeBlocks: (model) => [
			python(`# This is a legacy Keras 2 model: load it with 'tf_keras' (or with tf.keras where 'keras<3.x' is installed).
# See https://github.com/keras-team/tf-keras for more details.
# huggingface_hub 1.0 removed from_pretrained_keras: download the SavedModel, then load it with TF-Keras.
import tf_keras
from huggingface_hub import snapshot_download

model = tf_keras.models.load_model(snapshot_download(repo_id=${pyString(model.id)}))`),
		],
	}),
	"keras-hub": defineLibrary({
		prettyLabel: "KerasHub",
		repoName: "KerasHub",
		repoUrl: "https://github.com/keras-team/keras-hub",
		docsUrl: "https://keras.io/keras_hub/",
		filter: true,
		installCommand: "pip install -U keras-hub",
		codeBlocks: (model) => kerasHubCode(model).map(python),
	}),
} as const satisfies Record<string, LibraryUiElement>;
