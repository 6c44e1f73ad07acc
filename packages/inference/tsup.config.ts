import { defineConfig } from "tsup";

export default defineConfig({
	// The snippets are their own entry so that importing a task function never loads them; the provider
	// catalogue and the task registry too (names only), so that an app can list them without the client.
	entry: { index: "src/index.ts", snippets: "src/snippets/index.ts", catalog: "src/catalog.ts" },
	format: ["esm", "cjs"],
	dts: true,
	clean: true,
	sourcemap: false,
	target: "es2022",
	treeshake: true,
	// The literal builders and example inputs are small: bundling them saves resolving a second package
	// at import time (measured by bench/import.bench.mjs). The catalogue itself is never imported.
	noExternal: [/^@modelhub\/tasks\/(literals|inputs)$/],
});
