import { binaryInput } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { hfInferenceImageClassification } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, LegacyImageInput, Options } from "../../types.js";

/** The Blob is sent as the raw body, so `parameters` are not sent (as in 3.12.1). */
export type ImageClassificationArgs = BaseArgs &
	(
		| {
				inputs: Blob;
				parameters?: { function_to_apply?: "sigmoid" | "softmax" | "none"; top_k?: number };
		  }
		| LegacyImageInput
	);

export type ImageClassificationOutput = Array<{ label: string; score: number }>;

const HELPERS: HelperTable = { "hf-inference": hfInferenceImageClassification };

/** Classify an image. */
export async function imageClassification(
	args: ImageClassificationArgs,
	options?: Options,
): Promise<ImageClassificationOutput> {
	return runTask<ImageClassificationOutput>(args, options, {
		task: "image-classification",
		helpers: HELPERS,
		prepare: binaryInput,
	});
}
