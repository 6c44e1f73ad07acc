import { Composer, type CST, type Document, isScalar, LineCounter, Parser, visit } from "yaml";
import { PIPELINE_TYPES } from "@modelhub/tasks";
import { checkJson, ModelInputError } from "../models/input.js";
import { hasControlCharacter } from "@modelhub/tasks/literals";

/**
 * The YAML front matter of a model card (README.md between `---` lines): the metadata the public hub
 * reads into `cardData`, and from which it takes a model's task, library and tags. Parsed with the
 * `yaml` library (YAML 1.2 core schema, aliases bounded), never by hand.
 *
 * Every step is linear in the input's size: the block's size and nesting depth are bounded before the
 * YAML is composed, and duplicate keys are found with one set per mapping (see duplicateKeys).
 */
export interface FrontMatter {
	/** The metadata object; undefined when the card has none or it is invalid. */
	data: Record<string, unknown> | undefined;
	errors: string[];
	warnings: string[];
}

/** Longest metadata block, in UTF-16 code units; commits read a README's first 300 KiB for it. */
export const MAX_FRONT_MATTER = 256 * 1024;
/**
 * Deepest nesting of collections composed. The `yaml` library composes recursively: 20,000 `[` made
 * it overflow the stack (and once abort the process); real cards nest under ten levels (model-index).
 */
export const MAX_FRONT_MATTER_DEPTH = 64;
/** Errors reported per card: a broken card can yield thousands, and each is joined into the answer. */
const MAX_REPORTED_ERRORS = 10;
const FENCE = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** The deepest nesting of collections in a parsed (CST) YAML stream, walked without recursion. */
function cstDepth(tokens: readonly CST.Token[]): number {
	let deepest = 0;
	const pending: Array<[CST.Token, number]> = tokens.map((token) => [token, 0]);
	for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
		const [token, depth] = next;
		deepest = Math.max(deepest, depth);
		if (token.type === "document" && token.value) pending.push([token.value, depth]);
		if (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection") {
			for (const item of token.items) {
				if (item.key) pending.push([item.key, depth + 1]);
				if (item.value) pending.push([item.value, depth + 1]);
			}
		}
	}
	return deepest;
}

/**
 * Keys repeated within one mapping, as `"key" (line n)`. The `yaml` library's own `uniqueKeys` check
 * compares each key with every earlier key of its mapping: quadratic, a 204 KB card of distinct keys
 * held the hub for 9–18 s. One set per mapping finds the same duplicates (scalar keys by value; other
 * keys are never equal, as there) in linear time.
 */
function duplicateKeys(document: Document.Parsed, lines: LineCounter): string[] {
	const found: string[] = [];
	visit(document, {
		Map(_key, map) {
			const seen = new Set<unknown>();
			for (const pair of map.items) {
				if (!isScalar(pair.key)) continue;
				const value: unknown = pair.key.value;
				if (seen.has(value)) {
					// Lines of the card: the block starts after the opening `---` line.
					const line = pair.key.range ? lines.linePos(pair.key.range[0]).line + 1 : undefined;
					const where = line === undefined ? "" : ` (line ${line})`;
					found.push(`${JSON.stringify(String(value)).slice(0, 80)}${where}`);
					if (found.length >= MAX_REPORTED_ERRORS) return visit.BREAK;
				}
				seen.add(value);
			}
			return undefined;
		},
	});
	return found;
}

/** The one YAML document of a metadata block, or the errors that make it unreadable. */
function composeYaml(yamlText: string): { document: Document.Parsed } | { errors: string[] } {
	const lines = new LineCounter();
	const tokens = [...new Parser(lines.addNewLine).parse(yamlText)];
	if (cstDepth(tokens) > MAX_FRONT_MATTER_DEPTH) {
		return { errors: [`The metadata nests collections deeper than ${MAX_FRONT_MATTER_DEPTH} levels`] };
	}
	// uniqueKeys is checked below in linear time (duplicateKeys); the library's check is quadratic.
	const composer = new Composer({ prettyErrors: false, uniqueKeys: false });
	const documents = [...composer.compose(tokens, true, yamlText.length)];
	const document = documents[0];
	if (!document) return { errors: ["Invalid YAML: no document"] };
	const errors = document.errors.map((error) => `Invalid YAML: ${error.message}`);
	if (documents.length > 1) errors.push("Invalid YAML: the metadata holds more than one YAML document");
	if (errors.length === 0) {
		for (const key of duplicateKeys(document, lines))
			errors.push(`Invalid YAML: Map keys must be unique: ${key}`);
	}
	return errors.length > 0 ? { errors: errors.slice(0, MAX_REPORTED_ERRORS) } : { document };
}

/**
 * Reads a card's front matter. A model card's `license`, `library_name` and `pipeline_tag` must be
 * strings (and the task a known one); a dataset card's are its own (`license` may be a list, as in
 * huggingface_hub's DatasetCardData), so `kind: "dataset"` skips those checks.
 */
export function readFrontMatter(content: string, kind: "model" | "dataset" = "model"): FrontMatter {
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
			errors: [`The metadata block is longer than ${MAX_FRONT_MATTER} characters`],
			warnings: [],
		};
	}
	if (yamlText.trim() === "") return { data: undefined, errors: [], warnings: ["Empty metadata"] };
	const composed = composeYaml(yamlText);
	if ("errors" in composed) return { data: undefined, errors: composed.errors, warnings: [] };
	const { document } = composed;
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
	if (kind === "dataset") return { data: record, errors: [], warnings: [] };
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

const MAX_TAG_LENGTH = 256;

/** What a tag may be, in a card or derived: 1–256 UTF-16 units of well-formed text, no control character. */
export function isValidTag(tag: string): boolean {
	return tag.length >= 1 && tag.length <= MAX_TAG_LENGTH && !hasControlCharacter(tag) && tag.isWellFormed();
}
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
	].filter(isValidTag);
	return { pipelineTag: pipeline, libraryName: library, tags: [...new Set(tags)].slice(0, 1000) };
}
