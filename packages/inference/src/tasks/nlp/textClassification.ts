import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { textClassificationSpec } from "../specs.js";
import type { TextClassificationOutput } from "../../task-io.js";

export type TextClassificationArgs = BaseArgs & {
	inputs: string;
	parameters?: { function_to_apply?: "sigmoid" | "softmax" | "none"; top_k?: number };
};

/** Classify a text. */
export async function textClassification(
	args: TextClassificationArgs,
	options?: Options,
): Promise<TextClassificationOutput> {
	return runTask<TextClassificationOutput>(args, options, textClassificationSpec);
}

export type { TextClassificationOutput } from "../../task-io.js";
