import { defineConfig } from "tsup";

export default defineConfig({
	// Sub-path entries let callers that need only the literal builders, the example inputs or the local
	// apps skip the library catalogue entirely (the inference snippets do; the model page's "Use this
	// model" menu needs only the local apps; the hub's repository rules are shared with the web app).
	entry: {
		index: "src/index.ts",
		literals: "src/literals/index.ts",
		inputs: "src/snippets/inputs.ts",
		"local-apps": "src/local-apps/index.ts",
		repositories: "src/repositories/index.ts",
		"dataset-libraries": "src/dataset-libraries/index.ts",
	},
	format: ["esm", "cjs"],
	dts: true,
	clean: true,
	sourcemap: false,
	target: "es2022",
	treeshake: true,
});
