/** Model data shared by the local-app tests. */
import type { ModelData } from "../libraries/types.js";

/** A conversational GGUF language model (the hub's metadata for one), with any field replaced. */
export function ggufModel(extra: Partial<ModelData> = {}): ModelData {
	return {
		id: "acme/llm-GGUF",
		tags: ["gguf", "conversational"],
		pipeline_tag: "text-generation",
		gguf: { total: 1, context_length: 4096 },
		...extra,
	};
}
