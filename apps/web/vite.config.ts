import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { MODEL_LIBRARIES_UI_ELEMENTS, MODEL_LIBRARY_FAMILIES, TASKS_DATA } from "@modelhub/tasks";
import { defineConfig, type Plugin } from "vite";
import { familiesOf, libraryIndex, type LibraryEntryLike } from "./src/view/libraries.ts";
import { taskCards } from "./src/view/task-cards.ts";
import { buildTaskIndex, type TaskPageData } from "./src/view/tasks.ts";

const tasksSource = (path: string) =>
	fileURLToPath(new URL(`../../packages/tasks/src/${path}`, import.meta.url));
const hubForDev = process.env.MODELHUB_DEV_HUB ?? "http://127.0.0.1:8080";

/**
 * The task and library catalogues as build-time modules, so no page's first load carries all of them:
 * - `virtual:task-cards`: the few fields the home page shows of each task (id, label, modality, colour);
 * - `virtual:task-index`: labels, summaries and canonical types (the task list and the task pages);
 * - `virtual:task-data`: one loader per task, each importing `virtual:task-data/<id>`, that task's full
 *   page data (demo, models, datasets…) with its libraries' names, as a chunk of its own;
 * - `virtual:library-index`: every library without its snippet generator, and the family whose chunk has it
 *   (the libraries table and a library's page; see src/view/libraries.ts).
 */
function taskCatalogueModules(): Plugin {
	const libraries = MODEL_LIBRARIES_UI_ELEMENTS as Record<string, { prettyLabel: string } | undefined>;
	const taskData = (id: string): TaskPageData | undefined => {
		const task = (TASKS_DATA as Record<string, TaskPageData["task"] | undefined>)[id];
		if (!task) return undefined;
		const libraryLabels = Object.fromEntries(
			task.libraries.map((key) => [key, libraries[key]?.prettyLabel ?? key]),
		);
		return { task, libraryLabels };
	};
	const modules: Record<string, () => string | Promise<string>> = {
		"virtual:task-cards": () => `export default ${JSON.stringify(taskCards(TASKS_DATA))};`,
		"virtual:task-index": () => `export default ${JSON.stringify(buildTaskIndex(TASKS_DATA))};`,
		"virtual:task-data": () =>
			`export default {${Object.values(TASKS_DATA)
				.filter((task) => task !== undefined)
				.map(
					(task) =>
						`${JSON.stringify(task.id)}: () => import(${JSON.stringify(`virtual:task-data/${task.id}`)})`,
				)
				.join(",\n")}};`,
		"virtual:library-index": async () =>
			`export default ${JSON.stringify(
				libraryIndex(
					MODEL_LIBRARIES_UI_ELEMENTS as Record<string, LibraryEntryLike>,
					await familiesOf(MODEL_LIBRARY_FAMILIES),
				),
			)};`,
	};
	return {
		name: "modelhub-task-catalogue",
		resolveId: (source) =>
			source in modules || source.startsWith("virtual:task-data/") ? `\0${source}` : undefined,
		load: (resolved) => {
			if (!resolved.startsWith("\0virtual:")) return undefined;
			const id = resolved.slice(1);
			if (id in modules) return modules[id]?.();
			if (id.startsWith("virtual:task-data/")) {
				const data = taskData(id.slice("virtual:task-data/".length));
				return data ? `export default ${JSON.stringify(data)};` : undefined;
			}
			return undefined;
		},
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
	plugins: [react(), taskCatalogueModules(), precompress()],
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
