import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { zeroShotClassificationSpec } from "../specs.js";
import type { ZeroShotClassificationOutput } from "../../task-io.js";

export type ZeroShotClassificationArgs = BaseArgs & {
	inputs: string | string[];
	parameters: { candidate_labels: string[]; hypothesis_template?: string; multi_label?: boolean };
};

/** Classify a text into labels given at call time. */
export async function zeroShotClassification(
	args: ZeroShotClassificationArgs,
	options?: Options,
): Promise<ZeroShotClassificationOutput> {
	return runTask<ZeroShotClassificationOutput>(args, options, zeroShotClassificationSpec);
}

export type { ZeroShotClassificationOutput } from "../../task-io.js";
