import { runTask } from "../../lib/request.js";
import { hfInferenceFillMask } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type FillMaskArgs = BaseArgs & { inputs: string; parameters?: { targets?: string[]; top_k?: number } };

export type FillMaskOutput = Array<{ score: number; sequence: string; token: number; token_str: string }>;

const HELPERS: HelperTable = { "hf-inference": hfInferenceFillMask };

/** Fill the masked token of a text. */
export async function fillMask(args: FillMaskArgs, options?: Options): Promise<FillMaskOutput> {
	return runTask<FillMaskOutput>(args, options, { task: "fill-mask", helpers: HELPERS });
}
