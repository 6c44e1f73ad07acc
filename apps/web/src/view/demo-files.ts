import taskLoaders from "virtual:task-data";
import type { TaskPageData } from "./tasks";

/** The task's demo input picture or clip, used as the playground's default file (its task's chunk only). */
export async function demoFile(
	task: string | undefined,
	kind: "image" | "audio",
): Promise<string | undefined> {
	const load = task && Object.hasOwn(taskLoaders, task) ? taskLoaders[task] : undefined;
	if (!load) return undefined;
	const wanted = kind === "image" ? "img" : "audio";
	const data: TaskPageData = (await load()).default;
	const entry = data.task.demo.inputs.find((input) => input.type === wanted);
	return entry && "filename" in entry ? entry.filename : undefined;
}
