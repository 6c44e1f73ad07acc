import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { tokenClassificationSpec } from "../specs.js";
import type { TokenClassificationOutput } from "../../task-io.js";

export type TokenClassificationArgs = BaseArgs & {
	inputs: string;
	parameters?: {
		aggregation_strategy?: "none" | "simple" | "first" | "average" | "max";
		ignore_labels?: string[];
		stride?: number;
	};
};

/** Label the tokens (entities) of a text. */
export async function tokenClassification(
	args: TokenClassificationArgs,
	options?: Options,
): Promise<TokenClassificationOutput> {
	return runTask<TokenClassificationOutput>(args, options, tokenClassificationSpec);
}

export type { TokenClassificationOutput } from "../../task-io.js";
