/**
 * Which GGUF quantisation a command should name: the file the user picked, else the repository's
 * Q4_K_M, else its first quantisation. The labels come from the package's GGUF file-name parser.
 */
import { parseGGUFQuantLabel } from "../gguf.js";
import type { ModelData } from "../libraries/types.js";

/**
 * What llama.cpp (`-hf`), Ollama, Docker Model Runner and node-llama-cpp each pick when a command
 * names no quantisation (their docs: "default to Q4_K_M"), so it is also our preferred choice.
 */
export const DEFAULT_GGUF_QUANT = "Q4_K_M";

/** Enough for any real repository; the hub lists files in one response, so this bounds the work. */
const MAX_FILES = 10_000;

export interface GgufChoice {
	/** The quantisation label to name (e.g. `Q4_K_M`), when one is known. */
	quant?: string;
	/** The `.gguf` file holding it (the first part of a split file), when known. */
	file?: string;
	/** Every quantisation the repository offers, in file order, each once. */
	quants: string[];
}

const SPLIT_PART = /-(\d{5})-of-\d{5}\.gguf$/i;

/** The repository's model files: `.gguf`, without multimodal projectors, one entry per split file. */
export function ggufFiles(model: ModelData): string[] {
	const siblings = Array.isArray(model.siblings) ? model.siblings.slice(0, MAX_FILES) : [];
	return siblings
		.map((sibling) => sibling?.rfilename)
		.filter((name): name is string => typeof name === "string" && /\.gguf$/i.test(name))
		.filter((name) => !/(^|\/)mmproj[^/]*$/i.test(name))
		.filter((name) => {
			const part = SPLIT_PART.exec(name);
			return !part || part[1] === "00001";
		});
}

/** Quantisation labels carried as tags (e.g. `Q4_K_M`), for repositories whose file list is unknown. */
function quantTags(model: ModelData): string[] {
	const tags = Array.isArray(model.tags) ? model.tags.slice(0, MAX_FILES) : [];
	return tags.filter(
		(tag) =>
			typeof tag === "string" &&
			/^[A-Za-z0-9_]+$/.test(tag) &&
			parseGGUFQuantLabel(tag) === tag.toUpperCase(),
	);
}

function unique(labels: Array<string | undefined>): string[] {
	return [...new Set(labels.filter((label): label is string => label !== undefined))];
}

export function chooseGguf(model: ModelData, filepath?: string): GgufChoice {
	const files = ggufFiles(model);
	const quants =
		files.length > 0
			? unique(files.map(parseGGUFQuantLabel))
			: unique(quantTags(model).map((t) => t.toUpperCase()));
	if (typeof filepath === "string" && filepath !== "") {
		const quant = parseGGUFQuantLabel(filepath);
		return { ...(quant ? { quant } : {}), file: filepath, quants };
	}
	const quant = quants.includes(DEFAULT_GGUF_QUANT) ? DEFAULT_GGUF_QUANT : quants[0];
	const file = quant === undefined ? undefined : files.find((name) => parseGGUFQuantLabel(name) === quant);
	return { ...(quant ? { quant } : {}), ...(file ? { file } : {}), quants };
}
