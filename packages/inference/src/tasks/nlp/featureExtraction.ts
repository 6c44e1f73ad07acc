import { runTask } from "../../lib/request.js";
import { hfInferenceFeatureExtraction } from "../../providers/hf-inference.js";
import { sambanovaFeatureExtraction } from "../../providers/sambanova.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

/** Options are flat (not under `parameters`), as the embedding servers take them. */
export type FeatureExtractionArgs = BaseArgs & {
	inputs: string | string[];
	normalize?: boolean;
	prompt_name?: string;
	truncate?: boolean;
	truncation_direction?: "Left" | "Right";
	encoding_format?: "float" | "base64";
	dimensions?: number | null;
};

export type FeatureExtractionOutput = (number | number[] | number[][])[];

const HELPERS: HelperTable = {
	"hf-inference": hfInferenceFeatureExtraction,
	sambanova: sambanovaFeatureExtraction,
};

/** Embed one or more texts. */
export async function featureExtraction(
	args: FeatureExtractionArgs,
	options?: Options,
): Promise<FeatureExtractionOutput> {
	return runTask<FeatureExtractionOutput>(args, options, { task: "feature-extraction", helpers: HELPERS });
}
