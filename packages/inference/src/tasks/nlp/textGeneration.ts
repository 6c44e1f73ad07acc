import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options, TextGenerationInput, TextGenerationOutput } from "../../types.js";
import { TEXT_GENERATION_HELPERS } from "./textGenerationHelpers.js";

/** Continue a text. */
export async function textGeneration(
	args: BaseArgs & TextGenerationInput,
	options?: Options,
): Promise<TextGenerationOutput> {
	return runTask<TextGenerationOutput>(args, options, {
		task: "text-generation",
		helpers: TEXT_GENERATION_HELPERS,
	});
}
