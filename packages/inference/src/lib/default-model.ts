import { InferenceHubError } from "../core/errors.js";
import type { CallContext } from "../internal/context.js";
import { discardBody } from "../internal/http.js";
import type { InferenceTask, ModelId } from "../types.js";

type ApiTasks = Record<string, { models?: Array<{ id?: string }> } | undefined>;

/** `/api/tasks` per hub URL; only successful loads stay cached. */
const tasksByHub = new Map<string, Promise<ApiTasks>>();

export function clearDefaultModelCache(): void {
	tasksByHub.clear();
}

async function loadTasks(ctx: CallContext): Promise<ApiTasks> {
	const response = await ctx.fetch(`${ctx.hubUrl}/api/tasks`, { signal: ctx.signal });
	if (!response.ok) {
		await discardBody(response);
		throw new InferenceHubError("Failed to load tasks definitions from Hugging Face Hub.", response.status);
	}
	return (await response.json()) as ApiTasks;
}

/** The hub's default model for a task: `tasks[task].models[0].id` of GET {hub}/api/tasks. */
export async function getDefaultModel(task: InferenceTask, ctx: CallContext): Promise<ModelId> {
	let pending = tasksByHub.get(ctx.hubUrl);
	if (!pending) {
		pending = loadTasks(ctx);
		tasksByHub.set(ctx.hubUrl, pending);
		pending.catch(() => tasksByHub.delete(ctx.hubUrl));
	}
	const tasks = await pending;
	const model = tasks[task]?.models?.[0]?.id;
	if (!model)
		throw new InferenceHubError(
			`No default model defined for task ${task}, please define the model explicitly.`,
		);
	return model;
}
