import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { imageTextToVideoSpec } from "../specs.js";

export type ImageTextToVideoArgs = BaseArgs & {
	/** The first frame; optional (as for imageTextToImage). */
	inputs?: Blob | ArrayBuffer;
	parameters?: {
		prompt?: string;
		guidance_scale?: number;
		negative_prompt?: string;
		num_frames?: number;
		num_inference_steps?: number;
		seed?: number;
		target_size?: { width: number; height: number };
		[key: string]: unknown;
	};
};

/** Generate a video from an image and a text (fal.ai, WaveSpeedAI); the video comes back as a Blob. */
export async function imageTextToVideo(args: ImageTextToVideoArgs, options?: Options): Promise<Blob> {
	return runTask<Blob>(args, options, imageTextToVideoSpec);
}
