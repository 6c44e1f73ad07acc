import {
	getLibraryCodeBlocks,
	MODEL_LIBRARIES_UI_ELEMENTS,
	PIPELINE_DATA,
	isPipelineType,
	type LibraryUiElement,
	type ModelData,
} from "@modelhub/tasks";
import type { ModelRecord } from "../models/input.js";
import { GITATTRIBUTES } from "../repos/lfs.js";
import { toYaml } from "./yaml.js";

/** A file written by the hub itself for a model that brings none (the seed, metadata-only imports). */
export interface GeneratedFile {
	path: string;
	content: string;
}

const FENCE_LANGUAGE: Record<string, string> = {
	python: "python",
	shell: "bash",
	javascript: "js",
	csharp: "csharp",
};

function libraryOf(key: string | undefined): LibraryUiElement | undefined {
	if (key === undefined || !Object.hasOwn(MODEL_LIBRARIES_UI_ELEMENTS, key)) return undefined;
	return (MODEL_LIBRARIES_UI_ELEMENTS as Record<string, LibraryUiElement>)[key];
}

function list(value: unknown): string[] {
	if (typeof value === "string") return [value];
	if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
	return [];
}

/** 8030261248 → "8.03B". */
export function formatParameters(total: number): string {
	const units: Array<[number, string]> = [
		[1e12, "T"],
		[1e9, "B"],
		[1e6, "M"],
		[1e3, "K"],
	];
	for (const [size, unit] of units) {
		if (total >= size) return `${Number((total / size).toPrecision(3))}${unit}`;
	}
	return String(total);
}

function modelData(model: ModelRecord): ModelData {
	const data: ModelData = { id: model.id, tags: model.tags };
	if (model.pipelineTag !== undefined && isPipelineType(model.pipelineTag))
		data.pipeline_tag = model.pipelineTag;
	if (model.libraryName !== undefined) data.library_name = model.libraryName;
	if (model.maskToken !== undefined) data.mask_token = model.maskToken;
	if (model.config !== undefined) data.config = model.config as ModelData["config"];
	if (model.cardData !== undefined) data.cardData = model.cardData;
	if (model.widgetData !== undefined) data.widgetData = model.widgetData as ModelData["widgetData"];
	if (model.transformersInfo !== undefined)
		data.transformersInfo = model.transformersInfo as unknown as ModelData["transformersInfo"];
	return data;
}

function usageSection(model: ModelRecord): string[] {
	if (model.libraryName === undefined) return [];
	let blocks;
	try {
		blocks = getLibraryCodeBlocks(model.libraryName, modelData(model));
	} catch {
		// A generator that cannot handle this model's metadata: the card simply has no usage section.
		return [];
	}
	if (blocks.length === 0) return [];
	const out = ["## How to use", ""];
	for (const block of blocks) {
		out.push(`\`\`\`${FENCE_LANGUAGE[block.language] ?? ""}`, block.code.trimEnd(), "```", "");
	}
	return out;
}

/** The README.md of a model: front matter from its card data, then a body written from its metadata. */
export function renderModelCard(model: ModelRecord): string {
	const front =
		model.cardData && Object.keys(model.cardData).length > 0 ? `---\n${toYaml(model.cardData)}---\n\n` : "";
	const name = model.name;
	const pipeline =
		model.pipelineTag !== undefined && isPipelineType(model.pipelineTag)
			? PIPELINE_DATA[model.pipelineTag]
			: undefined;
	const library = libraryOf(model.libraryName);
	const card = model.cardData ?? {};

	const lines = [`# ${name}`, ""];
	const what = pipeline ? `a ${pipeline.name.toLowerCase()} model` : "a model";
	const uses = library ? ` for ${library.prettyLabel}` : model.libraryName ? ` for ${model.libraryName}` : "";
	lines.push(`\`${model.id}\` is ${what}${uses}.`, "");

	const details: string[] = [];
	if (pipeline) details.push(`- **Task:** ${pipeline.name} (\`${model.pipelineTag}\`)`);
	if (library) details.push(`- **Library:** [${library.prettyLabel}](${library.repoUrl})`);
	else if (model.libraryName) details.push(`- **Library:** ${model.libraryName}`);
	const architectures = list((model.config as { architectures?: unknown } | undefined)?.architectures);
	if (architectures.length > 0)
		details.push(`- **Architecture:** ${architectures.map((a) => `\`${a}\``).join(", ")}`);
	const parameters =
		(model.safetensors as { total?: unknown } | undefined)?.total ??
		(model.gguf as { total?: unknown } | undefined)?.total;
	if (typeof parameters === "number" && parameters > 0)
		details.push(`- **Parameters:** ${formatParameters(parameters)}`);
	const baseModels = list(card.base_model);
	if (baseModels.length > 0)
		details.push(`- **Base model:** ${baseModels.map((id) => `[${id}](/${id})`).join(", ")}`);
	const licenses = list(card.license);
	if (licenses.length > 0) details.push(`- **License:** ${licenses.join(", ")}`);
	const languages = list(card.language);
	if (languages.length > 0) details.push(`- **Languages:** ${languages.join(", ")}`);
	const datasets = list(card.datasets);
	if (datasets.length > 0) details.push(`- **Datasets:** ${datasets.join(", ")}`);
	if (details.length > 0) lines.push("## Model details", "", ...details, "");

	lines.push(...usageSection(model));

	const live = model.mappings.filter((mapping) => mapping.status === "live");
	if (live.length > 0) {
		lines.push(
			"## Inference providers",
			"",
			"Served through the inference client by:",
			"",
			...live.map((mapping) => `- ${mapping.provider} (\`${mapping.providerId}\`, ${mapping.task})`),
			"",
		);
	}
	lines.push("---", "", "_This card was written by ModelHub from the model's metadata._");
	return `${front}${lines.join("\n")}\n`;
}

function json(value: unknown): string {
	return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The files the hub writes for a model that has none of its own: `.gitattributes`, the model card and,
 * when the model has a config, `config.json` (its `tokenizer_config` part as `tokenizer_config.json`,
 * where the libraries read it).
 */
export function generatedFiles(model: ModelRecord): GeneratedFile[] {
	const files: GeneratedFile[] = [
		{ path: ".gitattributes", content: GITATTRIBUTES },
		{ path: "README.md", content: renderModelCard(model) },
	];
	if (model.config !== undefined) {
		const { tokenizer_config: tokenizerConfig, ...rest } = model.config;
		if (Object.keys(rest).length > 0) files.push({ path: "config.json", content: json(rest) });
		if (tokenizerConfig !== undefined && tokenizerConfig !== null)
			files.push({ path: "tokenizer_config.json", content: json(tokenizerConfig) });
	}
	return files;
}
