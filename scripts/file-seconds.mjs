#!/usr/bin/env node
/**
 * Writes test-support/file-seconds.json, the seconds each test file took (collection, hooks and tests, as
 * vitest's default reporter prints them per file), from the output of a test run read on stdin:
 * `node scripts/file-seconds.mjs < ci.log`. The sequencer (test-support/sequencer.ts) starts the longest
 * files first from these figures: a fresh clone has no vitest cache to order by.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// eslint-disable-next-line no-control-regex -- the reporter's colours
const text = readFileSync(0, "utf8").replace(/\x1b\[[0-9;]*m/g, "");
const seconds = {};
// " ✓  isolated  packages/hub/test/x.test.ts (13 tests) 311750ms" (❯ or × when a test failed; the name of
// the file's vitest project, vitest.config.ts, before its path)
for (const [, file, ms] of text.matchAll(
	/^\s*[✓❯×]\s+(?:[a-z]+\s+)?(\S+\.test\.tsx?)\s+\(\d+ tests?[^)]*\)\s+(\d+)ms\s*$/gmu,
))
	seconds[file] = Math.round(Number(ms) / 1000);
if (Object.keys(seconds).length === 0) throw new Error("no per-file durations found on stdin");
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(join(root, "test-support", "file-seconds.json"), `${JSON.stringify(sorted, null, "\t")}\n`);
console.log(`test-support/file-seconds.json: ${Object.keys(sorted).length} files`);
