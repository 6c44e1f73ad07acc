import { defineConfig } from "tsup";

export default defineConfig({
	entry: ["src/cli.ts"],
	format: ["esm"],
	clean: true,
	target: "node20",
	// The API contract (`@modelhub/hub/api`) is types only: one declaration file, no JavaScript, so the
	// web app can import it without taking anything of the server.
	dts: { entry: { api: "src/api/index.ts" } },
});
