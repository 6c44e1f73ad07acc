/** Vitest global setup: things every test process may need, made once before any test file runs. */
import { ensurePgliteTemplate } from "./pglite-template.js";
import { ensurePythonEnv, recordPythonProblem } from "./python-env.js";

/**
 * Makes the Python environments. When that fails (python3-venv not installed, a package missing from the
 * mirror), the run goes on: the tests that need Python fail with the reason (recordPythonProblem, read
 * by pythonEnv()), the others run; the reason is printed here once.
 */
export default async function setup(): Promise<void> {
	// Test processes are forked after this and inherit the variable (packages/hub/src/db/pglite.ts reads it).
	process.env.MODELHUB_MEMORY_DB_TEMPLATE = await ensurePgliteTemplate();
	try {
		ensurePythonEnv();
		recordPythonProblem(undefined);
	} catch (error) {
		const problem = error instanceof Error ? error.message : String(error);
		recordPythonProblem(problem);
		console.error(`The Python test environments could not be made; the tests that use them fail: ${problem}`);
	}
}
