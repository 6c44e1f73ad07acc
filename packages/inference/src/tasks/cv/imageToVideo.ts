import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { imageToVideoSpec } from "../specs.js";

/** Video generation options (`prompt`: what happens in the video); providers take more, passed as given. */
export interface ImageToVideoParameters {
	prompt?: string;
	guidance_scale?: number;
	negative_prompt?: string;
	num_frames?: number;
	num_inference_steps?: number;
	seed?: number;
	target_size?: { width: number; height: number };
	[key: string]: unknown;
}

export type ImageToVideoArgs = BaseArgs & {
	/** The first frame (sent as a data: URL or base64, as each provider takes it). */
	inputs: Blob | ArrayBuffer;
	parameters?: ImageToVideoParameters;
};

/** Animate an image into a video (fal.ai, Together, WaveSpeedAI); the video comes back as a Blob. */
export async function imageToVideo(args: ImageToVideoArgs, options?: Options): Promise<Blob> {
	return runTask<Blob>(args, options, imageToVideoSpec);
}
