/** DeepInfra: OpenAI-compatible routes under `/v1/openai` (huggingface.js 4.13.28, huggingface_hub 2.0.0). */
import { InferenceInputError } from "../core/errors.js";
import type { AutomaticSpeechRecognitionOutput } from "../task-io.js";
import { isRecord } from "./checks.js";
import { asBlob, isFileInput, multipartForm } from "./media.js";
import {
	chatHelper,
	completionsHelper,
	embeddingsHelper,
	speechHelper,
	transcription,
} from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

export const deepinfra: ProviderDefinition = { id: "deepinfra", baseUrl: "https://api.deepinfra.com" };

export const deepinfraConversational = /* @__PURE__ */ chatHelper(deepinfra, "v1/openai/chat/completions");

export const deepinfraTextGeneration = /* @__PURE__ */ completionsHelper(
	deepinfra,
	"v1/openai/completions",
	"Expected DeepInfra text generation response format",
);

export const deepinfraFeatureExtraction = /* @__PURE__ */ embeddingsHelper(
	deepinfra,
	"v1/openai/embeddings",
	"Expected DeepInfra feature-extraction (embeddings) response format",
);

/** `voice` is model-specific and optional: passed through as given. */
export const deepinfraTextToSpeech = /* @__PURE__ */ speechHelper(deepinfra, "v1/openai/audio/speech");

/** Multipart upload: `file` (named `audio.{ext}` from its type), the parameters as fields, `model` last. */
export const deepinfraAutomaticSpeechRecognition: TaskHelper<AutomaticSpeechRecognitionOutput> = {
	provider: deepinfra,
	task: "automatic-speech-recognition",
	multipart: true,
	prepare: (args) => {
		const { data, inputs, ...rest } = args;
		const audio = "data" in args ? data : inputs;
		if (!isFileInput(audio)) {
			throw new InferenceInputError(
				"DeepInfra automatic-speech-recognition expects a Blob or ArrayBuffer audio input.",
			);
		}
		return { ...rest, file: asBlob(audio) };
	},
	makeRoute: () => "v1/openai/audio/transcriptions",
	makeBody: ({ args, model }) => {
		// `file` is set by `prepare`; request() callers may pass the 3.12.1-style `data` instead.
		const { file, data, parameters, ...rest } = args;
		return multipartForm(file ?? data, { ...rest, ...(isRecord(parameters) ? parameters : {}), model });
	},
	getResponse: (raw) => transcription(raw, "Expected DeepInfra automatic-speech-recognition response format"),
};
