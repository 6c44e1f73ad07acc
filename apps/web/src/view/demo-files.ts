import { TASKS_DATA } from "@modelhub/tasks";
import type { PipelineType } from "@modelhub/tasks";

/** The task's demo input picture or clip, used as the playground's default file. */
export function demoFile(task: string | undefined, kind: "image" | "audio"): string | undefined {
	if (!task || !Object.prototype.hasOwnProperty.call(TASKS_DATA, task)) return undefined;
	const wanted = kind === "image" ? "img" : "audio";
	const entry = TASKS_DATA[task as PipelineType]?.demo.inputs.find((input) => input.type === wanted);
	return entry && "filename" in entry ? entry.filename : undefined;
}
