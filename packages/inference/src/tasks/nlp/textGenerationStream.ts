import { streamTask } from "../../lib/request.js";
import type { BaseArgs, Options, TextGenerationInput, TextGenerationStreamOutput } from "../../types.js";
import { textGenerationStreamSpec } from "../specs.js";

/**
 * Continue a text, receiving tokens as server-sent events. OpenAI-style providers' chunks come in
 * the same `{token: {text}, generated_text, details}` shape as TGI's (`generated_text` on the last).
 */
export function textGenerationStream(
	args: BaseArgs & TextGenerationInput,
	options?: Options,
): AsyncGenerator<TextGenerationStreamOutput> {
	return streamTask<TextGenerationStreamOutput>(args, options, textGenerationStreamSpec);
}
