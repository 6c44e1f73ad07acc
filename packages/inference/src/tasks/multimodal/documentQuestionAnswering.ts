import { toBase64 } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { hfInferenceDocumentQuestionAnswering } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

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

export interface DocumentQuestionAnsweringOutput {
	answer: string;
	score?: number;
	start?: number;
	end?: number;
}

const HELPERS: HelperTable = { "hf-inference": hfInferenceDocumentQuestionAnswering };

type Args = BaseArgs & Record<string, unknown>;

async function prepare(args: Args): Promise<Args> {
	const { question, image } = args.inputs as { question: string; image: Blob };
	return { ...args, inputs: { question, image: await toBase64(image) } };
}

/** Answer a question about a document image. */
export async function documentQuestionAnswering(
	args: DocumentQuestionAnsweringArgs,
	options?: Options,
): Promise<DocumentQuestionAnsweringOutput> {
	return runTask<DocumentQuestionAnsweringOutput>(args, options, {
		task: "document-question-answering",
		helpers: HELPERS,
		prepare,
	});
}
