/** The package surface and the facts it must match (providers.json, inference-client.md). */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { OPENAI_COMPATIBLE_PROVIDERS } from "./support/openai-compatible.js";
import { loadFacts } from "../../../test-support/facts.js";
import * as pkg from "../src/index.js";
import { HELPERS_BY_TASK } from "../src/providers/by-task.js";
import { PROVIDER_TASKS, PROVIDERS_WITHOUT_ROUTER } from "../src/providers/catalog.js";

const here = dirname(fileURLToPath(import.meta.url));

interface ProvidersFacts {
	provider_table_order: string[];
	providers: Record<string, { tasks: Record<string, unknown> }>;
}

interface CurrentFacts {
	droppedOn20260701: string[];
	new: string[];
	directBaseUrls: Record<string, string>;
	providers: Record<string, { python: string[]; js: string[] }>;
	jsTableOrder: Record<string, string[]>;
}

/** The registry: provider → tasks with a helper, read from the per-task tables. */
function registryTasks(provider: string): string[] {
	return Object.entries(HELPERS_BY_TASK)
		.filter(([, table]) => provider in table)
		.map(([task]) => task);
}

describe("package surface", () => {
	it("exports the classes, constants and 36 task functions", () => {
		for (const name of [
			"InferenceClient",
			"HfInference",
			"InferenceClientEndpoint",
			"InferenceOutputError",
			"InferenceConnectionError",
			"InferenceFallbackError",
			"withProviderFallback",
		]) {
			expect(typeof (pkg as Record<string, unknown>)[name]).toBe("function");
		}
		expect(pkg.INFERENCE_PROVIDERS).toHaveLength(23);
		expect([...pkg.INFERENCE_PROVIDERS]).toEqual([...pkg.INFERENCE_PROVIDERS].sort());
		for (const name of [
			"textToAudio",
			"imageToVideo",
			"imageTextToImage",
			"imageTextToVideo",
			"prepareRequest",
		]) {
			expect(typeof (pkg as Record<string, unknown>)[name], name).toBe("function");
		}
		expect(pkg.PROVIDERS_OR_POLICIES).toEqual([...pkg.INFERENCE_PROVIDERS, "auto"]);
		expect(pkg.COMPATIBLE_API_VERSION).toBe("3.12.1");
		expect(pkg.PACKAGE_NAME).toBe("@modelhub/inference");
	});

	it("PACKAGE_VERSION matches package.json", () => {
		const manifest = JSON.parse(readFileSync(join(here, "..", "package.json"), "utf8")) as {
			version: string;
			name: string;
		};
		expect(pkg.PACKAGE_VERSION).toBe(manifest.version);
		expect(pkg.PACKAGE_NAME).toBe(manifest.name);
	});
});

describe("provider table against the facts", () => {
	const baseline = loadFacts<ProvidersFacts>("providers.json");
	const current = loadFacts<CurrentFacts>("providers-current.json");

	it("keeps every provider and pair of 3.12.1, in its table order (61 pairs)", () => {
		const ours = Object.keys(PROVIDER_TASKS);
		expect(ours.filter((id) => baseline.provider_table_order.includes(id))).toEqual(
			baseline.provider_table_order,
		);
		let pairs = 0;
		for (const provider of baseline.provider_table_order) {
			const tasks = Object.keys(baseline.providers[provider]?.tasks ?? {});
			const declared = PROVIDER_TASKS[provider as pkg.InferenceProvider] as readonly string[];
			for (const task of tasks) expect(declared, provider).toContain(task);
			pairs += tasks.length;
		}
		expect(pairs).toBe(61);
	});

	it("has every pair of huggingface.js 4.13.28 (87) and of huggingface_hub 2.0.0 (74), in today's order", () => {
		expect(Object.keys(current.jsTableOrder).sort()).toEqual(Object.keys(current.providers).sort());
		let js = 0;
		let python = 0;
		for (const [provider, tasks] of Object.entries(current.providers)) {
			const declared = PROVIDER_TASKS[provider as pkg.InferenceProvider] as readonly string[];
			expect(declared, provider).toEqual(current.jsTableOrder[provider]);
			for (const task of tasks.python) expect(tasks.js).toContain(task);
			js += tasks.js.length;
			python += tasks.python.length;
		}
		expect([js, python]).toEqual([87, 74]);
	});

	it("the providers today's clients dropped are kept, with their 3.12.1 pairs only: 96 pairs in all", () => {
		expect([...PROVIDERS_WITHOUT_ROUTER]).toEqual(current.droppedOn20260701);
		for (const provider of current.droppedOn20260701) {
			expect(current.providers[provider]).toBeUndefined();
			expect(PROVIDER_TASKS[provider as pkg.InferenceProvider]).toEqual(
				Object.keys(baseline.providers[provider]?.tasks ?? {}),
			);
		}
		expect(Object.values(PROVIDER_TASKS).flat()).toHaveLength(96);
		expect(Object.keys(PROVIDER_TASKS)).toHaveLength(23);
	});

	it("the registry (per-task tables) holds exactly the catalogue's pairs", () => {
		for (const [provider, tasks] of Object.entries(PROVIDER_TASKS)) {
			expect(registryTasks(provider).sort(), provider).toEqual([...tasks].sort());
		}
	});

	it("new providers use today's direct base URLs", async () => {
		for (const [provider, url] of Object.entries(current.directBaseUrls)) {
			const helper = Object.values(HELPERS_BY_TASK)
				.map((table) => (table as Record<string, { provider: { baseUrl: string } }>)[provider])
				.find(Boolean);
			expect(helper?.provider.baseUrl, provider).toBe(url);
		}
		expect(current.new.every((provider) => provider in PROVIDER_TASKS)).toBe(true);
	});

	it("has a provider test table for every provider (its own file, or a row of openai-compatible.test.ts)", () => {
		const files = readdirSync(join(here, "providers"));
		const rows = OPENAI_COMPATIBLE_PROVIDERS.map((row) => row.provider as string);
		for (const provider of pkg.INFERENCE_PROVIDERS) {
			expect(files.includes(`${provider}.test.ts`) || rows.includes(provider), provider).toBe(true);
		}
	});
});

describe("error texts against the facts", () => {
	const source = (() => {
		const texts: string[] = [];
		const walk = (dir: string) => {
			for (const entry of readdirSync(dir)) {
				const path = join(dir, entry);
				if (statSync(path).isDirectory()) walk(path);
				else if (path.endsWith(".ts") && !path.endsWith(".test.ts")) texts.push(readFileSync(path, "utf8"));
			}
		};
		walk(join(here, "..", "src"));
		return texts.join("\n");
	})();
	const { texts: rows } = loadFacts<{ texts: string[] }>("inference-output-errors.json");

	it("every InferenceOutputError text of 3.12.1 is in the source", () => {
		expect(rows).toHaveLength(47);
		// #9, #15 and #25 cannot be reached through the public API (facts, section d), so they are not kept.
		const unreachable = [
			"URL and headers are required for text-to-video task",
			"Expected { text: string } format from Fal.ai Automatic Speech Recognition, got: {JSON}",
			"Expected { video: { video_url: string } }",
		];
		for (const text of rows) {
			if (unreachable.includes(text)) continue;
			for (const fragment of text.split(/\{[A-Za-z .()]+\}/)) {
				if (fragment.trim()) expect(source, text).toContain(fragment.trim().replace(/^\. /, ""));
			}
		}
	});
});
