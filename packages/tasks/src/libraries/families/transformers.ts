import { LIBRARY_TASK_MAPPING } from "../../library-to-tasks.js";
import { jsString, pyIdentifier, pyString, pyValue } from "../../literals/index.js";
import { defineLibrary, hasTag, javascript, python } from "../define.js";
import type { LibraryUiElement, ModelData } from "../types.js";

/** Python snippets indent with four spaces, as the libraries' own documentation does. */
const PY_INDENT = "    ";

/**
 * Turns a double-quoted literal from `pyString` or `jsString` into the same value single-quoted, for
 * the libraries whose documented form uses single quotes. Both escape `"` as `\"` and `\` as `\\` and
 * leave `'` alone, so only those three need rewriting; every other escape means the same in both quotes.
 */
function singleQuoted(doubleQuoted: string): string {
	const inner = doubleQuoted.slice(1, -1).replace(/\\\\|\\"|'/g, (match) => {
		if (match === '\\"') return '"';
		if (match === "'") return "\\'";
		return match;
	});
	return `'${inner}'`;
}

/** `, trust_remote_code=True` when the repository ships its own modelling code, else nothing. */
function remoteCodeArg(model: ModelData): string {
	return hasTag(model, "custom_code") ? ", trust_remote_code=True" : "";
}

// ---------------------------------------------------------------------------------------------------
// transformers

const TRANSFORMERS_PIPELINE_TAGS: readonly string[] = LIBRARY_TASK_MAPPING.transformers ?? [];

/** The variable a processor class is bound to: its conventional name in the transformers docs. */
function processorVariable(processorClass: string): string {
	if (processorClass === "AutoTokenizer") return "tokenizer";
	if (processorClass === "AutoFeatureExtractor") return "extractor";
	return "processor";
}

function hasChatTemplate(model: ModelData): boolean {
	const template = model.config?.tokenizer_config?.chat_template;
	return Array.isArray(template) ? template.length > 0 : Boolean(template);
}

function transformersPipelineSnippet(model: ModelData, pipelineTag: string): string {
	const pipe = `pipe = pipeline(${pyString(pipelineTag)}, model=${pyString(model.id)}${remoteCodeArg(model)})`;
	const lines = ["# Use a pipeline as a high-level helper", "from transformers import pipeline", "", pipe];
	if (hasTag(model, "conversational") && hasChatTemplate(model)) {
		// The image-text-to-text pipeline takes a conversation through `text=`; its first argument is images.
		const call = pipelineTag === "image-text-to-text" ? "pipe(text=messages)" : "pipe(messages)";
		lines.push("messages = [", `${PY_INDENT}{"role": "user", "content": "Who are you?"},`, "]", call);
	}
	return lines.join("\n");
}

function transformersAutoClassSnippet(
	model: ModelData,
	info: NonNullable<ModelData["transformersInfo"]>,
): string {
	const id = pyString(model.id);
	const remote = remoteCodeArg(model);
	const modelClass = pyIdentifier(info.auto_model, "AutoModel");
	const processorClass =
		info.processor === undefined ? undefined : pyIdentifier(info.processor, "AutoProcessor");
	const imported = [...new Set([processorClass, modelClass].filter((name) => name !== undefined))];
	const lines = ["# Load model directly", `from transformers import ${imported.join(", ")}`, ""];
	if (processorClass !== undefined) {
		lines.push(`${processorVariable(processorClass)} = ${processorClass}.from_pretrained(${id}${remote})`);
	}
	lines.push(`model = ${modelClass}.from_pretrained(${id}${remote})`);
	return lines.join("\n");
}

function transformersSnippets(model: ModelData): string[] {
	const info = model.transformersInfo;
	if (!info) return ["# ⚠️ Type of model unknown"];
	const snippets: string[] = [];
	const pipelineTag = model.pipeline_tag;
	if (pipelineTag !== undefined && TRANSFORMERS_PIPELINE_TAGS.includes(pipelineTag)) {
		snippets.push(transformersPipelineSnippet(model, pipelineTag));
	}
	snippets.push(transformersAutoClassSnippet(model, info));
	return snippets;
}

// ---------------------------------------------------------------------------------------------------
// transformers.js

