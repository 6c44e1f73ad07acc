import type { RevisionFile } from "./types.js";

/**
 * The small JSON files analysis reads whole (each up to MAX_ANALYSED_JSON_BYTES), at the repository
 * root: transformers `config.json`, diffusers `model_index.json`, peft `adapter_config.json`, and the
 * tokenizer and preprocessor configurations that decide `transformersInfo.processor` and
 * `config.tokenizer_config`. Other files matter by their presence only.
 */
export const ANALYSED_JSON_FILES = [
	"config.json",
	"model_index.json",
	"adapter_config.json",
	"tokenizer_config.json",
	"preprocessor_config.json",
] as const;

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

/** Whether the revision holds a file at exactly `path`. */
export function hasFile(snapshot: Pick<RevisionSnapshot, "files">, path: string): boolean {
	return snapshot.files.some((file) => file.path === path);
}

/** Whether the revision holds a file (anywhere) whose name ends with `suffix`. */
export function hasFileEnding(snapshot: Pick<RevisionSnapshot, "files">, suffix: string): boolean {
	return snapshot.files.some((file) => file.path.endsWith(suffix));
}

/** The file name of a path (its last segment). */
export function baseName(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}
