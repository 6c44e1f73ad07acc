import { runTask } from "../../lib/request.js";
import { hfInferenceSummarization } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type SummarizationArgs = BaseArgs & {
	inputs: string;
	parameters?: {
		clean_up_tokenization_spaces?: boolean;
		generate_parameters?: Record<string, unknown>;
		truncation?: "do_not_truncate" | "longest_first" | "only_first" | "only_second";
	};
};

export type SummarizationOutput = { summary_text: string };

const HELPERS: HelperTable = { "hf-inference": hfInferenceSummarization };

/** Summarise a text. */
export async function summarization(
	args: SummarizationArgs,
	options?: Options,
): Promise<SummarizationOutput> {
	return runTask<SummarizationOutput>(args, options, { task: "summarization", helpers: HELPERS });
}
