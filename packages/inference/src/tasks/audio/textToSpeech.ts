import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { textToSpeechSpec } from "../specs.js";

export type TextToSpeechArgs = BaseArgs & {
	inputs: string;
	/** Provider options such as `voice` (DeepInfra, Together, fal.ai) go here too. */
	parameters?: { generation_parameters?: Record<string, unknown>; [key: string]: unknown };
};

/** Speak a text; the audio comes back as a Blob. */
export async function textToSpeech(args: TextToSpeechArgs, options?: Options): Promise<Blob> {
	return runTask<Blob>(args, options, textToSpeechSpec);
}
