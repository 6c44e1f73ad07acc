import { PIPELINE_DATA, TASKS_DATA } from "@modelhub/tasks";
import type { PipelineType, TaskData } from "@modelhub/tasks";
import { taskCards, type TaskCard } from "./task-cards";
import { groupByModality } from "./task-groups";
import { isPipeline } from "./pipelines";

export interface TaskSummaryCard extends TaskCard {
	summary: string;
}

/** Every task that has a page, with its summary, sorted by label. */
export function allTaskCards(): TaskSummaryCard[] {
	return taskCards(TASKS_DATA).map((card) => ({ ...card, summary: TASKS_DATA[card.id]?.summary ?? "" }));
}

export function taskGroups(cards: TaskSummaryCard[] = allTaskCards()) {
	return groupByModality(cards);
}

export type TaskPageResolution =
	| { kind: "page"; task: TaskData; canonical?: { id: PipelineType; label: string }; via?: undefined }
	/** A pipeline type with no page of its own that other pages name as their canonical type. */
	| { kind: "alias"; id: PipelineType; label: string; pages: TaskData[] }
	| { kind: "none"; id: string; label?: string };

/**
 * What `/tasks/{id}` shows. A task with a page shows it, noting its canonical type when it has one
 * (summarization and translation → text2text-generation, text-to-speech → text-to-audio). A type that
 * has no page but is some pages' canonical type lists those pages.
 */
export function resolveTaskPage(id: string): TaskPageResolution {
	if (!isPipeline(id)) return { kind: "none", id };
	const task = TASKS_DATA[id];
	if (task) {
		const canonicalId = task.canonicalId;
		return canonicalId
			? { kind: "page", task, canonical: { id: canonicalId, label: PIPELINE_DATA[canonicalId].name } }
			: { kind: "page", task };
	}
	const pages = Object.values(TASKS_DATA).filter(
		(candidate): candidate is TaskData => candidate !== undefined && candidate.canonicalId === id,
	);
	if (pages.length > 0) return { kind: "alias", id, label: PIPELINE_DATA[id].name, pages };
	return { kind: "none", id, label: PIPELINE_DATA[id].name };
}
