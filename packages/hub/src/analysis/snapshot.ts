import { isAnalysedPath, type ANALYSED_JSON_FILES } from "./analysed-paths.js";
import type { RevisionFile } from "./types.js";

export { ANALYSED_JSON_FILES } from "./analysed-paths.js";

export type AnalysedJsonFile = (typeof ANALYSED_JSON_FILES)[number];

/** What the weights' headers tell (read by safetensors.ts / gguf.ts), as far as derivation uses it. */
export interface WeightsFacts {
	/** The GGUF header's `general.architecture`. */
	ggufArchitecture?: string | undefined;
	/** The GGUF header's `tokenizer.chat_template`. */
	ggufChatTemplate?: string | undefined;
}

/** Everything derivation looks at: one revision's files, its small JSON files, and its card. */
export interface RevisionSnapshot {
	files: readonly RevisionFile[];
	/** The parsed JSON objects of the files above that exist and could be read. */
	json: Partial<Record<AnalysedJsonFile, Record<string, unknown>>>;
	/** The README's front matter (`cardData`), when it has one. */
	card?: Record<string, unknown> | undefined;
	/** The README's text (its head, bounded), for the `arxiv:` ids it links to. */
	readme?: string | undefined;
	weights?: WeightsFacts | undefined;
}

/**
 * Analysis only ever looks at the files analysed-paths.ts declares (it carries its result forward over
 * commits that change no other): looking for another is a mistake in the analysis's code.
 */
function requireAnalysed(path: string): void {
	if (!isAnalysedPath(path))
		throw new Error(`analysis looks for ${path}, which analysed-paths.ts does not declare`);
}

/** Whether the revision holds a file at exactly `path`. */
export function hasFile(snapshot: Pick<RevisionSnapshot, "files">, path: string): boolean {
	requireAnalysed(path);
	return snapshot.files.some((file) => file.path === path);
}

/** Whether the revision holds a file (anywhere) whose name ends with `suffix`. */
export function hasFileEnding(snapshot: Pick<RevisionSnapshot, "files">, suffix: string): boolean {
	requireAnalysed(`any/${suffix}`);
	return snapshot.files.some((file) => file.path.endsWith(suffix));
}
