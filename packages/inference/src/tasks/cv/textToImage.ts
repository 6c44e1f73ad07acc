import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options, OutputType } from "../../types.js";
import { textToImageSpec } from "../specs.js";

export type TextToImageArgs = BaseArgs & {
	inputs: string;
	parameters?: {
		guidance_scale?: number;
		height?: number;
		width?: number;
		negative_prompt?: string;
		num_inference_steps?: number;
		scheduler?: string;
		seed?: number;
		[key: string]: unknown;
	};
};

export interface TextToImageOptions extends Options {
	/** "url": the image's URL (the provider's hosted URL, or a data: URL when it sends bytes) instead of a Blob. */
	outputType?: OutputType;
}

/** Generate an image: a Blob, or a URL string with `outputType: "url"`. */
export async function textToImage(
	args: TextToImageArgs,
	options?: TextToImageOptions & { outputType: "url" },
): Promise<string>;
export async function textToImage(
	args: TextToImageArgs,
	options?: TextToImageOptions & { outputType?: undefined | "blob" },
): Promise<Blob>;
export async function textToImage(
	args: TextToImageArgs,
	options?: TextToImageOptions,
): Promise<Blob | string>;
export async function textToImage(
	args: TextToImageArgs,
	options?: TextToImageOptions,
): Promise<Blob | string> {
	return runTask<Blob | string>(args, options, textToImageSpec);
}
