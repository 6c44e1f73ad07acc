import { streamTask } from "../../lib/request.js";
import type { RequestArgs } from "../../types.js";
import { rawSpec } from "../specs.js";
import type { RequestOptions } from "./request.js";

/**
 * A streaming call with no output checks: every SSE payload, JSON-parsed.
 * @deprecated Use chatCompletionStream or textGenerationStream.
 */
export async function* streamingRequest<T>(args: RequestArgs, options?: RequestOptions): AsyncGenerator<T> {
	console.warn(
		"The streamingRequest method is deprecated and will be removed in a future version of huggingface.js. Use specific task functions instead.",
	);
	yield* streamTask<T>(args, options, rawSpec(options?.task, true));
}
