import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { zeroShotImageClassificationSpec } from "../specs.js";
import type { ZeroShotImageClassificationOutput } from "../../task-io.js";

export type ZeroShotImageClassificationArgs = BaseArgs & {
	inputs: Blob | { image: Blob | ArrayBuffer };
	parameters: { candidate_labels: string[]; hypothesis_template?: string };
};

/** Classify an image into labels given at call time. */
export async function zeroShotImageClassification(
	args: ZeroShotImageClassificationArgs,
	options?: Options,
): Promise<ZeroShotImageClassificationOutput> {
	return runTask<ZeroShotImageClassificationOutput>(args, options, zeroShotImageClassificationSpec);
}

export type { ZeroShotImageClassificationOutput } from "../../task-io.js";
