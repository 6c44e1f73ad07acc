import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "tsup";
import { packageRoot } from "../../src/paths.js";

/**
 * Builds the CLI from the current sources into a private folder (inside the package's node_modules, so
 * its dependencies resolve) and returns the path of the built file. Child-process tests run this file,
 * never a possibly stale dist/.
 */
export async function buildCli(name: string): Promise<string> {
	const root = packageRoot();
	const outDir = join(root, "node_modules", ".cache", "modelhub-hub-test", name);
	mkdirSync(outDir, { recursive: true });
	await build({
		entry: { cli: join(root, "src", "cli.ts") },
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
