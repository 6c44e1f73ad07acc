import { binaryInput } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { hfInferenceObjectDetection } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, LegacyImageInput, Options } from "../../types.js";

/** The Blob is sent as the raw body, so `parameters` are not sent (as in 3.12.1). */
export type ObjectDetectionArgs = BaseArgs &
	(
		| {
				inputs: Blob;
				parameters?: { threshold?: number };
		  }
		| LegacyImageInput
	);

export type ObjectDetectionOutput = Array<{
	label: string;
	score: number;
	box: { xmin: number; ymin: number; xmax: number; ymax: number };
}>;

const HELPERS: HelperTable = { "hf-inference": hfInferenceObjectDetection };

/** Detect objects in an image. */
export async function objectDetection(
	args: ObjectDetectionArgs,
	options?: Options,
): Promise<ObjectDetectionOutput> {
	return runTask<ObjectDetectionOutput>(args, options, {
		task: "object-detection",
		helpers: HELPERS,
		prepare: binaryInput,
	});
}
