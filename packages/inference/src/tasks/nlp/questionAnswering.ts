import { runTask } from "../../lib/request.js";
import { hfInferenceQuestionAnswering } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

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

export type QuestionAnsweringOutput = { answer: string; score: number; start: number; end: number };

const HELPERS: HelperTable = { "hf-inference": hfInferenceQuestionAnswering };

/** Answer a question from a context. */
export async function questionAnswering(
	args: QuestionAnsweringArgs,
	options?: Options,
): Promise<QuestionAnsweringOutput> {
	return runTask<QuestionAnsweringOutput>(args, options, { task: "question-answering", helpers: HELPERS });
}
