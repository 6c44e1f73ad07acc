import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let fromSources: Promise<URL> | undefined;

/**
 * The parsing worker's script. Built, the hub is bundled into dist/ and the worker is its own entry
 * there (tsup.config.ts: `parse-worker`), next to the code that starts it. Run from the TypeScript
 * sources (vitest), Node cannot load worker.ts itself: it is bundled once per process with esbuild (the
 * build's own bundler) into node_modules/.cache, where the packages it imports resolve as usual.
 */
export function parseWorkerScript(): Promise<URL> {
	const here = import.meta.url;
	if (!here.endsWith(".ts")) return Promise.resolve(new URL("./parse-worker.js", here));
	fromSources ??= bundleFromSources(new URL("./worker.ts", here));
	return fromSources;
}

async function bundleFromSources(entry: URL): Promise<URL> {
	const esbuild = await import("esbuild");
	const built = await esbuild.build({
		entryPoints: [fileURLToPath(entry)],
		bundle: true,
		platform: "node",
		format: "esm",
		target: "node20",
		packages: "external",
		write: false,
		logLevel: "silent",
	});
	const code = built.outputFiles[0]?.contents;
	if (!code) throw new Error("esbuild gave no output for the parsing worker");
	// packages/hub/src/parsing → the repository's node_modules, so that `yaml` and `@modelhub/tasks` resolve.
	const dir = new URL("../../../../node_modules/.cache/modelhub-parse-worker/", import.meta.url);
	const file = new URL(`worker-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`, dir);
	if (!existsSync(file)) {
		mkdirSync(dir, { recursive: true });
		// Test processes run side by side: each writes its own file and renames it into place.
		const temporary = new URL(`${file.href}.${process.pid}.tmp`);
		writeFileSync(temporary, code);
		renameSync(temporary, file);
	}
	return file;
}
