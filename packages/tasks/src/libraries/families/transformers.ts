import { jsString, pyIdentifier, pyString, pyValue } from "../../literals/index.js";
import {
	CONVERSATIONAL_IMAGE_EXAMPLE_TEXT,
	CONVERSATIONAL_IMAGE_EXAMPLE_URL,
	CONVERSATIONAL_TEXT_EXAMPLE,
} from "../../snippets/inputs.js";
import { defineLibrary, hasTag, javascript, python, shell } from "../define.js";
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

/**
 * The tasks `transformers.pipeline()` accepts in transformers 5.18: `SUPPORTED_TASKS` and `TASK_ALIASES`
 * of `transformers/pipelines/__init__.py`. Version 5 removed the question-answering, summarization,
 * translation, text2text-generation, image-to-text, image-to-image and visual-question-answering
 * pipelines; models of those tasks load through their auto class only.
 */
const TRANSFORMERS_PIPELINE_TASKS: ReadonlySet<string> = new Set([
	"any-to-any",
	"audio-classification",
	"automatic-speech-recognition",
	"depth-estimation",
	"document-question-answering",
	"feature-extraction",
	"fill-mask",
	"image-classification",
	"image-feature-extraction",
	"image-segmentation",
	"image-text-to-text",
	"keypoint-matching",
	"mask-generation",
	"ner",
	"object-detection",
	"sentiment-analysis",
	"table-question-answering",
	"text-classification",
	"text-generation",
	"text-to-audio",
	"text-to-speech",
	"token-classification",
	"video-classification",
	"zero-shot-audio-classification",
	"zero-shot-classification",
	"zero-shot-image-classification",
	"zero-shot-object-detection",
]);

/**
 * Auto classes transformers 5 removed, with the class that replaced each: the deprecation warning of
 * 4.5x reads "AutoModelForVision2Seq is deprecated … Please use AutoModelForImageTextToText instead".
 */
const RENAMED_AUTO_CLASSES: ReadonlyMap<string, string> = new Map([
	["AutoModelForVision2Seq", "AutoModelForImageTextToText"],
]);

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

/**
 * A one-turn conversation; image-text-to-text models get an image next to the question. The question
 * and picture are the task's shared example (`../../snippets/inputs.ts`), so this snippet, the inference
 * snippets and the web app's playground all show the same input (the incumbent's transformers snippet
 * asked "Who are you?" while its inference snippets asked another question).
 */
function chatExample(pipelineTag: string): string[] {
	if (pipelineTag !== "image-text-to-text") {
		return [
			"messages = [",
			`${PY_INDENT}{"role": "user", "content": ${pyString(CONVERSATIONAL_TEXT_EXAMPLE)}},`,
			"]",
			"pipe(messages)",
		];
	}
	const content = [
		{ type: "image", url: CONVERSATIONAL_IMAGE_EXAMPLE_URL },
		{ type: "text", text: CONVERSATIONAL_IMAGE_EXAMPLE_TEXT },
	];
	const message = { role: "user", content };
	// The image-text-to-text pipeline takes a conversation through `text=`; its first argument is images.
	return [`messages = [\n${PY_INDENT}${pyValue(message, PY_INDENT, PY_INDENT)},\n]`, "pipe(text=messages)"];
}

function transformersPipelineSnippet(model: ModelData, pipelineTag: string): string {
	const pipe = `pipe = pipeline(${pyString(pipelineTag)}, model=${pyString(model.id)}${remoteCodeArg(model)})`;
	const lines = ["# Use a pipeline as a high-level helper", "from transformers import pipeline", "", pipe];
	if (hasTag(model, "conversational") && hasChatTemplate(model)) lines.push(...chatExample(pipelineTag));
	return lines.join("\n");
}

function autoClass(name: string | undefined, fallback: string): string {
	const safe = pyIdentifier(name, fallback);
	return RENAMED_AUTO_CLASSES.get(safe) ?? safe;
}

function transformersAutoClassSnippet(model: ModelData, info: ModelData["transformersInfo"]): string {
	const id = pyString(model.id);
	const remote = remoteCodeArg(model);
	const modelClass = autoClass(info?.auto_model, "AutoModel");
	const processorClass =
		info?.processor === undefined ? undefined : autoClass(info.processor, "AutoProcessor");
	const imported = [...new Set([processorClass, modelClass].filter((name) => name !== undefined))];
	const lines = info
		? ["# Load model directly"]
		: [
				"# ⚠️ Type of model unknown",
				"# AutoModel loads the model's base architecture, without a task-specific head",
			];
	lines.push(`from transformers import ${imported.join(", ")}`, "");
	if (processorClass !== undefined) {
		lines.push(`${processorVariable(processorClass)} = ${processorClass}.from_pretrained(${id}${remote})`);
	}
	lines.push(`model = ${modelClass}.from_pretrained(${id}${remote})`);
	return lines.join("\n");
}

