import { runTask } from "../../lib/request.js";
import { hfInferenceTabularRegression } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type TabularRegressionArgs = BaseArgs & { inputs: { data: Record<string, string[]> } };

export type TabularRegressionOutput = number[];

const HELPERS: HelperTable = { "hf-inference": hfInferenceTabularRegression };

/** Predict a number for each row of a table. */
export async function tabularRegression(
	args: TabularRegressionArgs,
	options?: Options,
): Promise<TabularRegressionOutput> {
	return runTask<TabularRegressionOutput>(args, options, { task: "tabular-regression", helpers: HELPERS });
}
