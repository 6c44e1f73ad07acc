import { streamTask } from "../../lib/request.js";
import type { BaseArgs, Options, TextGenerationInput, TextGenerationStreamOutput } from "../../types.js";
import { TEXT_GENERATION_HELPERS } from "./textGenerationHelpers.js";

/** Continue a text, receiving tokens as server-sent events. */
export function textGenerationStream(
	args: BaseArgs & TextGenerationInput,
	options?: Options,
): AsyncGenerator<TextGenerationStreamOutput> {
	return streamTask<TextGenerationStreamOutput>(args, options, {
		task: "text-generation",
		helpers: TEXT_GENERATION_HELPERS,
	});
}
