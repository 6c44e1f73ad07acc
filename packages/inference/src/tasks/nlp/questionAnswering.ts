import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { questionAnsweringSpec } from "../specs.js";
import type { QuestionAnsweringOutput } from "../../task-io.js";

export type QuestionAnsweringArgs = BaseArgs & {
	inputs: { question: string; context: string };
	parameters?: {
		align_to_words?: boolean;
		doc_stride?: number;
		handle_impossible_answer?: boolean;
		max_answer_len?: number;
		max_question_len?: number;
		max_seq_len?: number;
		top_k?: number;
	};
};

/** Answer a question from a context. */
export async function questionAnswering(
	args: QuestionAnsweringArgs,
	options?: Options,
): Promise<QuestionAnsweringOutput> {
	return runTask<QuestionAnsweringOutput>(args, options, questionAnsweringSpec);
}

export type { QuestionAnsweringOutput } from "../../task-io.js";
