import { streamTask } from "../../lib/request.js";
import type { BaseArgs, ChatCompletionInput, ChatCompletionStreamOutput, Options } from "../../types.js";
import { CHAT_HELPERS } from "./chatHelpers.js";

/** Chat with a model, receiving the answer as server-sent chunks. */
export function chatCompletionStream(
	args: BaseArgs & ChatCompletionInput,
	options?: Options,
): AsyncGenerator<ChatCompletionStreamOutput> {
	return streamTask<ChatCompletionStreamOutput>(args, options, {
		task: "conversational",
		helpers: CHAT_HELPERS,
	});
}
