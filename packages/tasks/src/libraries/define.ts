import type { CodeBlock, LibraryUiElement, ModelData } from "./types.js";

/** A catalogue entry as written in a family file: `codeBlocks` is the single source of its snippets. */
export type LibraryDefinition = Omit<LibraryUiElement, "snippets">;

/** Completes an entry: `snippets` is derived from `codeBlocks`, so the two can never disagree. */
export function defineLibrary(definition: LibraryDefinition): LibraryUiElement {
	const { codeBlocks } = definition;
	if (!codeBlocks) return definition;
	return {
		...definition,
		snippets: (model: ModelData) => codeBlocks(model).map((block) => block.code),
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
