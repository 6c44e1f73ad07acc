import { runTask } from "../../lib/request.js";
import { helpersForTask } from "../../providers/registry.js";
import type { InferenceTask, Options, RequestArgs } from "../../types.js";

/**
 * A call with no output checks: the parsed JSON or the Blob as the server sent it.
 * @deprecated Use the task functions.
 */
export async function request<T>(
	args: RequestArgs,
	options?: Options & { task?: InferenceTask },
): Promise<T> {
	console.warn(
		"The request method is deprecated and will be removed in a future version of huggingface.js. Use specific task functions instead.",
	);
	const task = options?.task;
	return runTask<T>(args, options, { task, helpers: helpersForTask(task), raw: true });
}
