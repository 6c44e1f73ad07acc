/** Loads the reference facts in ../shared/reference for tests. */
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const referenceDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "shared", "reference");

export function loadFacts<T = unknown>(file: string): T {
	return JSON.parse(readFileSync(join(referenceDir, file), "utf8")) as T;
}
