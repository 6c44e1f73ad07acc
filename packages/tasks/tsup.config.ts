import { defineConfig } from "tsup";

export default defineConfig({
	// Sub-path entries let callers that need only the literal builders or the example inputs skip the
	// catalogue data entirely (the inference snippets do).
	entry: { index: "src/index.ts", literals: "src/literals/index.ts", inputs: "src/snippets/inputs.ts" },
	format: ["esm", "cjs"],
	dts: true,
	clean: true,
	sourcemap: false,
	target: "es2022",
	treeshake: true,
});
