import { binaryInput } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { hfInferenceAudioToAudio } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, LegacyAudioInput, Options } from "../../types.js";

export type AudioToAudioArgs = BaseArgs & ({ inputs: Blob } | LegacyAudioInput);

export interface AudioToAudioOutputElem {
	label: string;
	"content-type": string;
	/** Base64 of the audio. */
	blob: string;
}

export type AudioToAudioOutput = AudioToAudioOutputElem[];

const HELPERS: HelperTable = { "hf-inference": hfInferenceAudioToAudio };

/**
 * Transform audio (e.g. source separation). As in 3.12.1, the provider is resolved without
 * the endpoint URL, so an endpoint alone goes through the "auto" policy.
 */
export async function audioToAudio(args: AudioToAudioArgs, options?: Options): Promise<AudioToAudioOutput> {
	return runTask<AudioToAudioOutput>(args, options, {
		task: "audio-to-audio",
		helpers: HELPERS,
		prepare: binaryInput,
		resolveWithoutEndpointUrl: true,
	});
}
