import { defineConfig } from "tsup";

export default defineConfig({
	// The snippets are their own entry so that importing a task function never loads them.
	entry: { index: "src/index.ts", snippets: "src/snippets/index.ts" },
	format: ["esm", "cjs"],
	dts: true,
	clean: true,
	sourcemap: false,
	target: "es2022",
	treeshake: true,
});
