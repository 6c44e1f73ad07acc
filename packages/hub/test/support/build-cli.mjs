import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "tsup";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Builds the CLI from the current sources into a private folder (inside the package's node_modules, so
 * its dependencies resolve) and returns the path of the built file. Child-process tests and the golden
 * recorder run this file, never a possibly stale dist/. Plain JavaScript so that plain Node scripts can
 * call it too.
 */
export async function buildCli(name) {
	const outDir = join(packageRoot, "node_modules", ".cache", "modelhub-hub-test", name);
	mkdirSync(outDir, { recursive: true });
	await build({
		entry: { cli: join(packageRoot, "src", "cli.ts") },
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
	const file = join(outDir, "cli.js");
	if (!existsSync(file)) throw new Error(`building the CLI did not produce ${file}`);
	return file;
}
