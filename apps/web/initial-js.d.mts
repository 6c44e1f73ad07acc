/** Types of initial-js.mjs (the initial JavaScript of every page type of the built app). */

export interface ManifestChunk {
	file: string;
	src?: string;
	isEntry?: boolean;
	isDynamicEntry?: boolean;
	imports?: string[];
	dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface PageType {
	/** The page's module name, with the lazily loaded modules on the way to its view: "Model+CommitView". */
	name: string;
	/** The manifest keys whose static closures it loads besides the entry's, page first. */
	modules: string[];
}

export const INITIAL_JS_LIMIT: number;
export const ROUTE_VIEWS: readonly string[];
export function readBuild(dist: string): { manifest: Manifest; preloaded: string[] };
export function staticClosure(manifest: Manifest, key: string, seen?: Set<string>): Set<string>;
export function entryFiles(manifest: Manifest, preloaded: readonly string[]): Set<string>;
export function pageTypes(manifest: Manifest, views?: readonly string[]): PageType[];
export function initialFiles(
	manifest: Manifest,
	preloaded: readonly string[],
	modules: readonly string[],
): Set<string>;
export function gzipBytes(dist: string, files: Iterable<string>): number;
export function measurePageTypes(dist: string): Array<PageType & { bytes: number }>;
