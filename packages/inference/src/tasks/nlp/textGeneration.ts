import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options, TextGenerationInput, TextGenerationOutput } from "../../types.js";
import { textGenerationSpec } from "../specs.js";

/**
 * Continue a text. hf-inference takes TGI's `{inputs, parameters}`; OpenAI-style providers get
 * `prompt` (completions routes) or one user message (chat routes), with `max_new_tokens` sent as
 * `max_tokens`; the answer is `{generated_text}` either way.
 */
export async function textGeneration(
	args: BaseArgs & TextGenerationInput,
	options?: Options,
): Promise<TextGenerationOutput> {
	return runTask<TextGenerationOutput>(args, options, textGenerationSpec);
}
