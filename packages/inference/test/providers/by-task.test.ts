/**
 * The per-task helper tables are generated from the catalogue: this test fails when
 * src/providers/by-task.ts is stale, and rewrites it with UPDATE_GENERATED=1.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { helperName, renderByTask } from "../../scripts/by-task.js";
import { HELPERS_BY_TASK } from "../../src/providers/by-task.js";
import { PROVIDER_TASKS } from "../../src/providers/catalog.js";

const file = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "providers", "by-task.ts");

describe("by-task.ts", () => {
	it("is the rendering of the catalogue", async () => {
		const options = (await prettier.resolveConfig(file)) ?? {};
		const expected = await prettier.format(renderByTask(PROVIDER_TASKS), { ...options, filepath: file });
		if (process.env.UPDATE_GENERATED === "1") writeFileSync(file, expected);
		expect(readFileSync(file, "utf8")).toBe(expected);
	});

	it("holds, for every pair of the catalogue, that provider's helper for that task", async () => {
		let pairs = 0;
		for (const [provider, tasks] of Object.entries(PROVIDER_TASKS)) {
			const module = (await import(`../../src/providers/${provider}.ts`)) as Record<string, unknown>;
			for (const task of tasks) {
				const helper = (HELPERS_BY_TASK as Record<string, Record<string, unknown>>)[task]?.[provider];
				expect(helper, `${provider} ${task}`).toBe(module[helperName(provider, task)]);
				expect(helper).toMatchObject({ task, provider: { id: provider } });
				pairs++;
			}
		}
		expect(pairs).toBe(96);
	});

	it("every helper a provider file exports is in the catalogue", async () => {
		for (const provider of Object.keys(PROVIDER_TASKS)) {
			const module = (await import(`../../src/providers/${provider}.ts`)) as Record<string, unknown>;
			const exported = Object.entries(module)
				.filter(([, value]) => typeof value === "object" && value !== null && "getResponse" in value)
				.map(([name]) => name)
				.filter((name) => name !== "hfInferenceGeneric")
				.sort();
			const declared = (PROVIDER_TASKS[provider as keyof typeof PROVIDER_TASKS] as readonly string[])
				.map((task) => helperName(provider, task))
				.sort();
			expect(exported, provider).toEqual(declared);
		}
	});
});
