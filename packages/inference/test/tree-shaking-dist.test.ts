/**
 * What an app's bundle of one task function from the *built* package (dist/index.js, as an app
 * installs it) carries: that task's providers, not every provider. Bundled with esbuild (tsup's), and
 * read for each provider's base URL, a string only its helper holds. The providers expected are those
 * of the task's helper table (HELPERS_BY_TASK), so the test follows the catalogue. `npm test` builds
 * the packages first; run `npm run build` before running this file alone.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as Esbuild from "esbuild";
import { describe, expect, it } from "vitest";
import { HELPERS_BY_TASK } from "../src/providers/by-task.js";
import { TASK_REGISTRY, type TaskFunctionName } from "../src/tasks/registry.js";

const here = dirname(fileURLToPath(import.meta.url));
const distEntry = join(here, "..", "dist", "index.js");
const requireFromTsup = createRequire(createRequire(import.meta.url).resolve("tsup"));
const esbuild = requireFromTsup("esbuild") as typeof Esbuild;

type Tables = Record<string, Record<string, { provider: { baseUrl: string } } | undefined>>;
const TABLES = HELPERS_BY_TASK as unknown as Tables;

/** Each provider's base URL, from any task's helper (one per provider). */
const BASE_URLS: ReadonlyMap<string, string> = new Map(
	Object.values(TABLES).flatMap((table) =>
		Object.entries(table).flatMap(([provider, helper]) =>
			helper ? [[provider, helper.provider.baseUrl]] : [],
		),
	),
);

async function bundleFromDist(name: string): Promise<string> {
	const result = await esbuild.build({
		stdin: {
			contents: `export { ${name} } from ${JSON.stringify(distEntry)};`,
			resolveDir: here,
			loader: "js",
		},
		bundle: true,
		minify: true,
		format: "esm",
		platform: "neutral",
		write: false,
		// The task catalogue package is the app's own dependency, not part of this package's code.
		external: ["@modelhub/tasks", "@modelhub/tasks/*"],
	});
	return result.outputFiles[0]?.text ?? "";
}

/** The providers whose base URL is in `code`. */
function providersIn(code: string): string[] {
	return [...BASE_URLS]
		.filter(([, url]) => code.includes(url))
		.map(([provider]) => provider)
		.sort();
}

function providersOf(name: TaskFunctionName): string[] {
	const task = TASK_REGISTRY[name].task;
	return Object.keys(task ? (TABLES[task] ?? {}) : {}).sort();
}

describe("tree-shaking of the built package", () => {
	it("the base URLs are distinct markers, and the whole client carries every provider's", async () => {
		expect(existsSync(distEntry), "packages/inference/dist is missing: run `npm run build`").toBe(true);
		expect(new Set(BASE_URLS.values()).size).toBe(BASE_URLS.size);
		expect(BASE_URLS.size).toBeGreaterThan(20);
		expect(providersIn(await bundleFromDist("InferenceClient"))).toEqual([...BASE_URLS.keys()].sort());
	}, 60_000);

	it.each(["textClassification", "automaticSpeechRecognition", "textToImage"] as const)(
		"%s alone carries its task's providers only",
		async (name) => {
			const expected = providersOf(name);
			expect(expected.length).toBeGreaterThan(0);
			const code = await bundleFromDist(name);
			expect(providersIn(code)).toEqual(expected);
			// Nor the snippet generator (its own entry).
			expect(code).not.toContain("huggingface_hub import InferenceClient");
		},
		60_000,
	);
});
