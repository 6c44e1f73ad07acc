/**
 * Vitest setup file: a test file that may use Python first waits for the environments the global setup
 * is making in the background, in a hook with a bound of its own, so that the wait is not counted against
 * the timeout of the test that happens to ask for them first. pythonEnv() would wait as well, blocking.
 */
import { beforeAll } from "vitest";
import { waitForPythonEnvs } from "./python-env.js";
import { mayUsePython } from "./sequencer.js";

// Vitest reads a hook's first argument as fixtures (an object pattern); the file is in the second.
// eslint-disable-next-line no-empty-pattern
beforeAll(async ({}, suite) => {
	if (mayUsePython(suite.file.filepath)) await waitForPythonEnvs();
}, 20 * 60_000);
