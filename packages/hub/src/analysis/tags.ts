import { FORMAT_FILE_PATTERNS } from "./analysed-paths.js";
import { isRecord } from "./json.js";
import { hasFile, hasFileEnding, type RevisionSnapshot } from "./snapshot.js";
import { isValidTag } from "../cards/front-matter.js";

/**
 * Tags the files give, as the public hub shows them: one per weights format present
 * (bert-base-uncased: `safetensors`, `pytorch`, `tf`, `jax`, `rust`, `coreml`, `onnx`; GGUF
 * repositories: `gguf`; openvino and tflite exports likewise), each with the file its library writes.
 */
export const FORMAT_TAGS: readonly (readonly [
	tag: string,
	matches: (snapshot: RevisionSnapshot) => boolean,
])[] = [
	["safetensors", (s) => hasFileEnding(s, ".safetensors")],
	["gguf", (s) => hasFileEnding(s, ".gguf")],
	["pytorch", (s) => s.files.some((f) => FORMAT_FILE_PATTERNS.pytorch.test(f.path))],
	["tf", (s) => s.files.some((f) => FORMAT_FILE_PATTERNS.tf.test(f.path))],
	["jax", (s) => s.files.some((f) => FORMAT_FILE_PATTERNS.jax.test(f.path))],
	["rust", (s) => hasFileEnding(s, "rust_model.ot")],
	["onnx", (s) => hasFileEnding(s, ".onnx")],
	["openvino", (s) => hasFileEnding(s, "openvino_model.xml")],
	["tflite", (s) => hasFileEnding(s, ".tflite")],
	["coreml", (s) => s.files.some((f) => FORMAT_FILE_PATTERNS.coreml.test(f.path))],
];

/** Formats the public hub lists right after the library (bert-base-uncased: `transformers`, `safetensors`). */
const HEADLINE_FORMATS: ReadonlySet<string> = new Set(["safetensors", "gguf"]);

/** The relations the public hub documents for `base_model` ("adapter", "merge", "quantized", "finetune"). */
export const BASE_MODEL_RELATIONS = ["adapter", "merge", "quantized", "finetune"] as const;
export type BaseModelRelation = (typeof BASE_MODEL_RELATIONS)[number];

/** An arXiv id linked from the card (hub docs, paper pages: linked arXiv papers become `arxiv:<id>` tags). */
const ARXIV_LINK = /arxiv\.org\/(?:abs|pdf)\/(\d{4}\.\d{4,5})/gi;
const MAX_ARXIV_TAGS = 100;
/** How many tags a model has (what one may be: isValidTag, as for the card's own tags). */
const MAX_TAGS = 1000;

function strings(value: unknown): string[] {
	if (typeof value === "string") return value ? [value] : [];
	return Array.isArray(value)
		? value.filter((item): item is string => typeof item === "string" && item !== "")
		: [];
}

/**
 * The relation to the base model when the card does not state `base_model_relation`: the hub docs say
 * it is inferred from the repository; we infer adapter from an adapter_config.json (peft) or the
 * `lora` tag, quantized from GGUF files or a `quantization_config`, merge from several base models,
 * and finetune otherwise.
 */
export function baseModelRelation(
	snapshot: RevisionSnapshot,
	baseModels: readonly string[],
): BaseModelRelation {
	const stated = snapshot.card?.base_model_relation;
	if (typeof stated === "string" && (BASE_MODEL_RELATIONS as readonly string[]).includes(stated)) {
		return stated as BaseModelRelation;
	}
	if (hasFile(snapshot, "adapter_config.json") || strings(snapshot.card?.tags).includes("lora"))
		return "adapter";
	if (hasFileEnding(snapshot, ".gguf") || isRecord(snapshot.json["config.json"]?.quantization_config)) {
		return "quantized";
	}
	if (baseModels.length > 1) return "merge";
	return "finetune";
}

export function arxivIds(readme: string | undefined): string[] {
	if (!readme) return [];
	const ids = new Set<string>();
	for (const match of readme.matchAll(ARXIV_LINK)) {
		ids.add(match[1] as string);
		if (ids.size >= MAX_ARXIV_TAGS) break;
	}
	return [...ids];
}

/** What the tags are made of besides the files: the effective library and task, and the model type. */
export interface TagInputs {
	library: string | undefined;
	pipelineTag: string | undefined;
	modelType: string | undefined;
	chatTemplate: boolean;
	diffusersClass: string | undefined;
}

/**
 * The tags of a revision, in the public hub's order (library, formats, model type, task, the card's
 * own tags, then `dataset:`, languages, `arxiv:`, `base_model:`, `license:`), each once.
 * `conversational` marks a chat template (public hub: instruct GGUF and chat models carry it).
 */
export function deriveTags(snapshot: RevisionSnapshot, inputs: TagInputs): string[] {
	const card = snapshot.card ?? {};
	const formats = FORMAT_TAGS.filter(([, matches]) => matches(snapshot)).map(([tag]) => tag);
	const baseModels = strings(card.base_model);
	const relation = baseModels.length > 0 ? baseModelRelation(snapshot, baseModels) : undefined;
	const tags = [
		...(inputs.library ? [inputs.library] : []),
		...formats.filter((tag) => HEADLINE_FORMATS.has(tag)),
		...(inputs.modelType ? [inputs.modelType] : []),
		...(inputs.pipelineTag ? [inputs.pipelineTag] : []),
		...formats.filter((tag) => !HEADLINE_FORMATS.has(tag)),
		...strings(card.tags),
		...(inputs.diffusersClass ? [`diffusers:${inputs.diffusersClass}`] : []),
		...strings(card.datasets).map((dataset) => `dataset:${dataset}`),
		...strings(card.language),
		...arxivIds(snapshot.readme).map((id) => `arxiv:${id}`),
		...baseModels.map((model) => `base_model:${model}`),
		...(relation ? baseModels.map((model) => `base_model:${relation}:${model}`) : []),
		...strings(card.license).map((license) => `license:${license}`),
		...(inputs.chatTemplate ? ["conversational"] : []),
	];
	return [...new Set(tags.filter(isValidTag))].slice(0, MAX_TAGS);
}
