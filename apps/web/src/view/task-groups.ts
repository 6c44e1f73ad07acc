import { MODALITIES, MODALITY_LABELS } from "@modelhub/tasks";
import type { Modality } from "@modelhub/tasks";

export interface TaskGroup<T extends { modality: Modality }> {
	modality: Modality;
	label: string;
	tasks: T[];
}

/** Tasks grouped by modality in the catalogue's modality order; empty groups are left out. */
export function groupByModality<T extends { modality: Modality }>(cards: T[]): Array<TaskGroup<T>> {
	return MODALITIES.map((modality) => ({
		modality,
		label: MODALITY_LABELS[modality],
		tasks: cards.filter((task) => task.modality === modality),
	})).filter((group) => group.tasks.length > 0);
}
