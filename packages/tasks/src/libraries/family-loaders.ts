import type { LibraryUiElement } from "./types.js";

type FamilyLoader = () => Promise<Readonly<Record<string, LibraryUiElement>>>;

/**
 * The library catalogue's families, each loaded on demand: a caller that needs one library's snippet
 * generator (a library's page, say) loads that library's family rather than the whole catalogue that
 * `MODEL_LIBRARIES_UI_ELEMENTS` holds. Every key of the catalogue is in exactly one family, and a family's
 * entries are the catalogue's own objects (index.test.ts checks both). Which family holds a key is known
 * only by loading them: a build step that needs it for every key loads all of them once.
 */
export const MODEL_LIBRARY_FAMILIES = {
	transformers: () => import("./families/transformers.js").then((module) => module.transformersLibraries),
	nlp: () => import("./families/nlp.js").then((module) => module.nlpLibraries),
	audio: () => import("./families/audio.js").then((module) => module.audioLibraries),
	vision: () => import("./families/vision.js").then((module) => module.visionLibraries),
	diffusion: () => import("./families/diffusion.js").then((module) => module.diffusionLibraries),
	keras: () => import("./families/keras.js").then((module) => module.kerasLibraries),
	runtimes: () => import("./families/runtimes.js").then((module) => module.runtimesLibraries),
	"rl-tabular": () => import("./families/rl-tabular.js").then((module) => module.rlTabularLibraries),
} as const satisfies Record<string, FamilyLoader>;

/** A family of the library catalogue (a key of `MODEL_LIBRARY_FAMILIES`). */
export type ModelLibraryFamily = keyof typeof MODEL_LIBRARY_FAMILIES;

/** Whether `value` names a family of the library catalogue. */
export function isModelLibraryFamily(value: string): value is ModelLibraryFamily {
	return Object.hasOwn(MODEL_LIBRARY_FAMILIES, value);
}

/**
 * The catalogue entry of library `key` from its family (loading that family only); undefined when the
 * family has no such key.
 */
export async function loadLibraryEntry(
	family: ModelLibraryFamily,
	key: string,
): Promise<LibraryUiElement | undefined> {
	const entries: Readonly<Record<string, LibraryUiElement>> = await MODEL_LIBRARY_FAMILIES[family]();
	return Object.hasOwn(entries, key) ? entries[key] : undefined;
}
