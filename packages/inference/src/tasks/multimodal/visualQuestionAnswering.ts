import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { visualQuestionAnsweringSpec } from "../specs.js";
import type { VisualQuestionAnsweringOutput } from "../../task-io.js";

export type VisualQuestionAnsweringArgs = BaseArgs & {
	inputs: { image: Blob; question: string };
	parameters?: { top_k?: number };
};

/** Answer a question about an image. */
export async function visualQuestionAnswering(
	args: VisualQuestionAnsweringArgs,
	options?: Options,
): Promise<VisualQuestionAnsweringOutput> {
	return runTask<VisualQuestionAnsweringOutput>(args, options, visualQuestionAnsweringSpec);
}

export type { VisualQuestionAnsweringOutput } from "../../task-io.js";
