/**
 * The order test files start in: longest first, by the seconds each took in a CI run
 * (file-seconds.json, written by scripts/file-seconds.mjs; a fresh clone has no vitest cache to order
 * by), so that the last files to start are short ones and both workers end together. While the Python
 * environments are still being made in the background (a fresh clone: test-support/global-setup.ts),
 * the files that may need them start after all the others, longest first among them too.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { pythonEnvsReady } from "./python-env.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

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

/** Seconds per test file (path from the repository's root) in the CI run file-seconds.json was made from. */
export function declaredSeconds(): Readonly<Record<string, number>> {
	return JSON.parse(readFileSync(join(root, "test-support", "file-seconds.json"), "utf8")) as Record<
		string,
		number
	>;
}

/**
 * `files` (absolute paths, in vitest's order) in the order they start: longest first by `seconds`, a file
 * not listed (new since) first of all, as it may be long; ties keep vitest's order. With `pythonLast`, the
 * files that may use Python after all the others.
 */
export function startOrder(
	files: readonly string[],
	{ seconds, pythonLast }: { seconds: Readonly<Record<string, number>>; pythonLast: boolean },
): string[] {
	const weight = (file: string): number => seconds[relative(root, file)] ?? Number.MAX_SAFE_INTEGER;
	const longestFirst = (list: readonly string[]): string[] => [...list].sort((a, b) => weight(b) - weight(a));
	if (!pythonLast) return longestFirst(files);
	const python = new Set(files.filter((file) => mayUsePython(file)));
	return [
		...longestFirst(files.filter((file) => !python.has(file))),
		...longestFirst(files.filter((file) => python.has(file))),
	];
}

export class PythonLastSequencer extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const sorted = await super.sort(files);
		const order = startOrder(
			sorted.map((spec) => spec.moduleId),
			{ seconds: declaredSeconds(), pythonLast: !pythonEnvsReady() },
		);
		const place = new Map(order.map((file, index) => [file, index]));
		return [...sorted].sort((a, b) => place.get(a.moduleId)! - place.get(b.moduleId)!);
	}
}
