import { runTask } from "../../lib/request.js";
import type { BaseArgs, LegacyAudioInput, Options } from "../../types.js";
import { audioToAudioSpec } from "../specs.js";
import type { AudioToAudioOutput } from "../../task-io.js";

export type AudioToAudioArgs = BaseArgs & ({ inputs: Blob } | LegacyAudioInput);

/**
 * Transform audio (e.g. source separation). As in 3.12.1, the provider is resolved without
 * the endpoint URL, so an endpoint alone goes through the "auto" policy.
 */
export async function audioToAudio(args: AudioToAudioArgs, options?: Options): Promise<AudioToAudioOutput> {
	return runTask<AudioToAudioOutput>(args, options, audioToAudioSpec);
}

export type { AudioToAudioOutputElem, AudioToAudioOutput } from "../../task-io.js";
