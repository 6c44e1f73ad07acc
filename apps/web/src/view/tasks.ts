/**
 * Task pages without the task catalogue in the page's first load: a compact index (labels, canonical
 * types, summaries) is computed at build time (`virtual:task-index`, see vite.config.ts) from
 * `TASKS_DATA`, and each task's full data is a chunk of its own (`virtual:task-data`). The functions here
 * take the index as an argument, so tests build it from the catalogue itself.
 */
import { PIPELINE_DATA } from "@modelhub/tasks";
import type { PipelineType, TaskData } from "@modelhub/tasks";
import { taskCards, type TaskCard } from "./task-cards";
import { groupByModality } from "./task-groups";
import { isPipeline } from "./pipelines";

export interface TaskIndexEntry {
	id: PipelineType;
	label: string;
	summary: string;
	canonicalId?: PipelineType;
}

/** Every task that has a page, by id. */
export type TaskIndex = Partial<Record<PipelineType, TaskIndexEntry>>;

export function buildTaskIndex(tasks: Record<string, TaskData | undefined>): TaskIndex {
	const index: TaskIndex = {};
	for (const task of Object.values(tasks)) {
		if (!task) continue;
		index[task.id] = {
			id: task.id,
			label: task.label,
			summary: task.summary,
			...(task.canonicalId ? { canonicalId: task.canonicalId } : {}),
		};
	}
	return index;
}

/** A task's full page data with the display names of its libraries. */
export interface TaskPageData {
	task: TaskData;
	libraryLabels: Record<string, string>;
}

export interface TaskSummaryCard extends TaskCard {
	summary: string;
}

/** Every task that has a page, with its summary, sorted by label. */
export function allTaskCards(cards: TaskCard[], index: TaskIndex): TaskSummaryCard[] {
	return cards.map((card) => ({ ...card, summary: index[card.id]?.summary ?? "" }));
}

export function taskGroups(cards: TaskSummaryCard[]) {
	return groupByModality(cards);
}

export { taskCards };

export type TaskPageResolution =
	| { kind: "page"; entry: TaskIndexEntry; canonical?: { id: PipelineType; label: string } }
	/** A pipeline type with no page of its own that other pages name as their canonical type. */
	| { kind: "alias"; id: PipelineType; label: string; pages: TaskIndexEntry[] }
	| { kind: "none"; id: string; label?: string };

/**
 * What `/tasks/{id}` shows. A task with a page shows it, noting its canonical type when it has one
 * (summarization and translation → text2text-generation, text-to-speech → text-to-audio). A type that
 * has no page but is some pages' canonical type lists those pages. (The hub answers the same statuses:
 * packages/hub/src/web/page-meta.ts.)
 */
export function resolveTaskPage(id: string, index: TaskIndex): TaskPageResolution {
	if (!isPipeline(id)) return { kind: "none", id };
	const entry = index[id];
	if (entry) {
		const canonicalId = entry.canonicalId;
		return canonicalId
			? { kind: "page", entry, canonical: { id: canonicalId, label: PIPELINE_DATA[canonicalId].name } }
			: { kind: "page", entry };
	}
	const pages = Object.values(index).filter(
		(candidate): candidate is TaskIndexEntry => candidate !== undefined && candidate.canonicalId === id,
	);
	if (pages.length > 0) return { kind: "alias", id, label: PIPELINE_DATA[id].name, pages };
	return { kind: "none", id, label: PIPELINE_DATA[id].name };
}
