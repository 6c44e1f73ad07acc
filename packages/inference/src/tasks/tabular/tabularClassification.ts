import { runTask } from "../../lib/request.js";
import { hfInferenceTabularClassification } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type TabularClassificationArgs = BaseArgs & { inputs: { data: Record<string, string[]> } };

export type TabularClassificationOutput = number[];

const HELPERS: HelperTable = { "hf-inference": hfInferenceTabularClassification };

/** Classify the rows of a table. */
export async function tabularClassification(
	args: TabularClassificationArgs,
	options?: Options,
): Promise<TabularClassificationOutput> {
	return runTask<TabularClassificationOutput>(args, options, {
		task: "tabular-classification",
		helpers: HELPERS,
	});
}