function transformersSnippets(model: ModelData): string[] {
	const info = model.transformersInfo;
	// Without transformersInfo the task is unknown, so only the base model is offered.
	if (!info) return [transformersAutoClassSnippet(model, undefined)];
	const snippets: string[] = [];
	const pipelineTag = model.pipeline_tag;
	if (pipelineTag !== undefined && TRANSFORMERS_PIPELINE_TASKS.has(pipelineTag)) {
		snippets.push(transformersPipelineSnippet(model, pipelineTag));
	}
	snippets.push(transformersAutoClassSnippet(model, info));
	return snippets;
}

// ---------------------------------------------------------------------------------------------------
// transformers.js

/**
 * The tasks `pipeline()` accepts in Transformers.js 4.3.1: `SUPPORTED_TASKS` and `TASK_ALIASES` of
 * `src/pipelines/index.js`. Any other task throws "Unsupported pipeline", so those models load through
 * `AutoModel` instead.
 */
const TRANSFORMERS_JS_PIPELINE_TASKS: ReadonlySet<string> = new Set([
	"asr",
	"audio-classification",
	"automatic-speech-recognition",
	"background-removal",
	"depth-estimation",
	"document-question-answering",
	"embeddings",
	"feature-extraction",
	"fill-mask",
	"image-classification",
	"image-feature-extraction",
	"image-segmentation",
	"image-to-image",
	"image-to-text",
	"ner",
	"object-detection",
	"question-answering",
	"sentiment-analysis",
	"summarization",
	"text-classification",
	"text-generation",
	"text-to-audio",
	"text-to-speech",
	"text2text-generation",
	"token-classification",
	"translation",
	"zero-shot-audio-classification",
	"zero-shot-classification",
	"zero-shot-image-classification",
	"zero-shot-object-detection",
]);

/**
 * Transformers.js fetches `env.remoteHost` + `{model}/resolve/{revision}/` + file, and adds the
 * `HF_TOKEN` of Node's environment only to requests for huggingface.co or hf.co (4.3.1
 * `src/utils/hub.js`), so for a private model on another hub the snippet hands it over through
 * `env.fetch`, for that hub's requests only.
 */
function transformersJsHubSetup(model: ModelData, hubUrl: string | undefined): string[] {
	if (hubUrl === undefined) return [];
	const lines = [
		"",
		"// The model's files are on this hub",
		`env.remoteHost = ${singleQuoted(jsString(`${hubUrl}/`))};`,
	];
	if (model.private === true) {
		lines.push(
			"// Private model (Node.js): send HF_TOKEN, an access token of this hub, with this hub's requests",
			"env.fetch = (url, init = {}) => {",
			"  const headers = new Headers(init.headers);",
			"  if (String(url).startsWith(env.remoteHost)) headers.set('Authorization', `Bearer ${process.env.HF_TOKEN}`);",
			"  return fetch(url, { ...init, headers });",
			"};",
		);
	}
	return lines;
}

