import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { imageTextToImageSpec } from "../specs.js";

export type ImageTextToImageArgs = BaseArgs & {
	/** The image to edit; optional (without one, fal.ai calls its text-only app, WaveSpeedAI gets a blank image). */
	inputs?: Blob | ArrayBuffer;
	parameters?: {
		/** The instruction, e.g. "Turn the cat into a tiger". */
		prompt?: string;
		guidance_scale?: number;
		negative_prompt?: string;
		num_inference_steps?: number;
		seed?: number;
		target_size?: { width: number; height: number };
		[key: string]: unknown;
	};
};

/** Edit or generate an image from an image and a text (fal.ai, WaveSpeedAI); the image comes back as a Blob. */
export async function imageTextToImage(args: ImageTextToImageArgs, options?: Options): Promise<Blob> {
	return runTask<Blob>(args, options, imageTextToImageSpec);
}
