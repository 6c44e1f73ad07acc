import { runTask } from "../../lib/request.js";
import { blackForestLabsTextToImage } from "../../providers/black-forest-labs.js";
import { falAiTextToImage } from "../../providers/fal-ai.js";
import { hfInferenceTextToImage } from "../../providers/hf-inference.js";
import { hyperbolicTextToImage } from "../../providers/hyperbolic.js";
import { nebiusTextToImage } from "../../providers/nebius.js";
import { nscaleTextToImage } from "../../providers/nscale.js";
import { replicateTextToImage } from "../../providers/replicate.js";
import { togetherTextToImage } from "../../providers/together.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

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
	/** "url": the image URL (or a data: URL) instead of a Blob. */
	outputType?: "url" | "blob";
}

const HELPERS: HelperTable = {
	"black-forest-labs": blackForestLabsTextToImage,
	"fal-ai": falAiTextToImage,
	"hf-inference": hfInferenceTextToImage,
	hyperbolic: hyperbolicTextToImage,
	nebius: nebiusTextToImage,
	nscale: nscaleTextToImage,
	replicate: replicateTextToImage,
	together: togetherTextToImage,
};

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
	return runTask<Blob | string>(args, options, {
		task: "text-to-image",
		helpers: HELPERS,
		outputType: options?.outputType,
	});
}
