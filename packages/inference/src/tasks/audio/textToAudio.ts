import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { textToAudioSpec } from "../specs.js";

export type TextToAudioArgs = BaseArgs & {
	/** What to generate, e.g. "lo-fi hip hop, warm piano chords". */
	inputs: string;
	/** Model options (`generation_parameters` for hf-inference; e.g. `seconds_total` for fal.ai apps). */
	parameters?: { generation_parameters?: Record<string, unknown>; [key: string]: unknown };
};

/** Generate music or sound from a text; the audio file comes back as a Blob (hf-inference, fal.ai). */
export async function textToAudio(args: TextToAudioArgs, options?: Options): Promise<Blob> {
	return runTask<Blob>(args, options, textToAudioSpec);
}
