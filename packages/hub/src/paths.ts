import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "@modelhub/hub";

/**
 * The folder of this package (the one holding its package.json). Found by walking up from this
 * module, so it is right from `src/` under vitest, from `dist/` after a build, and from any other
 * bundle location inside the package.
 */
export function packageRoot(): string {
	let dir = dirname(fileURLToPath(import.meta.url));
	for (;;) {
		const manifest = join(dir, "package.json");
		if (existsSync(manifest)) {
			try {
				const parsed = JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown };
				if (parsed.name === PACKAGE_NAME) return dir;
			} catch {
				// not a readable manifest: keep walking up
			}
		}
		const parent = dirname(dir);
		if (parent === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package folder`);
		dir = parent;
	}
}

/** The monorepo root (two levels above packages/hub). */
export function repoRoot(): string {
	return resolve(packageRoot(), "..", "..");
}

/** Where the curated seed models live: one JSON array per family. */
export function seedDir(): string {
	return join(packageRoot(), "seed", "models");
}

/** The demo media folder shipped by @modelhub/tasks, served at /assets/demo/. */
export function demoAssetsDir(): string {
	const require = createRequire(import.meta.url);
	const manifest = require.resolve("@modelhub/tasks/package.json");
	return join(dirname(manifest), "assets", "demo");
}
