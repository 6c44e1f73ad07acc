import { binaryInput } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { hfInferenceImageSegmentation } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, LegacyImageInput, Options } from "../../types.js";

/** The Blob is sent as the raw body, so `parameters` are not sent (as in 3.12.1). */
export type ImageSegmentationArgs = BaseArgs &
	(
		| {
				inputs: Blob;
				parameters?: {
					mask_threshold?: number;
					overlap_mask_area_threshold?: number;
					subtask?: "instance" | "panoptic" | "semantic";
					threshold?: number;
				};
		  }
		| LegacyImageInput
	);

export type ImageSegmentationOutput = Array<{ label: string; mask: string; score: number }>;

const HELPERS: HelperTable = { "hf-inference": hfInferenceImageSegmentation };

/** Segment an image (masks are base64 strings). */
export async function imageSegmentation(
	args: ImageSegmentationArgs,
	options?: Options,
): Promise<ImageSegmentationOutput> {
	return runTask<ImageSegmentationOutput>(args, options, {
		task: "image-segmentation",
		helpers: HELPERS,
		prepare: binaryInput,
	});
}
