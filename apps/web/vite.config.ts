import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { TASKS_DATA } from "@modelhub/tasks";
import { defineConfig, type Plugin } from "vite";
import { taskCards } from "./src/view/task-cards.ts";

const tasksSource = (path: string) =>
	fileURLToPath(new URL(`../../packages/tasks/src/${path}`, import.meta.url));
const hubForDev = process.env.MODELHUB_DEV_HUB ?? "http://127.0.0.1:8080";

/**
 * `virtual:task-cards`: the few fields the home page shows of each task (id, label, modality, colour),
 * computed at build time, so the first load does not carry the whole task catalogue.
 */
function taskCardsModule(): Plugin {
	const id = "virtual:task-cards";
	return {
		name: "modelhub-task-cards",
		resolveId: (source) => (source === id ? `\0${id}` : undefined),
		load: (resolved) =>
			resolved === `\0${id}` ? `export default ${JSON.stringify(taskCards(TASKS_DATA))};` : undefined,
	};
}

/**
 * Writes `.br` and `.gz` next to every compressible output file, so a static server that serves
 * pre-compressed files (e.g. @fastify/static with `preCompressed: true`) sends them without compressing
 * on each request.
 */
function precompress(): Plugin {
	let outDir = "";
	const walk = (dir: string): string[] =>
		readdirSync(dir).flatMap((name) => {
			const path = join(dir, name);
			return statSync(path).isDirectory() ? walk(path) : [path];
		});
	return {
		name: "modelhub-precompress",
		apply: "build",
		configResolved(config) {
			outDir = resolve(config.root, config.build.outDir);
		},
		closeBundle() {
			for (const file of walk(outDir)) {
				if (!/\.(?:js|css|html|svg|json)$/.test(file)) continue;
				const content = readFileSync(file);
				if (content.length < 1024) continue;
				writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
				writeFileSync(
					`${file}.br`,
					brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
				);
			}
		},
	};
}

export default defineConfig({
	plugins: [react(), taskCardsModule(), precompress()],
	resolve: {
		// The catalogue is bundled from its TypeScript sources, one module per task and library family, so the
		// bundler can put each route's share of it in that route's chunk instead of one 250 KB module.
		// (The sub-path entries are mapped the same way, so that the app and the inference client share
		// one copy of the example inputs and literal builders.)
		alias: [
			{ find: /^@modelhub\/tasks$/, replacement: tasksSource("index.ts") },
			{ find: /^@modelhub\/tasks\/literals$/, replacement: tasksSource("literals/index.ts") },
			{ find: /^@modelhub\/tasks\/inputs$/, replacement: tasksSource("snippets/inputs.ts") },
		],
	},
	build: {
		target: "es2022",
		outDir: "dist",
		emptyOutDir: true,
		sourcemap: false,
		assetsInlineLimit: 0,
		// bench/web.bench.mjs reads the manifest to tell each route's chunks apart.
		manifest: true,
	},
	server: {
		proxy: { "/api": hubForDev, "/assets/demo": hubForDev },
	},
	preview: {
		proxy: { "/api": hubForDev, "/assets/demo": hubForDev },
	},
});
