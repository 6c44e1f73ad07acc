import { PIPELINE_DATA } from "@modelhub/tasks";
import type { Modality, PipelineType, TaskData } from "@modelhub/tasks";

export interface TaskCard {
	id: PipelineType;
	label: string;
	modality: Modality;
	placeholder: boolean;
	color: string;
}

/** Every task that has a page, as small cards sorted by label. */
export function taskCards(tasks: Record<string, TaskData | undefined>): TaskCard[] {
	return Object.values(tasks)
		.filter((task): task is TaskData => task !== undefined)
		.map((task) => ({
			id: task.id,
			label: task.label,
			modality: PIPELINE_DATA[task.id].modality,
			placeholder: task.isPlaceholder === true,
			color: PIPELINE_DATA[task.id].color,
		}))
		.sort((a, b) => a.label.localeCompare(b.label));
}
