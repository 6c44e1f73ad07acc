import { binaryInput } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { hfInferenceImageToText } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, LegacyImageInput, Options } from "../../types.js";

/** The Blob is sent as the raw body, so `parameters` are not sent (as in 3.12.1). */
export type ImageToTextArgs = BaseArgs &
	(
		| {
				inputs: Blob;
				parameters?: { max_new_tokens?: number; generation_parameters?: Record<string, unknown> };
		  }
		| LegacyImageInput
	);

export type ImageToTextOutput = { generated_text: string };

const HELPERS: HelperTable = { "hf-inference": hfInferenceImageToText };

/** Describe an image. */
export async function imageToText(args: ImageToTextArgs, options?: Options): Promise<ImageToTextOutput> {
	return runTask<ImageToTextOutput>(args, options, {
		task: "image-to-text",
		helpers: HELPERS,
		prepare: binaryInput,
	});
}
