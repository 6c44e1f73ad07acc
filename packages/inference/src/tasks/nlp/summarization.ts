import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { summarizationSpec } from "../specs.js";
import type { SummarizationOutput } from "../../task-io.js";

export type SummarizationArgs = BaseArgs & {
	inputs: string;
	parameters?: {
		clean_up_tokenization_spaces?: boolean;
		generate_parameters?: Record<string, unknown>;
		truncation?: "do_not_truncate" | "longest_first" | "only_first" | "only_second";
	};
};

/** Summarise a text. */
export async function summarization(
	args: SummarizationArgs,
	options?: Options,
): Promise<SummarizationOutput> {
	return runTask<SummarizationOutput>(args, options, summarizationSpec);
}

export type { SummarizationOutput } from "../../task-io.js";
