import { PIPELINE_DATA } from "@modelhub/tasks";
import type { PipelineData, PipelineType } from "@modelhub/tasks";

export function isPipeline(id: string): id is PipelineType {
	return Object.prototype.hasOwnProperty.call(PIPELINE_DATA, id);
}

/** The human name of a pipeline type, or the id itself when unknown. */
export function pipelineName(id: string | undefined): string {
	if (!id) return "";
	return isPipeline(id) ? PIPELINE_DATA[id].name : id;
}

/**
 * Pipeline types offered in a list's task filter, sorted by name: the model list's, or the dataset
 * list's (the catalogue hides some in each: `hideInModels`, `hideInDatasets`).
 */
export function filterablePipelines(
	list: "models" | "datasets" = "models",
): Array<{ id: PipelineType; name: string }> {
	return (Object.keys(PIPELINE_DATA) as PipelineType[])
		.filter((id) => {
			const data = PIPELINE_DATA[id] as PipelineData;
			return !(list === "models" ? data.hideInModels : data.hideInDatasets);
		})
		.map((id) => ({ id, name: PIPELINE_DATA[id].name }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
