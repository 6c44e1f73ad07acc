import { runTask } from "../../lib/request.js";
import { hfInferenceZeroShotClassification } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type ZeroShotClassificationArgs = BaseArgs & {
	inputs: string | string[];
	parameters: { candidate_labels: string[]; hypothesis_template?: string; multi_label?: boolean };
};

export type ZeroShotClassificationOutput = Array<{ sequence: string; labels: string[]; scores: number[] }>;

const HELPERS: HelperTable = { "hf-inference": hfInferenceZeroShotClassification };

/** Classify a text into labels given at call time. */
export async function zeroShotClassification(
	args: ZeroShotClassificationArgs,
	options?: Options,
): Promise<ZeroShotClassificationOutput> {
	return runTask<ZeroShotClassificationOutput>(args, options, {
		task: "zero-shot-classification",
		helpers: HELPERS,
	});
}