function transformersJsSnippet(model: ModelData): string {
	if (!model.pipeline_tag) return "// ⚠️ Unknown pipeline tag";
	return [
		"// npm i @huggingface/transformers",
		"import { pipeline } from '@huggingface/transformers';",
		"",
		"// Allocate a pipeline for this model and task",
		`const pipe = await pipeline(${singleQuoted(jsString(model.pipeline_tag))}, ${singleQuoted(jsString(model.id))});`,
	].join("\n");
}

// ---------------------------------------------------------------------------------------------------
// adapters

function adaptersSnippet(model: ModelData): string {
	const baseModel = model.config?.adapter_transformers?.model_name;
	const lines = ["from adapters import AutoAdapterModel", ""];
	if (baseModel) {
		lines.push(`model = AutoAdapterModel.from_pretrained(${pyString(baseModel)})`);
	} else {
		lines.push(
			"# The base model is not named in config.json: replace the placeholder with the adapter's base model.",
			`model = AutoAdapterModel.from_pretrained("path/to/base-model")`,
		);
	}
	lines.push(`model.load_adapter(${pyString(model.id)}, set_active=True)`);
	return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------
// peft

const PEFT_TASK_CLASSES = new Map<string, string>([
	["CAUSAL_LM", "CausalLM"],
	["SEQ_2_SEQ_LM", "Seq2SeqLM"],
	["TOKEN_CLS", "TokenClassification"],
	["SEQ_CLS", "SequenceClassification"],
]);

function peftSnippet(model: ModelData): string {
	const id = pyString(model.id);
	const { task_type: taskType, base_model_name_or_path: baseModel } = model.config?.peft ?? {};
	const mapped = taskType === undefined ? undefined : PEFT_TASK_CLASSES.get(taskType);
	if (mapped === undefined) {
		// Without a known task the class cannot be chosen here; AutoPeftModel reads everything from the
		// adapter config instead.
		return [
			"# Task type is invalid.",
			"from peft import AutoPeftModel",
			"",
			`model = AutoPeftModel.from_pretrained(${id})`,
		].join("\n");
	}
	const autoClass = `AutoModelFor${mapped}`;
	const lines = ["from peft import PeftModel", `from transformers import ${autoClass}`, ""];
	if (baseModel) {
		lines.push(`base_model = ${autoClass}.from_pretrained(${pyString(baseModel)})`);
	} else {
		lines.unshift("# Base model is not found.");
		lines.push(
			"# Replace the placeholder with the model this adapter was trained on.",
			`base_model = ${autoClass}.from_pretrained("path/to/base-model")`,
		);
	}
	lines.push(`model = PeftModel.from_pretrained(base_model, ${id})`);
	return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------
// sentence-transformers

const CROSS_ENCODER_QUERY = "Which planet is known as the Red Planet?";
const CROSS_ENCODER_PASSAGES = [
	"Venus hides under thick clouds and is the hottest planet in the solar system.",
	"Mars looks red because iron oxide dust covers much of its surface.",
	"Jupiter, a gas giant, is the largest planet orbiting the Sun.",
	"Saturn is best known for its wide, bright rings of ice and rock.",
];
const DEFAULT_SENTENCES = [
	"The sun is shining brightly this morning.",
	"What a warm and sunny day it is.",
	"She is driving to the football stadium.",
];

/** The widget's source sentence followed by its comparison sentences, when the widget has both. */
function widgetSentences(model: ModelData): string[] | undefined {
	const widget = model.widgetData?.[0];
	const source = widget?.source_sentence;
	const others = Array.isArray(widget?.sentences)
		? widget.sentences.filter((s) => typeof s === "string")
		: [];
	if (typeof source !== "string" || source === "" || others.length === 0) return undefined;
	return [source, ...others];
}

function sentenceTransformersSnippet(model: ModelData): string {
	const load = `(${pyString(model.id)}${remoteCodeArg(model)})`;
	if (hasTag(model, "cross-encoder") || model.pipeline_tag === "text-ranking") {
		return [
			"from sentence_transformers import CrossEncoder",
			"",
			`model = CrossEncoder${load}`,
			"",
			`query = ${pyString(CROSS_ENCODER_QUERY)}`,
			`passages = ${pyValue(CROSS_ENCODER_PASSAGES, "", PY_INDENT)}`,
			"scores = model.predict([(query, passage) for passage in passages])",
			"print(scores)",
		].join("\n");
	}
	const sentences = widgetSentences(model) ?? DEFAULT_SENTENCES;
	const n = sentences.length;
	return [
		"from sentence_transformers import SentenceTransformer",
		"",
		`model = SentenceTransformer${load}`,
		"",
		`sentences = ${pyValue(sentences, "", PY_INDENT)}`,
		"embeddings = model.encode(sentences)",
		"",
		"similarities = model.similarity(embeddings, embeddings)",
		`print(similarities.shape)  # [${n}, ${n}]`,
	].join("\n");
}

// ---------------------------------------------------------------------------------------------------
// perception-encoder

/** `from_config` takes a config name, which is the repository name without its namespace. */
function perceptionEncoderSnippet(model: ModelData, className: "CLIP" | "VisionTransformer"): string {
	const purpose =
		className === "CLIP" ? "# Image and text embeddings (PE-Core)" : "# Vision encoder for image features";
	return [
		purpose,
		"import core.vision_encoder.pe as pe",
		"",
		`model_id = ${pyString(model.id)}`,
		`model = pe.${className}.from_config(model_id.split("/")[-1], pretrained=True)`,
	].join("\n");
}

// ---------------------------------------------------------------------------------------------------

export const transformersLibraries = {
	"adapter-transformers": defineLibrary({
		prettyLabel: "Adapters",
		repoName: "adapters",
		repoUrl: "https://github.com/Adapter-Hub/adapters",
		docsUrl: "https://huggingface.co/docs/hub/adapters",
		filter: true,
		countDownloads: `path:"adapter_config.json"`,
		installCommand: "pip install -U adapters",
		codeBlocks: (model) => [python(adaptersSnippet(model))],
	}),
	araclip: defineLibrary({
		prettyLabel: "AraClip",
		repoName: "AraClip",
		repoUrl: "https://huggingface.co/Arabic-Clip/araclip",
		filter: false,
		codeBlocks: (model) => [
			python(`from araclip import AraClip\n\nmodel = AraClip.from_pretrained(${pyString(model.id)})`),
		],
	}),
	big_vision: defineLibrary({
		prettyLabel: "Big Vision",
		repoName: "big_vision",
		repoUrl: "https://github.com/google-research/big_vision",
		filter: false,
		countDownloads: `path_extension:"npz"`,
	}),
	birder: defineLibrary({
		prettyLabel: "Birder",
		repoName: "Birder",
		repoUrl: "https://gitlab.com/birder/birder",
		filter: false,
		countDownloads: `path_extension:"pt"`,
	}),
	clipscope: defineLibrary({
		prettyLabel: "clipscope",
		repoName: "clipscope",
		repoUrl: "https://github.com/Lewington-pitsos/clipscope",
		filter: false,
		countDownloads: `path_extension:"pt"`,
	}),
	mindspore: defineLibrary({
		prettyLabel: "MindSpore",
		repoName: "mindspore",
		repoUrl: "https://github.com/mindspore-ai/mindspore",
	}),
	open_clip: defineLibrary({
		prettyLabel: "OpenCLIP",
		repoName: "OpenCLIP",
		repoUrl: "https://github.com/mlfoundations/open_clip",
		filter: true,
		countDownloads: `path:"open_clip_model.safetensors"
			OR path:"model.safetensors"
			OR path:"open_clip_pytorch_model.bin"
			OR path:"pytorch_model.bin"`,
		installCommand: "pip install open_clip_torch",
		codeBlocks: (model) => {
			const hubName = singleQuoted(pyString(`hf-hub:${model.id}`));
			return [
				python(
					[
						"import open_clip",
						"",
						`model, preprocess_train, preprocess_val = open_clip.create_model_and_transforms(${hubName})`,
						`tokenizer = open_clip.get_tokenizer(${hubName})`,
					].join("\n"),
				),
			];
		},
	}),
	peft: defineLibrary({
		prettyLabel: "PEFT",
		repoName: "PEFT",
		repoUrl: "https://github.com/huggingface/peft",
		filter: true,
		countDownloads: `path:"adapter_config.json"`,
		installCommand: "pip install peft",
		codeBlocks: (model) => [python(peftSnippet(model))],
	}),
	"perception-encoder": defineLibrary({
		prettyLabel: "PerceptionEncoder",
		repoName: "PerceptionModels",
		repoUrl: "https://github.com/facebookresearch/perception_models",
		filter: false,
		countDownloads: `path_extension:"pt"`,
		codeBlocks: (model) => {
			// Only PE-Core checkpoints have a text tower, so only they load as a CLIP model.
			const clip = model.id.includes("Core") ? [python(perceptionEncoderSnippet(model, "CLIP"))] : [];
			return [...clip, python(perceptionEncoderSnippet(model, "VisionTransformer"))];
		},
	}),
	"sentence-transformers": defineLibrary({
		prettyLabel: "sentence-transformers",
		repoName: "sentence-transformers",
		repoUrl: "https://github.com/UKPLab/sentence-transformers",
		docsUrl: "https://huggingface.co/docs/hub/sentence-transformers",
		filter: true,
		installCommand: "pip install -U sentence-transformers",
		codeBlocks: (model) => [python(sentenceTransformersSnippet(model))],
	}),
	setfit: defineLibrary({
		prettyLabel: "setfit",
		repoName: "setfit",
		repoUrl: "https://github.com/huggingface/setfit",
		docsUrl: "https://huggingface.co/docs/hub/setfit",
		filter: true,
		installCommand: "pip install setfit",
		codeBlocks: (model) => [
			python(
				[
					"from setfit import SetFitModel",
					"",
					`model = SetFitModel.from_pretrained(${pyString(model.id)})`,
					`predictions = model.predict(["I loved every minute of it!", "The service was slow and rude."])`,
				].join("\n"),
			),
		],
	}),
	"span-marker": defineLibrary({
		prettyLabel: "SpanMarker",
		repoName: "SpanMarkerNER",
		repoUrl: "https://github.com/tomaarsen/SpanMarkerNER",
		docsUrl: "https://huggingface.co/docs/hub/span_marker",
		filter: true,
		installCommand: "pip install span_marker",
		codeBlocks: (model) => [
			python(
				[
					"from span_marker import SpanMarkerModel",
					"",
					`model = SpanMarkerModel.from_pretrained(${pyString(model.id)})`,
					`entities = model.predict("Grace Hopper joined the Harvard Computation Lab in 1944.")`,
				].join("\n"),
			),
		],
	}),
	"tic-clip": defineLibrary({
		prettyLabel: "TiC-CLIP",
		repoName: "TiC-CLIP",
		repoUrl: "https://github.com/apple/ml-tic-clip",
		filter: false,
		countDownloads: `path_extension:"pt" AND path_prefix:"checkpoints/"`,
	}),
	timm: defineLibrary({
		prettyLabel: "timm",
		repoName: "pytorch-image-models",
		repoUrl: "https://github.com/rwightman/pytorch-image-models",
		docsUrl: "https://huggingface.co/docs/hub/timm",
		filter: true,
		countDownloads: `path:"pytorch_model.bin" OR path:"model.safetensors"`,
		installCommand: "pip install timm",
		codeBlocks: (model) => [
			python(
				[
					"import timm",
					"",
					`model = timm.create_model(${pyString(`hf_hub:${model.id}`)}, pretrained=True)`,
					"model.eval()",
					"",
					"# Preprocessing that matches the model's pretraining",
					"data_config = timm.data.resolve_model_data_config(model)",
					"transforms = timm.data.create_transform(**data_config, is_training=False)",
				].join("\n"),
			),
		],
	}),
	transformers: defineLibrary({
		prettyLabel: "Transformers",
		repoName: "🤗/transformers",
		repoUrl: "https://github.com/huggingface/transformers",
		docsUrl: "https://huggingface.co/docs/hub/transformers",
		filter: true,
		installCommand: "pip install -U transformers",
		codeBlocks: (model) => transformersSnippets(model).map(python),
	}),
	"transformers.js": defineLibrary({
		prettyLabel: "Transformers.js",
		repoName: "transformers.js",
		repoUrl: "https://github.com/huggingface/transformers.js",
		docsUrl: "https://huggingface.co/docs/hub/transformers-js",
		filter: true,
		installCommand: "npm i @huggingface/transformers",
		codeBlocks: (model) => [javascript(transformersJsSnippet(model))],
	}),
} as const satisfies Record<string, LibraryUiElement>;
