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

/** Pipeline types offered in the model list's task filter, sorted by name. */
export function filterablePipelines(): Array<{ id: PipelineType; name: string }> {
	return (Object.keys(PIPELINE_DATA) as PipelineType[])
		.filter((id) => !(PIPELINE_DATA[id] as PipelineData).hideInModels)
		.map((id) => ({ id, name: PIPELINE_DATA[id].name }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
