import { runTask } from "../../lib/request.js";
import { hfInferenceTextClassification } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type TextClassificationArgs = BaseArgs & {
	inputs: string;
	parameters?: { function_to_apply?: "sigmoid" | "softmax" | "none"; top_k?: number };
};

export type TextClassificationOutput = Array<{ label: string; score: number }>;

const HELPERS: HelperTable = { "hf-inference": hfInferenceTextClassification };

/** Classify a text. */
export async function textClassification(
	args: TextClassificationArgs,
	options?: Options,
): Promise<TextClassificationOutput> {
	return runTask<TextClassificationOutput>(args, options, { task: "text-classification", helpers: HELPERS });
}
