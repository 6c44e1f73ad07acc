import { streamTask } from "../../lib/request.js";
import type { BaseArgs, ChatCompletionInput, ChatCompletionStreamOutput, Options } from "../../types.js";
import { chatCompletionStreamSpec } from "../specs.js";

/** Chat with a model, receiving the answer as server-sent chunks (routing as chatCompletion). */
export function chatCompletionStream(
	args: BaseArgs & ChatCompletionInput,
	options?: Options,
): AsyncGenerator<ChatCompletionStreamOutput> {
	return streamTask<ChatCompletionStreamOutput>(args, options, chatCompletionStreamSpec);
}
