/**
 * Loads the facts the tests check against: ids, enums, routes, counts and exact messages, kept in
 * `test-support/facts/` (see its README for what each file holds and where it was read).
 */
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const FACTS_DIR = join(dirname(fileURLToPath(import.meta.url)), "facts");

export function loadFacts<T = unknown>(file: string): T {
	return JSON.parse(readFileSync(join(FACTS_DIR, file), "utf8")) as T;
}
