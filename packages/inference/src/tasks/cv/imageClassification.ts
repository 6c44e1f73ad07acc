import { runTask } from "../../lib/request.js";
import type { BaseArgs, LegacyImageInput, Options } from "../../types.js";
import { imageClassificationSpec } from "../specs.js";
import type { ImageClassificationOutput } from "../../task-io.js";

/** The Blob is sent as the raw body, so `parameters` are not sent (as in 3.12.1). */
export type ImageClassificationArgs = BaseArgs &
	(
		| {
				inputs: Blob;
				parameters?: { function_to_apply?: "sigmoid" | "softmax" | "none"; top_k?: number };
		  }
		| LegacyImageInput
	);

/** Classify an image. */
export async function imageClassification(
	args: ImageClassificationArgs,
	options?: Options,
): Promise<ImageClassificationOutput> {
	return runTask<ImageClassificationOutput>(args, options, imageClassificationSpec);
}

export type { ImageClassificationOutput } from "../../task-io.js";
