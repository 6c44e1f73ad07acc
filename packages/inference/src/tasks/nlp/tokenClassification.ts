import { runTask } from "../../lib/request.js";
import { hfInferenceTokenClassification } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type TokenClassificationArgs = BaseArgs & {
	inputs: string;
	parameters?: {
		aggregation_strategy?: "none" | "simple" | "first" | "average" | "max";
		ignore_labels?: string[];
		stride?: number;
	};
};

export type TokenClassificationOutput = Array<{
	entity_group: string;
	score: number;
	word: string;
	start: number;
	end: number;
}>;

const HELPERS: HelperTable = { "hf-inference": hfInferenceTokenClassification };

/** Label the tokens (entities) of a text. */
export async function tokenClassification(
	args: TokenClassificationArgs,
	options?: Options,
): Promise<TokenClassificationOutput> {
	return runTask<TokenClassificationOutput>(args, options, {
		task: "token-classification",
		helpers: HELPERS,
	});
}
