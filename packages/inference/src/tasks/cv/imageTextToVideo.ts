import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import type { ImageToVideoParameters } from "./imageToVideo.js";
import { imageTextToVideoSpec } from "../specs.js";

export type ImageTextToVideoArgs = BaseArgs & {
	/** The first frame; optional (as for imageTextToImage). */
	inputs?: Blob | ArrayBuffer;
	parameters?: ImageToVideoParameters;
};

/** Generate a video from an image and a text (fal.ai, WaveSpeedAI); the video comes back as a Blob. */
export async function imageTextToVideo(args: ImageTextToVideoArgs, options?: Options): Promise<Blob> {
	return runTask<Blob>(args, options, imageTextToVideoSpec);
}
