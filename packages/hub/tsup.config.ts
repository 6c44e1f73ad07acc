import { defineConfig } from "tsup";

export default defineConfig({
	// The parsing worker is its own entry, beside cli.js (src/parsing/script.ts finds it there).
	entry: { cli: "src/cli.ts", "parse-worker": "src/parsing/worker.ts" },
	format: ["esm"],
	clean: true,
	target: "node20",
	// The API contract (`@modelhub/hub/api`) is types only: one declaration file, no JavaScript, so the
	// web app can import it without taking anything of the server.
	dts: { entry: { api: "src/api/index.ts" } },
	// esbuild only bundles the worker when the hub runs from its TypeScript sources (tests); the built
	// hub never loads it, so it stays out of dist/ (it ships a native binary and cannot be bundled).
	external: ["esbuild"],
});
