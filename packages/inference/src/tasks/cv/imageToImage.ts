import { toBase64 } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { hfInferenceImageToImage } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type ImageToImageArgs = BaseArgs & {
	inputs: Blob | ArrayBuffer;
	parameters?: {
		guidance_scale?: number;
		negative_prompt?: string[];
		num_inference_steps?: number;
		prompt?: string;
		target_size?: { width: number; height: number };
	};
};

const HELPERS: HelperTable = { "hf-inference": hfInferenceImageToImage };

type Args = BaseArgs & Record<string, unknown>;

/**
 * Without parameters the image is the raw body; with parameters it is sent base64 in JSON.
 * (3.12.1 also drops provider and endpointUrl in the raw case; we keep them.)
 */
async function prepare(args: Args): Promise<Args> {
	const { inputs, ...rest } = args;
	if (!args.parameters) return { ...rest, data: inputs };
	return { ...args, inputs: await toBase64(inputs) };
}

/** Transform an image; the result is a Blob. */
export async function imageToImage(args: ImageToImageArgs, options?: Options): Promise<Blob> {
	return runTask<Blob>(args, options, { task: "image-to-image", helpers: HELPERS, prepare });
}
