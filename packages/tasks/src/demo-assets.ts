/** Where demo media live inside the package (and the URL path the hub serves them under). */
export const DEMO_ASSETS_PATH = "assets/demo/";

/** The package-relative path of a demo file, e.g. `assets/demo/object-detection-input.svg`. */
export function demoAssetPath(filename: string): string {
	return DEMO_ASSETS_PATH + filename;
}