function transformersJsSnippet(model: ModelData, hubUrl: string | undefined): string {
	const id = singleQuoted(jsString(model.id));
	const task = model.pipeline_tag;
	const setup = transformersJsHubSetup(model, hubUrl);
	const imported = (name: string) => (setup.length > 0 ? `env, ${name}` : name);
	if (task !== undefined && TRANSFORMERS_JS_PIPELINE_TASKS.has(task)) {
		return [
			"// npm i @huggingface/transformers",
			`import { ${imported("pipeline")} } from '@huggingface/transformers';`,
			...setup,
			"",
			"// Allocate a pipeline for this model and task",
			`const pipe = await pipeline(${singleQuoted(jsString(task))}, ${id});`,
		].join("\n");
	}
	const why =
		task === undefined ? "⚠️ Unknown pipeline tag" : "Transformers.js has no pipeline for this task";
	return [
		"// npm i @huggingface/transformers",
		`import { ${imported("AutoModel")} } from '@huggingface/transformers';`,
		...setup,
		"",
		`// ${why}: load the model itself`,
		`const model = await AutoModel.from_pretrained(${id});`,
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

/**
 * PEFT 0.21 `TaskType` members and the transformers auto class each one's `AutoPeftModelFor*` class
 * loads the base model with (`peft/auto.py`).
 */
const PEFT_TASK_BASE_CLASSES: ReadonlyMap<string, string> = new Map([
	["SEQ_CLS", "AutoModelForSequenceClassification"],
	["SEQ_2_SEQ_LM", "AutoModelForSeq2SeqLM"],
	["CAUSAL_LM", "AutoModelForCausalLM"],
	["TOKEN_CLS", "AutoModelForTokenClassification"],
	["QUESTION_ANS", "AutoModelForQuestionAnswering"],
	["FEATURE_EXTRACTION", "AutoModel"],
]);

/**
 * `AutoPeftModel` only loads adapters saved without a task type: it rejects any task type, and takes
 * the base model class from the `auto_mapping` PEFT records for such adapters (PEFT 0.21 `auto.py`).
 */
function peftWithoutTaskSnippet(id: string): string {
	return [
		"# The adapter config names no task type: AutoPeftModel loads the base model class it records.",
		"from peft import AutoPeftModel",
		"",
		`model = AutoPeftModel.from_pretrained(${id})`,
	].join("\n");
}

function peftSnippet(model: ModelData): string {
	const id = pyString(model.id);
	const { task_type: taskType, base_model_name_or_path: baseModel } = model.config?.peft ?? {};
	// Hub metadata may carry `null` or "" where the adapter config has no task type.
	if (!taskType) return peftWithoutTaskSnippet(id);
	const known = PEFT_TASK_BASE_CLASSES.get(taskType);
	const baseClass = known ?? "AutoModel";
	const lines: string[] = [];
	// PEFT 0.21 refuses a config whose task type is not a TaskType member ("Invalid task type").
	if (known === undefined)
		lines.push("# Task type is invalid: PEFT does not know it, so AutoModel is a guess.");
	if (!baseModel) lines.push("# Base model is not found.");
	lines.push("from peft import PeftModel", `from transformers import ${baseClass}`, "");
	if (baseModel) {
		lines.push(`base_model = ${baseClass}.from_pretrained(${pyString(baseModel)})`);
	} else {
		lines.push(
			"# Replace the placeholder with the model this adapter was trained on.",
			`base_model = ${baseClass}.from_pretrained("path/to/base-model")`,
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

/**
 * The class that loads an embedding model: sentence-transformers 6 tags sparse models "sparse-encoder"
 * and late-interaction models "multi-vector" in the model cards it writes, and loads them with
 * `SparseEncoder` and `MultiVectorEncoder`; both encode and compare like `SentenceTransformer`.
 */
function embeddingEncoderClass(model: ModelData): string {
	if (hasTag(model, "sparse-encoder")) return "SparseEncoder";
	if (hasTag(model, "multi-vector")) return "MultiVectorEncoder";
	return "SentenceTransformer";
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
	const encoder = embeddingEncoderClass(model);
	return [
		`from sentence_transformers import ${encoder}`,
		"",
		`model = ${encoder}${load}`,
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

/**
 * `from_config` takes a config name, which is the repository name without its namespace, and by default
 * downloads `hf://facebook/<name>:<name>.pt`; `checkpoint_path` makes it read the given repository
 * instead (`fetch_pe_checkpoint` in `core/vision_encoder/config.py`).
 */
function perceptionEncoderSnippet(model: ModelData, className: "CLIP" | "VisionTransformer"): string {
	const purpose =
		className === "CLIP" ? "# Image and text embeddings (PE-Core)" : "# Vision encoder for image features";
	return [
		purpose,
		"import core.vision_encoder.pe as pe",
		"",
		`model_id = ${pyString(model.id)}`,
		'name = model_id.split("/")[-1]',
		`model = pe.${className}.from_config(name, pretrained=True, checkpoint_path=f"hf://{model_id}:{name}.pt")`,
	].join("\n");
}

// ---------------------------------------------------------------------------------------------------
// araclip

/** AraClip is not on PyPI: its README installs it from the GitHub repository. */
const ARACLIP_GIT = "git+https://github.com/Arabic-Clip/Araclip.git";

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
		installCommand: `pip install ${ARACLIP_GIT}`,
		codeBlocks: (model) => [
			shell(`pip install ${ARACLIP_GIT}`),
			python(
				[
					"from araclip import AraClip",
					"",
					`model = AraClip.from_pretrained(${pyString(model.id)})`,
					'text_features = model.embed(text="صورة قطة")',
				].join("\n"),
			),
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
		// timm 1.0.29 spells the Hub source "hf-hub:" and still maps "hf_hub:" to it, without a warning.
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
		codeBlocks: (model, hubUrl) => [javascript(transformersJsSnippet(model, hubUrl))],
	}),
} as const satisfies Record<string, LibraryUiElement>;
