import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { documentQuestionAnsweringSpec } from "../specs.js";
import type { DocumentQuestionAnsweringOutput } from "../../task-io.js";

export type DocumentQuestionAnsweringArgs = BaseArgs & {
	inputs: { image: Blob; question: string };
	parameters?: {
		doc_stride?: number;
		handle_impossible_answer?: boolean;
		lang?: string;
		max_answer_len?: number;
		max_question_len?: number;
		max_seq_len?: number;
		top_k?: number;
		word_boxes?: Array<string | number[]>;
	};
};

/** Answer a question about a document image. */
export async function documentQuestionAnswering(
	args: DocumentQuestionAnsweringArgs,
	options?: Options,
): Promise<DocumentQuestionAnsweringOutput> {
	return runTask<DocumentQuestionAnsweringOutput>(args, options, documentQuestionAnsweringSpec);
}

export type { DocumentQuestionAnsweringOutput } from "../../task-io.js";
