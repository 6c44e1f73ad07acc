import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { textToVideoSpec } from "../specs.js";
import type { TextToVideoOutput } from "../../task-io.js";

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

/** Generate a video (through each provider's queue or job API); the video comes back as a Blob. */
export async function textToVideo(args: TextToVideoArgs, options?: Options): Promise<TextToVideoOutput> {
	return runTask<TextToVideoOutput>(args, options, textToVideoSpec);
}

export type { TextToVideoOutput } from "../../task-io.js";
