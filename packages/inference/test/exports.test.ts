/** The package surface and the facts it must match (providers.json, inference-client.md). */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadFacts } from "../../../test-support/facts.js";
import * as pkg from "../src/index.js";
import { PROVIDER_TASKS } from "../src/providers/ids.js";
import { PROVIDER_REGISTRY } from "../src/providers/registry.js";

const here = dirname(fileURLToPath(import.meta.url));

interface ProvidersFacts {
	provider_table_order: string[];
	providers: Record<string, { tasks: Record<string, unknown> }>;
}

describe("package surface", () => {
	it("exports the classes, constants and 32 task functions", () => {
		for (const name of [
			"InferenceClient",
			"HfInference",
			"InferenceClientEndpoint",
			"InferenceOutputError",
		]) {
			expect(typeof (pkg as Record<string, unknown>)[name]).toBe("function");
		}
		expect(pkg.INFERENCE_PROVIDERS).toHaveLength(17);
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
	const facts = loadFacts<ProvidersFacts>("providers.json");

	it("has the 17 providers in 3.12.1's table order, each with its tasks in order (61 pairs)", () => {
		expect(Object.keys(PROVIDER_REGISTRY)).toEqual(facts.provider_table_order);
		expect(Object.keys(PROVIDER_TASKS)).toEqual(facts.provider_table_order);
		let pairs = 0;
		for (const provider of facts.provider_table_order) {
			const tasks = Object.keys(facts.providers[provider]?.tasks ?? {});
			expect(Object.keys(PROVIDER_REGISTRY[provider as pkg.InferenceProvider])).toEqual(tasks);
			expect(PROVIDER_TASKS[provider as pkg.InferenceProvider]).toEqual(tasks);
			pairs += tasks.length;
		}
		expect(pairs).toBe(61);
	});

	it("has a provider test table for every provider", () => {
		const files = readdirSync(join(here, "providers"));
		for (const provider of pkg.INFERENCE_PROVIDERS) expect(files).toContain(`${provider}.test.ts`);
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
