import { audioLibraries } from "./families/audio.js";
import { diffusionLibraries } from "./families/diffusion.js";
import { kerasLibraries } from "./families/keras.js";
import { nlpLibraries } from "./families/nlp.js";
import { rlTabularLibraries } from "./families/rl-tabular.js";
import { runtimesLibraries } from "./families/runtimes.js";
import { transformersLibraries } from "./families/transformers.js";
import { visionLibraries } from "./families/vision.js";
import { countsAsDownload, countsAsHubDownload } from "./download-counting.js";
import { MODEL_LIBRARY_KEYS, type ModelLibraryKey } from "./keys.js";
import type { CodeBlock, LibraryUiElement, ModelData } from "./types.js";
import type { SnippetOptions } from "../snippets/hub-endpoint.js";

const ALL_FAMILIES = {
	...transformersLibraries,
	...nlpLibraries,
	...audioLibraries,
	...visionLibraries,
	...diffusionLibraries,
	...kerasLibraries,
	...runtimesLibraries,
	...rlTabularLibraries,
} satisfies Record<ModelLibraryKey, LibraryUiElement>;

/**
 * Every library, keyed by the value models carry in `library_name`, in catalogue order. The type
 * check above fails when a family misses a key, so the catalogue cannot silently lose an entry.
 */
export const MODEL_LIBRARIES_UI_ELEMENTS = Object.fromEntries(
	MODEL_LIBRARY_KEYS.map((key) => [key, ALL_FAMILIES[key]]),
) as { [K in ModelLibraryKey]: (typeof ALL_FAMILIES)[K] };

export const ALL_MODEL_LIBRARY_KEYS: ModelLibraryKey[] = [...MODEL_LIBRARY_KEYS];

/** The libraries offered in the model list's library filter. */
export const ALL_DISPLAY_MODEL_LIBRARY_KEYS: ModelLibraryKey[] = MODEL_LIBRARY_KEYS.filter(
	(key) => (MODEL_LIBRARIES_UI_ELEMENTS[key] as LibraryUiElement).filter === true,
);

function entryOf(library: string): LibraryUiElement | undefined {
	if (!Object.hasOwn(MODEL_LIBRARIES_UI_ELEMENTS, library)) return undefined;
	return (MODEL_LIBRARIES_UI_ELEMENTS as Record<string, LibraryUiElement>)[library];
}

/**
 * A library's snippets for a model, each tagged with its language; `[]` for unknown libraries. With
 * `options.hubUrl` naming another hub, they load the model from that hub.
 */
export function getLibraryCodeBlocks(
	library: string,
	model: ModelData,
	options?: SnippetOptions,
): CodeBlock[] {
	return entryOf(library)?.codeBlocks?.(model, options) ?? [];
}

/** The documented install command of a library, where known. */
export function getLibraryInstallCommand(library: string): string | undefined {
	return entryOf(library)?.installCommand;
}

/**
 * Whether a request for `path` (relative to the repository root) counts as a download of a model whose
 * library is `library`. Unknown or missing libraries use the default rule.
 */
export function isLibraryDownload(library: string | undefined, path: string): boolean {
	return countsAsDownload(library, path, libraryDownloadQueries());
}

/**
 * Whether a request for `path` counts as a download of a model of `library` the way the public hub
 * counts: the catalogue's rule plus the hub's documented GGUF, diffusers and default-file rules
 * (`countsAsHubDownload`). What a hub that counts downloads should use.
 */
export function isModelDownload(library: string | undefined, path: string): boolean {
	return countsAsHubDownload(library, path, libraryDownloadQueries());
}

let downloadQueries: Partial<Record<ModelLibraryKey, string | undefined>> | undefined;

function libraryDownloadQueries(): Partial<Record<ModelLibraryKey, string | undefined>> {
	downloadQueries ??= Object.fromEntries(
		MODEL_LIBRARY_KEYS.map((key) => [
			key,
			(MODEL_LIBRARIES_UI_ELEMENTS[key] as LibraryUiElement).countDownloads,
		]),
	);
	return downloadQueries;
}
