import { runTask } from "../../lib/request.js";
import type { BaseArgs, LegacyAudioInput, Options } from "../../types.js";
import { automaticSpeechRecognitionSpec } from "../specs.js";
import type { AutomaticSpeechRecognitionOutput } from "../../task-io.js";

export type AutomaticSpeechRecognitionArgs = BaseArgs &
	(
		| {
				inputs: Blob | ArrayBuffer;
				parameters?: { return_timestamps?: boolean; generation_parameters?: Record<string, unknown> };
		  }
		| LegacyAudioInput
	);

/**
 * Transcribe audio. Most providers take the file as the raw body; fal.ai and Replicate take it as a
 * data: URL in JSON, DeepInfra and Together as a multipart upload. (3.12.1 used fal.ai's form only for
 * a literal `provider: "fal-ai"`; it applies whenever fal.ai serves the call, also through "auto".)
 */
export async function automaticSpeechRecognition(
	args: AutomaticSpeechRecognitionArgs,
	options?: Options,
): Promise<AutomaticSpeechRecognitionOutput> {
	return runTask<AutomaticSpeechRecognitionOutput>(args, options, automaticSpeechRecognitionSpec);
}

export type { AutomaticSpeechRecognitionOutput } from "../../task-io.js";
