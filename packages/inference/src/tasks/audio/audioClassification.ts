import { binaryInput } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { hfInferenceAudioClassification } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, LegacyAudioInput, Options } from "../../types.js";

/** The Blob is sent as the raw body, so `parameters` are not sent (as in 3.12.1). */
export type AudioClassificationArgs = BaseArgs &
	(
		| {
				inputs: Blob;
				parameters?: { function_to_apply?: "sigmoid" | "softmax" | "none"; top_k?: number };
		  }
		| LegacyAudioInput
	);

export type AudioClassificationOutput = Array<{ label: string; score: number }>;

const HELPERS: HelperTable = { "hf-inference": hfInferenceAudioClassification };

/** Classify an audio clip. */
export async function audioClassification(
	args: AudioClassificationArgs,
	options?: Options,
): Promise<AudioClassificationOutput> {
	return runTask<AudioClassificationOutput>(args, options, {
		task: "audio-classification",
		helpers: HELPERS,
		prepare: binaryInput,
	});
}
