import { runTask } from "../../lib/request.js";
import type { BaseArgs, ChatCompletionInput, ChatCompletionOutput, Options } from "../../types.js";
import { chatCompletionSpec } from "../specs.js";

/**
 * Chat with a model (OpenAI-compatible). Without a provider (or with "auto") the call goes to the
 * router's own auto-routing (`{router}/v1/chat/completions` with the plain model id; hub tokens only).
 */
export async function chatCompletion(
	args: BaseArgs & ChatCompletionInput,
	options?: Options,
): Promise<ChatCompletionOutput> {
	return runTask<ChatCompletionOutput>(args, options, chatCompletionSpec);
}
