import { runTask } from "../../lib/request.js";
import type { BaseArgs, LegacyAudioInput, Options } from "../../types.js";
import { audioClassificationSpec } from "../specs.js";
import type { AudioClassificationOutput } from "../../task-io.js";

/** The Blob is sent as the raw body, so `parameters` are not sent (as in 3.12.1). */
export type AudioClassificationArgs = BaseArgs &
	(
		| {
				inputs: Blob;
				parameters?: { function_to_apply?: "sigmoid" | "softmax" | "none"; top_k?: number };
		  }
		| LegacyAudioInput
	);

/** Classify an audio clip. */
export async function audioClassification(
	args: AudioClassificationArgs,
	options?: Options,
): Promise<AudioClassificationOutput> {
	return runTask<AudioClassificationOutput>(args, options, audioClassificationSpec);
}

export type { AudioClassificationOutput } from "../../task-io.js";
