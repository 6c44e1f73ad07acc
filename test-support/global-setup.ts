/** Vitest global setup: things every test process may need, made once before any test file runs. */
import { ensureDatabaseTemplate } from "../packages/hub/src/db/template.js";
import { ensurePythonEnv, recordPythonProblem } from "./python-env.js";

/**
 * Makes the Python environments. When that fails (python3-venv not installed, a package missing from the
 * mirror), the run goes on: the tests that need Python fail with the reason (recordPythonProblem, read
 * by pythonEnv()), the others run; the reason is printed here once.
 */
export default async function setup(): Promise<void> {
	// The build has made the database template new test databases start from (src/db/template.ts); made
	// here too for a `vitest run` without a build. Test processes are forked after this and find it.
	await ensureDatabaseTemplate();
	try {
		ensurePythonEnv();
		recordPythonProblem(undefined);
	} catch (error) {
		const problem = error instanceof Error ? error.message : String(error);
		recordPythonProblem(problem);
		console.error(`The Python test environments could not be made; the tests that use them fail: ${problem}`);
	}
}
