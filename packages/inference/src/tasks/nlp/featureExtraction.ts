import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { featureExtractionSpec } from "../specs.js";
import type { FeatureExtractionOutput } from "../../task-io.js";

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

/** Embed one or more texts. */
export async function featureExtraction(
	args: FeatureExtractionArgs,
	options?: Options,
): Promise<FeatureExtractionOutput> {
	return runTask<FeatureExtractionOutput>(args, options, featureExtractionSpec);
}

export type { FeatureExtractionOutput } from "../../task-io.js";
