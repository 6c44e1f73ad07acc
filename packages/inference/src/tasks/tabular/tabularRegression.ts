import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { tabularRegressionSpec } from "../specs.js";
import type { TabularRegressionOutput } from "../../task-io.js";

export type TabularRegressionArgs = BaseArgs & { inputs: { data: Record<string, string[]> } };

/** Predict a number for each row of a table. */
export async function tabularRegression(
	args: TabularRegressionArgs,
	options?: Options,
): Promise<TabularRegressionOutput> {
	return runTask<TabularRegressionOutput>(args, options, tabularRegressionSpec);
}

export type { TabularRegressionOutput } from "../../task-io.js";
