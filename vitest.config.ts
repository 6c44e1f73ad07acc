import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { SHORT_LIVED_NODE_FLAGS } from "./test-support/node-flags.js";
import { PythonLastSequencer } from "./test-support/sequencer.js";

export default defineConfig({
	test: {
		include: [
			"packages/*/src/**/*.test.ts",
			"packages/*/test/**/*.test.ts",
			"apps/*/src/**/*.test.{ts,tsx}",
			"apps/*/e2e/**/*.test.ts",
			"test-support/**/*.test.ts",
		],
		// Makes the Python virtual environment with the real client libraries (test-support/python-env.ts)
		// in the background; the files that may need it start last while it is being made.
		globalSetup: ["test-support/global-setup.ts"],
		sequence: { sequencer: PythonLastSequencer },
		// A file that may use Python waits for it before its first test, not within one's timeout.
		setupFiles: ["test-support/python-wait.ts"],
		testTimeout: 30_000,
		// Two test files at once even on 2 cores (vitest's default there is one): most files spend their time
		// waiting on other processes (hubs, Chromium, Python, git), so a second file fills the idle core.
		maxWorkers: Math.max(2, availableParallelism() - 1),
		// Each file's worker is a short-lived process that opens PGlite (test-support/node-flags.ts).
		execArgv: [...SHORT_LIVED_NODE_FLAGS],
		// In CI a JSON report as well, from which .ci/run prints the plain "N passed, N failed" line.
		reporters: process.env.CI ? ["default", ["json", { outputFile: ".vitest-results.json" }]] : ["default"],
		hookTimeout: 60_000,
	},
});
