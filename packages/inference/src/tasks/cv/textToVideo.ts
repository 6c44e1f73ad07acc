import { runTask } from "../../lib/request.js";
import { falAiTextToVideo } from "../../providers/fal-ai.js";
import { replicateTextToVideo } from "../../providers/replicate.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type TextToVideoArgs = BaseArgs & {
	inputs: string;
	parameters?: {
		guidance_scale?: number;
		negative_prompt?: string[];
		num_frames?: number;
		num_inference_steps?: number;
		seed?: number;
		[key: string]: unknown;
	};
};

export type TextToVideoOutput = Blob;

const HELPERS: HelperTable = { "fal-ai": falAiTextToVideo, replicate: replicateTextToVideo };

/** Generate a video (fal.ai queue or Replicate predictions); the video comes back as a Blob. */
export async function textToVideo(args: TextToVideoArgs, options?: Options): Promise<TextToVideoOutput> {
	return runTask<TextToVideoOutput>(args, options, { task: "text-to-video", helpers: HELPERS });
}
