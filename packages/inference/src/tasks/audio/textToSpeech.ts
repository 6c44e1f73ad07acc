import { runTask } from "../../lib/request.js";
import { falAiTextToSpeech } from "../../providers/fal-ai.js";
import { hfInferenceTextToSpeech } from "../../providers/hf-inference.js";
import { replicateTextToSpeech } from "../../providers/replicate.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type TextToSpeechArgs = BaseArgs & {
	inputs: string;
	parameters?: { generation_parameters?: Record<string, unknown> };
};

const HELPERS: HelperTable = {
	"fal-ai": falAiTextToSpeech,
	"hf-inference": hfInferenceTextToSpeech,
	replicate: replicateTextToSpeech,
};

/** Speak a text; the audio comes back as a Blob. */
export async function textToSpeech(args: TextToSpeechArgs, options?: Options): Promise<Blob> {
	return runTask<Blob>(args, options, { task: "text-to-speech", helpers: HELPERS });
}
