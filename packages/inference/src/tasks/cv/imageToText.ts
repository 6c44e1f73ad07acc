import { runTask } from "../../lib/request.js";
import type { BaseArgs, LegacyImageInput, Options } from "../../types.js";
import { imageToTextSpec } from "../specs.js";
import type { ImageToTextOutput } from "../../task-io.js";

/**
 * hf-inference: the Blob is sent as the raw body, so `parameters` are not sent (as in 3.12.1);
 * zai-org: the image as a data: URL (an http(s) URL string input is downloaded first).
 */
export type ImageToTextArgs = BaseArgs &
	(
		| {
				inputs: Blob;
				parameters?: { max_new_tokens?: number; generation_parameters?: Record<string, unknown> };
		  }
		| LegacyImageInput
	);

/** Describe an image. */
export async function imageToText(args: ImageToTextArgs, options?: Options): Promise<ImageToTextOutput> {
	return runTask<ImageToTextOutput>(args, options, imageToTextSpec);
}

export type { ImageToTextOutput } from "../../task-io.js";
