/**
 * What a bundle of one import carries, checked on a real esbuild bundle of the sources (sizes are a
 * benchmark, bench/bundle.bench.mjs; here only which code is in): a plain `chatCompletion` carries
 * its hardening (redirect guard, connection errors) but not provider fallback, the SSE parser, the
 * polling loop or request()'s chat wording; `withProviderFallback` brings fallback along.
 */
import { createRequire } from "node:module";
import type * as Esbuild from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, "..", "src", "index.ts");
const requireFromTsup = createRequire(createRequire(import.meta.url).resolve("tsup"));
const esbuild = requireFromTsup("esbuild") as typeof Esbuild;

async function bundle(names: string[]): Promise<string> {
	const result = await esbuild.build({
		stdin: {
			contents: `export { ${names.join(", ")} } from ${JSON.stringify(entry)};`,
			resolveDir: here,
			loader: "ts",
		},
		bundle: true,
		minify: true,
		format: "esm",
		platform: "neutral",
		write: false,
	});
	return result.outputFiles[0]?.text ?? "";
}

const MARKERS = {
	fallback: "No provider could serve",
	sse: "Server-sent event larger than",
	polling: "pollTimeout.",
	chatWording: "does not seem to support chat completion",
	redirectGuard: "Refusing to follow a redirect",
	connection: "Could not reach",
	scrubbing: "[redacted]",
};

describe("tree-shaking", () => {
	it("chatCompletion alone: hardening in, fallback / streaming / polling / request()'s wording out", async () => {
		const code = await bundle(["chatCompletion"]);
		for (const marker of [MARKERS.redirectGuard, MARKERS.connection, MARKERS.scrubbing]) {
			expect(code, marker).toContain(marker);
		}
		for (const marker of [MARKERS.fallback, MARKERS.sse, MARKERS.polling, MARKERS.chatWording]) {
			expect(code, marker).not.toContain(marker);
		}
	}, 30_000);

	it("withProviderFallback brings the fallback code; chatCompletionStream the SSE bound", async () => {
		expect(await bundle(["chatCompletion", "withProviderFallback"])).toContain(MARKERS.fallback);
		const stream = await bundle(["chatCompletionStream"]);
		expect(stream).toContain(MARKERS.sse);
		expect(stream).not.toContain(MARKERS.fallback);
	}, 30_000);

	it("the client does not carry the task registry (its answer and input words are for snippets and apps)", async () => {
		// Input kinds only the registry declares (tasks/registry.ts): the dry run finds a task id's spec
		// through the task functions, so the client needs none of the declarations.
		const client = await bundle(["InferenceClient"]);
		for (const marker of ['"question-context"', '"sentence-pair"', '"audio-clips"']) {
			expect(client.includes(marker), marker).toBe(false);
		}
		expect(await bundle(["TASK_REGISTRY"])).toContain('"question-context"');
	}, 30_000);

	it("request() carries 3.12.1's chat wording", async () => {
		expect(await bundle(["request"])).toContain(MARKERS.chatWording);
	}, 30_000);
});
