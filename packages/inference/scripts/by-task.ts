/**
 * Renders `src/providers/by-task.ts`: one helper table per task, derived from the catalogue
 * (`PROVIDER_TASKS`), so that a task function imports only its own task's helpers. Helpers are found
 * by name: provider `fal-ai` × task `image-to-image` → `falAiImageToImage` in `src/providers/fal-ai.ts`.
 * Run by test/providers/by-task.test.ts, which fails when the file is stale and rewrites it with
 * UPDATE_GENERATED=1.
 */

const camel = (id: string) => id.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
const pascal = (id: string) => camel(id).replace(/^./, (letter) => letter.toUpperCase());

/** The export name of a provider's helper for a task. */
export function helperName(provider: string, task: string): string {
	return `${camel(provider)}${pascal(task)}`;
}

/** The export name of a task's table. */
function tableName(task: string): string {
	return `${camel(task)}Helpers`;
}

export function renderByTask(catalog: Readonly<Record<string, readonly string[]>>): string {
	const providers = Object.keys(catalog);
	const tasks = [...new Set(providers.flatMap((provider) => catalog[provider] ?? []))].sort();
	const lines = [
		"// Generated from PROVIDER_TASKS (./catalog.ts) by packages/inference/scripts/by-task.ts: do not edit.",
		"// Regenerate: UPDATE_GENERATED=1 npx vitest run packages/inference/test/providers/by-task.test.ts",
		'import type { ProvidersOf } from "./catalog.js";',
		'import type { TaskHelper } from "./types.js";',
	];
	for (const provider of [...providers].sort()) {
		const names = (catalog[provider] ?? []).map((task) => helperName(provider, task)).sort();
		lines.push(`import { ${names.join(", ")} } from "./${provider}.js";`);
	}
	for (const task of tasks) {
		const serving = providers.filter((provider) => catalog[provider]?.includes(task));
		lines.push(
			"",
			`/** ${task}: ${serving.join(", ")} */`,
			`export const ${tableName(task)}: { readonly [P in ProvidersOf<"${task}">]: TaskHelper } = {`,
			...serving.map((provider) => `${JSON.stringify(provider)}: ${helperName(provider, task)},`),
			"};",
		);
	}
	lines.push(
		"",
		"/** Every task's table (request() and the snippet generator: pulls in every helper). */",
		"export const HELPERS_BY_TASK = {",
		...tasks.map((task) => `${JSON.stringify(task)}: ${tableName(task)},`),
		"} as const;",
		"",
	);
	return lines.join("\n");
}
