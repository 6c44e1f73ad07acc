import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { SHORT_LIVED_NODE_FLAGS } from "./test-support/node-flags.js";
import { PythonLastSequencer } from "./test-support/sequencer.js";

const ALL_TESTS = [
	"packages/*/src/**/*.test.ts",
	"packages/*/test/**/*.test.ts",
	"apps/*/src/**/*.test.{ts,tsx}",
	"apps/*/e2e/**/*.test.ts",
	"test-support/**/*.test.ts",
];

/**
 * Files that start no server, database or Python of their own and leave no global state behind (timers,
 * environment variables and stubs are restored where a file sets them). They run without per-file isolation:
 * one worker process takes file after file and keeps the modules it has loaded. Why, and what it saves as
 * measured: test-support/README.md, "Two vitest projects".
 */
const UNIT_TESTS = [
	"packages/tasks/src/**/*.test.ts",
	"packages/inference/src/**/*.test.ts",
	// Not real-clients/: it runs the real Python clients.
	"packages/inference/test/*.test.ts",
	"packages/inference/test/{hardening,providers,snippets}/**/*.test.ts",
	"packages/hub/src/**/*.test.ts",
	"apps/web/src/**/*.test.{ts,tsx}",
];

/** What every file gets, isolated or not (set on each project: a project does not inherit the root's). */
const EACH_FILE = {
	// A file that may use Python waits for it before its first test, not within one's timeout.
	setupFiles: ["test-support/python-wait.ts"],
	testTimeout: 30_000,
	hookTimeout: 60_000,
	// Each file's worker is a short-lived process that opens PGlite (test-support/node-flags.ts).
	execArgv: [...SHORT_LIVED_NODE_FLAGS],
};

export default defineConfig({
	test: {
		projects: [
			{ test: { name: "unit", include: UNIT_TESTS, isolate: false, ...EACH_FILE } },
			{
				test: {
					name: "isolated",
					include: ALL_TESTS,
					exclude: [...configDefaults.exclude, ...UNIT_TESTS],
					...EACH_FILE,
				},
			},
		],
		// Makes the Python virtual environment with the real client libraries (test-support/python-env.ts)
		// in the background; the files that may need it start last while it is being made.
		globalSetup: ["test-support/global-setup.ts"],
		sequence: { sequencer: PythonLastSequencer },
		// Two test files at once even on 2 cores (vitest's default there is one): most files spend their time
		// waiting on other processes (hubs, Chromium, Python, git), so a second file fills the idle core.
		maxWorkers: Math.max(2, availableParallelism() - 1),
		// In CI a JSON report as well, from which .ci/run prints the plain "N passed, N failed" line.
		reporters: process.env.CI ? ["default", ["json", { outputFile: ".vitest-results.json" }]] : ["default"],
	},
});
