import { shWord } from "../literals/shell.js";
import {
	otherHubUrl,
	pythonPrelude,
	shellPrelude,
	withPrelude,
	type SnippetOptions,
} from "../snippets/hub-endpoint.js";
import type { CodeBlock, LibraryUiElement, ModelData } from "./types.js";

/**
 * A catalogue entry as written in a family file: `codeBlocks` is the single source of its snippets. It
 * receives the hub serving the model when that is not the public hub (normalised, see
 * `../snippets/hub-endpoint.ts`), for the few generators that write a hub URL or a JavaScript client
 * setting themselves; the endpoint lines of Python and shell blocks are added by `defineLibrary`.
 */
export type LibraryDefinition = Omit<LibraryUiElement, "snippets" | "codeBlocks"> & {
	codeBlocks?: (model: ModelData, hubUrl: string | undefined) => CodeBlock[];
};

/** Commands that install a package or a tool, and fetch nothing from a hub by themselves. */
const INSTALL_COMMAND = /^(pip3? install|brew install|npm (i|install)|git clone|cd|cmake) /;

/**
 * Whether a shell block may fetch the model: it names the id (as a word or inside one), or runs a tool
 * other than an installer (a CLI that reads its model from a file or folder, say). Blocks that only
 * install packages from elsewhere need no endpoint.
 */
function mayFetchModel(code: string, model: ModelData): boolean {
	if (code.includes(model.id) || code.includes(shWord(model.id))) return true;
	return code
		.split("\n")
		.map((line) => line.trim())
		.some((line) => line !== "" && !line.startsWith("#") && !INSTALL_COMMAND.test(line));
}

/**
 * Points a block at the hub serving the model: Python blocks set HF_ENDPOINT before their first import,
 * shell blocks that fetch the model export it; for private models both say where the token comes from.
 * JavaScript and C# blocks are the generators' own business (their clients read other settings).
 */
function targetHub(block: CodeBlock, model: ModelData, hubUrl: string | undefined): CodeBlock {
	if (block.language === "python")
		return { ...block, code: withPrelude(pythonPrelude(model, hubUrl), block.code) };
	if (block.language === "shell" && mayFetchModel(block.code, model))
		return { ...block, code: withPrelude(shellPrelude(model, hubUrl), block.code) };
	return block;
}

/** Completes an entry: `snippets` is derived from `codeBlocks`, so the two can never disagree. */
export function defineLibrary(definition: LibraryDefinition): LibraryUiElement {
	const { codeBlocks, ...rest } = definition;
	if (!codeBlocks) return rest;
	const blocks = (model: ModelData, options?: SnippetOptions): CodeBlock[] => {
		const hubUrl = otherHubUrl(options);
		return codeBlocks(model, hubUrl).map((block) => targetHub(block, model, hubUrl));
	};
	return {
		...rest,
		codeBlocks: blocks,
		snippets: (model: ModelData, options?: SnippetOptions) =>
			blocks(model, options).map((block) => block.code),
	};
}

export const python = (code: string): CodeBlock => ({ language: "python", code });
export const shell = (code: string): CodeBlock => ({ language: "shell", code });
export const javascript = (code: string): CodeBlock => ({ language: "javascript", code });
export const csharp = (code: string): CodeBlock => ({ language: "csharp", code });

/** The repository name without its namespace: `a/b` → `b`, `b` → `b`, `a/b/c` → `b`. */
export function nameWithoutNamespace(modelId: string): string {
	const parts = modelId.split("/");
	return parts.length === 1 ? (parts[0] ?? modelId) : (parts[1] ?? modelId);
}

/** Whether the model carries a tag (exact, case-sensitive), tolerating a missing tag list. */
export function hasTag(model: ModelData, tag: string): boolean {
	return Array.isArray(model.tags) && model.tags.includes(tag);
}
