/** Vitest global setup: things every test process may need, made once before any test file runs. */
import { ensurePythonEnv } from "./python-env.js";

export default function setup(): void {
	ensurePythonEnv();
}
