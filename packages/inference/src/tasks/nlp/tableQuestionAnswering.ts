import { runTask } from "../../lib/request.js";
import { hfInferenceTableQuestionAnswering } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type TableQuestionAnsweringArgs = BaseArgs & {
	inputs: { question: string; table: Record<string, string[]> };
	parameters?: {
		padding?: "do_not_pad" | "longest" | "max_length";
		sequential?: boolean;
		truncation?: boolean;
	};
};

export type TableQuestionAnsweringOutput = {
	answer: string;
	coordinates: number[][];
	cells: string[];
	aggregator: string;
};

const HELPERS: HelperTable = { "hf-inference": hfInferenceTableQuestionAnswering };

/** Answer a question about a table. */
export async function tableQuestionAnswering(
	args: TableQuestionAnsweringArgs,
	options?: Options,
): Promise<TableQuestionAnsweringOutput> {
	return runTask<TableQuestionAnsweringOutput>(args, options, {
		task: "table-question-answering",
		helpers: HELPERS,
	});
}
