import { toBase64 } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { hfInferenceVisualQuestionAnswering } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type VisualQuestionAnsweringArgs = BaseArgs & {
	inputs: { image: Blob; question: string };
	parameters?: { top_k?: number };
};

export interface VisualQuestionAnsweringOutput {
	answer: string;
	score: number;
}

const HELPERS: HelperTable = { "hf-inference": hfInferenceVisualQuestionAnswering };

type Args = BaseArgs & Record<string, unknown>;

async function prepare(args: Args): Promise<Args> {
	const { question, image } = args.inputs as { question: string; image: Blob };
	return { ...args, inputs: { question, image: await toBase64(image) } };
}

/** Answer a question about an image. */
export async function visualQuestionAnswering(
	args: VisualQuestionAnsweringArgs,
	options?: Options,
): Promise<VisualQuestionAnsweringOutput> {
	return runTask<VisualQuestionAnsweringOutput>(args, options, {
		task: "visual-question-answering",
		helpers: HELPERS,
		prepare,
	});
}
