import { runTask } from "../../lib/request.js";
import type { BaseArgs, ChatCompletionInput, ChatCompletionOutput, Options } from "../../types.js";
import { CHAT_HELPERS } from "./chatHelpers.js";

/** Chat with a model (OpenAI-compatible). */
export async function chatCompletion(
	args: BaseArgs & ChatCompletionInput,
	options?: Options,
): Promise<ChatCompletionOutput> {
	return runTask<ChatCompletionOutput>(args, options, { task: "conversational", helpers: CHAT_HELPERS });
}
