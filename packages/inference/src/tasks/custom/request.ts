import { runTask } from "../../lib/request.js";
import type { InferenceTask, Options, RequestArgs } from "../../types.js";
import { rawSpec } from "../specs.js";

/** `request()`'s options: the task (to pick the provider's helper) and 3.12.1's chat flag. */
export type RequestOptions = Options & {
	task?: InferenceTask;
	/** Words a 400/404/422/500 answer as "Server {model} does not seem to support chat completion. Error: …". */
	chatCompletion?: boolean;
};

/**
 * A call with no output checks: the parsed JSON or the Blob as the server sent it.
 * @deprecated Use the task functions.
 */
export async function request<T>(args: RequestArgs, options?: RequestOptions): Promise<T> {
	console.warn(
		"The request method is deprecated and will be removed in a future version of huggingface.js. Use specific task functions instead.",
	);
	return runTask<T>(args, options, rawSpec(options?.task));
}
