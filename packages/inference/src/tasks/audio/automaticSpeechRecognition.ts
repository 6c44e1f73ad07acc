import { InferenceInputError } from "../../core/errors.js";
import { binaryInput, toBase64 } from "../../lib/inputs.js";
import { runTask } from "../../lib/request.js";
import { FAL_AI_AUDIO_TYPES, falAiAutomaticSpeechRecognition } from "../../providers/fal-ai.js";
import { hfInferenceAutomaticSpeechRecognition } from "../../providers/hf-inference.js";
import type { HelperTable, TaskHelper } from "../../providers/types.js";
import type { BaseArgs, LegacyAudioInput, Options } from "../../types.js";

export type AutomaticSpeechRecognitionArgs = BaseArgs &
	(
		| {
				inputs: Blob;
				parameters?: { return_timestamps?: boolean; generation_parameters?: Record<string, unknown> };
		  }
		| LegacyAudioInput
	);

export interface AutomaticSpeechRecognitionOutput {
	text: string;
	chunks?: Array<{ text: string; timestamp: number[] }>;
}

const HELPERS: HelperTable = {
	"fal-ai": falAiAutomaticSpeechRecognition,
	"hf-inference": hfInferenceAutomaticSpeechRecognition,
};

type Args = BaseArgs & Record<string, unknown>;

/**
 * fal.ai takes the audio as a data: URL in JSON. 3.12.1 only does this when `provider` is
 * literally "fal-ai"; we do it whenever fal.ai is the provider (also through "auto").
 */
async function prepare(args: Args, helper: TaskHelper): Promise<Args> {
	if (helper.provider.id !== "fal-ai") return binaryInput(args);
	const { data, inputs, ...rest } = args;
	const blob = "data" in args ? data : inputs;
	const type = blob instanceof Blob ? blob.type : undefined;
	if (!type) {
		throw new InferenceInputError(
			"Unable to determine the input's content-type. Make sure your are passing a Blob when using provider fal-ai.",
		);
	}
	if (!FAL_AI_AUDIO_TYPES.includes(type)) {
		throw new InferenceInputError(
			`Provider fal-ai does not support blob type ${type} - supported content types are: ${FAL_AI_AUDIO_TYPES.join(", ")}`,
		);
	}
	return { ...rest, audio_url: `data:${type};base64,${await toBase64(blob)}` };
}

/** Transcribe audio. */
export async function automaticSpeechRecognition(
	args: AutomaticSpeechRecognitionArgs,
	options?: Options,
): Promise<AutomaticSpeechRecognitionOutput> {
	return runTask<AutomaticSpeechRecognitionOutput>(args, options, {
		task: "automatic-speech-recognition",
		helpers: HELPERS,
		prepare,
	});
}
