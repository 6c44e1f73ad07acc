/**
 * The syntax highlighter (highlight.js) and the diff library (jsdiff) load only on the views that need
 * them (issue 22): over the built app's Vite manifest (`apps/web/dist/.vite/manifest.json`, written by
 * `npm run build`, as the browser tests need), no chunk holding either is in the entry's closure (the
 * scripts index.html loads or preloads and their static imports) nor in the static closure of any page
 * (`src/pages/*`, the entry's lazy routes) or of any other lazily loaded part but the one that needs it:
 * `src/components/browse/highlight.ts` (a file view imports it when it shows code) and
 * `src/components/browse/CommitView.tsx` (a commit's diffs). A chunk is found to hold a library by a
 * string of the library's own source, checked against the installed package first, so a library
 * upgrade that drops the string fails here rather than letting the test pass on nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { entryFiles, readBuild, staticClosure, type Manifest } from "../initial-js.mjs";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const dist = join(root, "apps/web/dist");
const manifestPath = join(dist, ".vite/manifest.json");

interface LazyLibrary {
	name: string;
	/** The installed file that holds `signature` (checked, so the signature is the library's own). */
	source: string;
	/** Text of the library that survives minification (a message it throws or writes). */
	signature: string;
	/** The manifest entries (lazily loaded modules) whose static closure may hold it. */
	neededBy: readonly string[];
}

const LIBRARIES: readonly LazyLibrary[] = [
	{
		name: "highlight.js",
		source: "node_modules/highlight.js/lib/core.js",
		signature: "did you forget to load/include a language module?",
		neededBy: ["src/components/browse/highlight.ts"],
	},
	{
		name: "diff (jsdiff)",
		source: "node_modules/diff/libesm/patch/create.js",
		signature: "newlineIsToken may not be used with patch-generation functions",
		neededBy: ["src/components/browse/CommitView.tsx"],
	},
];

/**
 * Where chunks holding `library` load though nothing there needs it: "entry" for the first load, else
 * the lazily loaded module (a page, a view) whose static closure holds one.
 */
function unneededLoads(
	manifest: Manifest,
	holders: ReadonlySet<string>,
	neededBy: readonly string[],
	preloaded: readonly string[] = [],
): string[] {
	const found: string[] = [];
	if ([...entryFiles(manifest, preloaded)].some((file) => holders.has(file))) found.push("entry");
	for (const key of Object.keys(manifest)) {
		if (!manifest[key]?.isDynamicEntry || neededBy.includes(key)) continue;
		const files = [...staticClosure(manifest, key)].map((inner) => manifest[inner]?.file ?? "");
		if (files.some((file) => holders.has(file))) found.push(key);
	}
	return found;
}

/** The built app's manifest and the scripts index.html loads and preloads itself. */
function built(): { manifest: Manifest; preloaded: string[] } {
	if (!existsSync(manifestPath))
		throw new Error(`${manifestPath} is missing: build the web app first (npm run build)`);
	return readBuild(dist);
}

describe("the highlighter and the diff library load only where they are needed", () => {
	it("finds the leaks it is meant to find (a made-up manifest)", () => {
		const manifest: Manifest = {
			"index.html": { file: "assets/index.js", isEntry: true, imports: ["_shared.js"] },
			"_shared.js": { file: "assets/shared.js" },
			"src/pages/Home.tsx": { file: "assets/Home.js", isDynamicEntry: true, imports: ["_lib.js"] },
			"src/pages/Model.tsx": { file: "assets/Model.js", isDynamicEntry: true, imports: ["_shared.js"] },
			"src/view/Needs.tsx": { file: "assets/Needs.js", isDynamicEntry: true, imports: ["_lib.js"] },
			"_lib.js": { file: "assets/lib.js" },
		};
		const holders = new Set(["assets/lib.js"]);
		expect(unneededLoads(manifest, holders, ["src/view/Needs.tsx"])).toEqual(["src/pages/Home.tsx"]);
		expect(unneededLoads(manifest, new Set(["assets/shared.js"]), [])).toEqual([
			"entry",
			"src/pages/Model.tsx",
		]);
		// A script index.html preloads is part of the first load even when no import names it.
		expect(
			unneededLoads(manifest, holders, ["src/view/Needs.tsx", "src/pages/Home.tsx"], ["assets/lib.js"]),
		).toEqual(["entry"]);
	});

	it("in the built app: neither is in the entry, a page, or a view but the one that needs it", () => {
		const { manifest, preloaded } = built();
		const files = [...new Set(Object.values(manifest).map((chunk) => chunk.file))].filter((file) =>
			file.endsWith(".js"),
		);
		const pages = Object.keys(manifest).filter(
			(key) => key.startsWith("src/pages/") && manifest[key]?.isDynamicEntry,
		);
		// The pages are the entry's lazy routes: the check covers each of them.
		expect(pages).toEqual(
			expect.arrayContaining(["src/pages/Home.tsx", "src/pages/Model.tsx", "src/pages/Dataset.tsx"]),
		);
		for (const library of LIBRARIES) {
			expect(readFileSync(join(root, library.source), "utf8"), library.name).toContain(library.signature);
			const holders = new Set(
				files.filter((file) => readFileSync(join(dist, file), "utf8").includes(library.signature)),
			);
			// The library is in the build, in chunks of its own view's closure.
			expect(holders.size, library.name).toBeGreaterThan(0);
			const needing = new Set(
				library.neededBy.flatMap((key) =>
					[...staticClosure(manifest, key)].map((inner) => manifest[inner]?.file ?? ""),
				),
			);
			expect(
				[...holders].filter((file) => !needing.has(file)),
				library.name,
			).toEqual([]);
			expect(unneededLoads(manifest, holders, library.neededBy, preloaded), library.name).toEqual([]);
		}
		// The views that need them reach them: a file view imports the highlighter when it shows code.
		expect(manifest["src/components/browse/BlobView.tsx"]?.dynamicImports).toContain(
			"src/components/browse/highlight.ts",
		);
	});
});
