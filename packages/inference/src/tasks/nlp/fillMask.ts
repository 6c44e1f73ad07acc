import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { fillMaskSpec } from "../specs.js";
import type { FillMaskOutput } from "../../task-io.js";

export type FillMaskArgs = BaseArgs & { inputs: string; parameters?: { targets?: string[]; top_k?: number } };

/** Fill the masked token of a text. */
export async function fillMask(args: FillMaskArgs, options?: Options): Promise<FillMaskOutput> {
	return runTask<FillMaskOutput>(args, options, fillMaskSpec);
}

export type { FillMaskOutput } from "../../task-io.js";
