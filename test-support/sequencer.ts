/**
 * The order test files start in. While the Python environments are still being made in the background
 * (a fresh clone: test-support/global-setup.ts), the files that may need them start after all the
 * others, so that no worker waits for them while other files could run; each group keeps vitest's own
 * order (longest first when known, else largest first). Once they are made, vitest's order alone.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { pythonEnvsReady } from "./python-env.js";

/** What a module that starts Python calls: the environments' interpreter comes only from pythonEnv(s). */
const NAMES_PYTHON = /\bpythonEnvs?\(/;

/**
 * Whether a test file may use Python: it, or a module of the repository it imports, asks for the
 * Python environments. A file
 * wrongly counted in only starts later; one wrongly left out waits for the environments when it needs them.
 */
export function mayUsePython(file: string): boolean {
	const source = readFileSync(file, "utf8");
	if (NAMES_PYTHON.test(source)) return true;
	for (const [, path] of source.matchAll(/from\s+"(\.{1,2}\/[^"]+)"/g)) {
		const imported = resolve(dirname(file), path!.replace(/\.js$/, ".ts"));
		try {
			if (NAMES_PYTHON.test(readFileSync(imported, "utf8"))) return true;
		} catch {
			// Not a TypeScript module of the repository (a .mjs helper, JSON): read as not naming Python.
		}
	}
	return false;
}

export class PythonLastSequencer extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const sorted = await super.sort(files);
		if (pythonEnvsReady()) return sorted;
		const python = new Set(sorted.filter((spec) => mayUsePython(spec.moduleId)));
		return [...sorted.filter((spec) => !python.has(spec)), ...sorted.filter((spec) => python.has(spec))];
	}
}
