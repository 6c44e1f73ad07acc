import { parseDocument } from "yaml";
import { PIPELINE_TYPES } from "@modelhub/tasks";
import { checkJson, ModelInputError } from "../models/input.js";

/**
 * The YAML front matter of a model card (README.md between `---` lines): the metadata the public hub
 * reads into `cardData`, and from which it takes a model's task, library and tags. Parsed with the
 * `yaml` library (YAML 1.2 core schema, aliases bounded), never by hand.
 */
export interface FrontMatter {
	/** The metadata object; undefined when the card has none or it is invalid. */
	data: Record<string, unknown> | undefined;
	errors: string[];
	warnings: string[];
}

const MAX_FRONT_MATTER = 256 * 1024;
const FENCE = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

export function readFrontMatter(content: string): FrontMatter {
	const text = content.startsWith("\ufeff") ? content.slice(1) : content;
	if (!text.startsWith("---")) return { data: undefined, errors: [], warnings: [] };
	const match = FENCE.exec(text);
	if (!match)
		return {
			data: undefined,
			errors: ["The metadata block opened by '---' is never closed by a '---' line"],
			warnings: [],
		};
	const yamlText = match[1] ?? "";
	if (yamlText.length > MAX_FRONT_MATTER) {
		return {
			data: undefined,
			errors: [`The metadata block is larger than ${MAX_FRONT_MATTER} bytes`],
			warnings: [],
		};
	}
	if (yamlText.trim() === "") return { data: undefined, errors: [], warnings: ["Empty metadata"] };
	const document = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
	if (document.errors.length > 0) {
		return {
			data: undefined,
			errors: document.errors.map((error) => `Invalid YAML: ${error.message}`),
			warnings: [],
		};
	}
	let data: unknown;
	try {
		// Dates and other YAML types become JSON (what cardData holds).
		data = JSON.parse(JSON.stringify(document.toJS({ maxAliasCount: 100 }) ?? null));
	} catch (error) {
		return { data: undefined, errors: [`Invalid YAML: ${(error as Error).message}`], warnings: [] };
	}
	if (data === null) return { data: undefined, errors: [], warnings: ["Empty metadata"] };
	if (typeof data !== "object" || Array.isArray(data)) {
		return {
			data: undefined,
			errors: ["The metadata must be a YAML mapping (key: value lines)"],
			warnings: [],
		};
	}
	try {
		checkJson(data, "the metadata");
	} catch (error) {
		if (error instanceof ModelInputError) return { data: undefined, errors: [error.message], warnings: [] };
		throw error;
	}
	const errors: string[] = [];
	const record = data as Record<string, unknown>;
	for (const key of ["license", "library_name", "pipeline_tag"]) {
		const value = record[key];
		if (value !== undefined && value !== null && typeof value !== "string") {
			errors.push(`"${key}" must be a string`);
		}
	}
	const pipelineTag = record.pipeline_tag;
	if (typeof pipelineTag === "string" && !(PIPELINE_TYPES as readonly string[]).includes(pipelineTag)) {
		errors.push(
			`"pipeline_tag" must be a task id such as "text-generation", got ${JSON.stringify(pipelineTag.slice(0, 60))}`,
		);
	}
	return errors.length > 0
		? { data: undefined, errors, warnings: [] }
		: { data: record, errors: [], warnings: [] };
}

function strings(value: unknown): string[] {
	const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
	return list
		.filter((item): item is string => typeof item === "string" && item.trim() !== "")
		.map((item) => item.trim());
}

// eslint-disable-next-line no-control-regex
const TAG = /^[^\u0000-\u001f\u007f]{1,256}$/;
const LIBRARY = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

/** What a card's metadata says of the model: its task, library and tags (the public hub's derivation). */
export function cardFacts(data: Record<string, unknown>): {
	pipelineTag: string | undefined;
	libraryName: string | undefined;
	tags: string[];
} {
	const library =
		typeof data.library_name === "string" && LIBRARY.test(data.library_name) ? data.library_name : undefined;
	const pipeline =
		typeof data.pipeline_tag === "string" && (PIPELINE_TYPES as readonly string[]).includes(data.pipeline_tag)
			? data.pipeline_tag
			: undefined;
	const tags = [
		...(library ? [library] : []),
		...strings(data.tags),
		...strings(data.language),
		...strings(data.license).map((license) => `license:${license}`),
		...strings(data.datasets).map((dataset) => `dataset:${dataset}`),
		...strings(data.base_model).map((model) => `base_model:${model}`),
	].filter((tag) => TAG.test(tag) && tag.isWellFormed());
	return { pipelineTag: pipeline, libraryName: library, tags: [...new Set(tags)].slice(0, 1000) };
}
