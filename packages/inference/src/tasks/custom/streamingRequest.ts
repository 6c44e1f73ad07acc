import { streamTask } from "../../lib/request.js";
import { helpersForTask } from "../../providers/registry.js";
import type { InferenceTask, Options, RequestArgs } from "../../types.js";

/**
 * A streaming call with no output checks: every SSE payload, JSON-parsed.
 * @deprecated Use chatCompletionStream or textGenerationStream.
 */
export async function* streamingRequest<T>(
	args: RequestArgs,
	options?: Options & { task?: InferenceTask },
): AsyncGenerator<T> {
	console.warn(
		"The streamingRequest method is deprecated and will be removed in a future version of huggingface.js. Use specific task functions instead.",
	);
	const task = options?.task;
	yield* streamTask<T>(args, options, { task, helpers: helpersForTask(task) });
}
