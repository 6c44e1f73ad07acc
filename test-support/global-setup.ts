/** Vitest global setup: things every test process may need, made once before any test file runs. */
import { ensureDatabaseTemplate } from "../packages/hub/src/db/template.js";
import { startPythonEnv } from "./python-env.js";

/**
 * Makes the database template, and starts making the Python environments in the background: minutes on
 * a fresh clone, mostly spent waiting on the package mirror and the disk, while the test files that do not
 * need Python run (the sequencer, test-support/sequencer.ts, starts those first). The files that need the
 * environments wait for them in pythonEnv(). When the making fails (python3-venv not installed, a package
 * missing from the mirror), the run goes on: the tests that need Python fail with the reason
 * (recordPythonProblem), the others run; the reason is printed here once. The teardown waits for the
 * making to end, so that no install is cut off half done.
 */
export default async function setup(): Promise<() => Promise<void>> {
	// The build has made the database template new test databases start from (src/db/template.ts); made
	// here too for a `vitest run` without a build. Test processes are forked after this and find it.
	await ensureDatabaseTemplate();
	const making = startPythonEnv().then((problem) => {
		if (problem !== undefined)
			console.error(
				`The Python test environments could not be made; the tests that use them fail: ${problem}`,
			);
	});
	return async () => {
		await making;
	};
}
