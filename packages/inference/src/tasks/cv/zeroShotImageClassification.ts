import { toBase64 } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { hfInferenceZeroShotImageClassification } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type ZeroShotImageClassificationArgs = BaseArgs & {
	inputs: Blob | { image: Blob | ArrayBuffer };
	parameters: { candidate_labels: string[]; hypothesis_template?: string };
};

export type ZeroShotImageClassificationOutput = Array<{ label: string; score: number }>;

const HELPERS: HelperTable = { "hf-inference": hfInferenceZeroShotImageClassification };

type Args = BaseArgs & Record<string, unknown>;

async function prepare(args: Args): Promise<Args> {
	const inputs = args.inputs;
	const image = inputs instanceof Blob ? inputs : (inputs as { image: Blob | ArrayBuffer }).image;
	return { ...args, inputs: { image: await toBase64(image) } };
}

/** Classify an image into labels given at call time. */
export async function zeroShotImageClassification(
	args: ZeroShotImageClassificationArgs,
	options?: Options,
): Promise<ZeroShotImageClassificationOutput> {
	return runTask<ZeroShotImageClassificationOutput>(args, options, {
		task: "zero-shot-image-classification",
		helpers: HELPERS,
		prepare,
	});
}
