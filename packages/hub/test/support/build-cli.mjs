import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "tsup";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Builds entry points of the package's sources (name → path under the package) into a private folder
 * (inside the package's node_modules, so their dependencies resolve); returns the built file of each
 * entry. Tests and benchmarks run these files, never a possibly stale dist/. Plain JavaScript so that
 * plain Node scripts can call it too.
 */
export async function buildSources(name, entries) {
	const outDir = join(packageRoot, "node_modules", ".cache", "modelhub-hub-test", name);
	mkdirSync(outDir, { recursive: true });
	// The parsing worker is built beside every build, as in dist/ (src/parsing/script.ts looks for it there).
	const worker = join("src", "parsing", "worker.ts");
	const all = existsSync(join(packageRoot, worker)) ? { "parse-worker": worker, ...entries } : entries;
	await build({
		entry: Object.fromEntries(Object.entries(all).map(([entry, path]) => [entry, join(packageRoot, path)])),
		outDir,
		format: ["esm"],
		target: "node20",
		platform: "node",
		clean: true,
		silent: true,
		config: false,
		dts: false,
		sourcemap: false,
		// Dependencies stay imports, resolved from the package's node_modules as in a real install.
		skipNodeModulesBundle: true,
	});
	const files = {};
	for (const entry of Object.keys(entries)) {
		const file = join(outDir, `${entry}.js`);
		if (!existsSync(file)) throw new Error(`building ${entry} did not produce ${file}`);
		files[entry] = file;
	}
	return files;
}

/** Builds the CLI from the current sources into a private folder named `name`; the built file's path. */
export async function buildCli(name) {
	return (await buildSources(name, { cli: join("src", "cli.ts") })).cli;
}
