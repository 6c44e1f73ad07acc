import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { imageToImageSpec } from "../specs.js";

export type ImageToImageArgs = BaseArgs & {
	inputs: Blob | ArrayBuffer;
	parameters?: {
		guidance_scale?: number;
		negative_prompt?: string[];
		num_inference_steps?: number;
		prompt?: string;
		seed?: number;
		target_size?: { width: number; height: number };
		[key: string]: unknown;
	};
};

/**
 * Transform an image; the result is a Blob. hf-inference takes the image as the raw body without
 * parameters and base64 in JSON with them; the other providers as a data: URL or base64 in JSON.
 */
export async function imageToImage(args: ImageToImageArgs, options?: Options): Promise<Blob> {
	return runTask<Blob>(args, options, imageToImageSpec);
}
