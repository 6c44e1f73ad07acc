import { runTask } from "../../lib/request.js";
import type { BaseArgs, LegacyImageInput, Options } from "../../types.js";
import { imageSegmentationSpec } from "../specs.js";
import type { ImageSegmentationOutput } from "../../task-io.js";

/**
 * hf-inference: the Blob is sent as the raw body, so `parameters` are not sent (as in 3.12.1);
 * fal.ai: the image as a data: URL in JSON, parameters included.
 */
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

/** Segment an image (masks are base64 strings). */
export async function imageSegmentation(
	args: ImageSegmentationArgs,
	options?: Options,
): Promise<ImageSegmentationOutput> {
	return runTask<ImageSegmentationOutput>(args, options, imageSegmentationSpec);
}

export type { ImageSegmentationOutput } from "../../task-io.js";
