import { MODALITIES, MODALITY_LABELS, PIPELINE_DATA, PIPELINE_TYPES, TASKS_DATA } from "@modelhub/tasks";

/** A plain-text summary of the task catalogue: pipeline types and task pages per modality. */
export function catalogueSummary(): string {
	const lines = ["ModelHub task catalogue", ""];
	for (const modality of MODALITIES) {
		const types = PIPELINE_TYPES.filter((type) => PIPELINE_DATA[type].modality === modality);
		const pages = types.filter((type) => TASKS_DATA[type] && !TASKS_DATA[type]?.isPlaceholder);
		lines.push(
			`${MODALITY_LABELS[modality].padEnd(30)} ${String(types.length).padStart(3)} pipeline types, ${String(pages.length).padStart(3)} task pages`,
		);
	}
	const pages = PIPELINE_TYPES.filter((type) => TASKS_DATA[type] && !TASKS_DATA[type]?.isPlaceholder).length;
	lines.push(
		"",
		`${"Total".padEnd(30)} ${String(PIPELINE_TYPES.length).padStart(3)} pipeline types, ${String(pages).padStart(3)} task pages`,
	);
	return lines.join("\n");
}
