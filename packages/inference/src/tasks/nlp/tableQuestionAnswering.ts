import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { tableQuestionAnsweringSpec } from "../specs.js";
import type { TableQuestionAnsweringOutput } from "../../task-io.js";

export type TableQuestionAnsweringArgs = BaseArgs & {
	inputs: { question: string; table: Record<string, string[]> };
	parameters?: {
		padding?: "do_not_pad" | "longest" | "max_length";
		sequential?: boolean;
		truncation?: boolean;
	};
};

/** Answer a question about a table. */
export async function tableQuestionAnswering(
	args: TableQuestionAnsweringArgs,
	options?: Options,
): Promise<TableQuestionAnsweringOutput> {
	return runTask<TableQuestionAnsweringOutput>(args, options, tableQuestionAnsweringSpec);
}

export type { TableQuestionAnsweringOutput } from "../../task-io.js";
