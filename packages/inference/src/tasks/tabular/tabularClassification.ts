import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { tabularClassificationSpec } from "../specs.js";
import type { TabularClassificationOutput } from "../../task-io.js";

export type TabularClassificationArgs = BaseArgs & { inputs: { data: Record<string, string[]> } };

/** Classify the rows of a table. */
export async function tabularClassification(
	args: TabularClassificationArgs,
	options?: Options,
): Promise<TabularClassificationOutput> {
	return runTask<TabularClassificationOutput>(args, options, tabularClassificationSpec);
}

export type { TabularClassificationOutput } from "../../task-io.js";
