import { PIPELINE_TYPES, type PipelineType } from "./pipelines.js";
import { TASKS_DATA } from "./tasks/index.js";
import type { TaskData } from "./tasks/types.js";

/** The JSON body of the hub's `GET /api/tasks`: task id → task data, for tasks that have a page. */
export type ApiTasksResponse = Partial<Record<PipelineType, TaskData>>;

/**
 * Builds the `/api/tasks` payload. Each task keeps its `models` first-choice-first, because clients
 * take `models[0]` as the default model for a task. Tasks without a page are left out, as the hub does.
 * Placeholder tasks are included only when asked, since they have no models to offer.
 */
export function renderApiTasks(options: { includePlaceholders?: boolean } = {}): ApiTasksResponse {
	const out: ApiTasksResponse = {};
	for (const type of PIPELINE_TYPES) {
		const task = TASKS_DATA[type];
		if (!task) continue;
		if (task.isPlaceholder && !options.includePlaceholders) continue;
		out[type] = task;
	}
	return out;
}

/** The default model of a task (its first recommended model), or undefined. Never throws. */
export function getDefaultModelForTask(task: string): string | undefined {
	if (typeof task !== "string" || !Object.hasOwn(TASKS_DATA, task)) return undefined;
	const data = (TASKS_DATA as Record<string, TaskData | undefined>)[task];
	return data?.models[0]?.id;
}
