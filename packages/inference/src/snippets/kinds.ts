/**
 * Which snippet shape each pipeline uses and which clients write which shapes (facts §4–§5 of
 * inference-snippets.md): 3.12.1's offer, plus today's pairs and our own client for every pair.
 */
import type { TaskHelper } from "../providers/types.js";
import { functionForPipeline, TASK_REGISTRY } from "../tasks/registry.js";
import type { RawAnswer, TemplateKind } from "./types.js";

export const PIPELINE_KINDS: Readonly<Record<string, TemplateKind>> = {
	"audio-classification": "basicAudio",
	"audio-to-audio": "basicAudio",
	"automatic-speech-recognition": "basicAudio",
	"image-classification": "basicImage",
	"image-segmentation": "basicImage",
	"image-to-text": "basicImage",
	"object-detection": "basicImage",
	"feature-extraction": "basic",
	"fill-mask": "basic",
	"question-answering": "basic",
	"sentence-similarity": "basic",
	summarization: "basic",
	"table-question-answering": "basic",
	"text-classification": "basic",
	"text-generation": "basic",
	"text2text-generation": "basic",
	"token-classification": "basic",
	translation: "basic",
	"document-question-answering": "documentQuestionAnswering",
	"image-to-image": "imageToImage",
	"image-to-video": "imageToVideo",
	"image-text-to-text": "conversational",
	"tabular-classification": "tabular",
	"tabular-regression": "tabular",
	"text-to-audio": "textToAudio",
	"text-to-image": "textToImage",
	"text-to-speech": "textToSpeech",
	"text-to-video": "textToVideo",
	"zero-shot-classification": "zeroShotClassification",
	"zero-shot-image-classification": "zeroShotImageClassification",
};

/** Pipelines whose models tagged `conversational` get the chat snippets. */
export const CHAT_PIPELINES: ReadonlySet<string> = /* @__PURE__ */ new Set([
	"text-generation",
	"image-text-to-text",
]);

/** pipeline → huggingface_hub InferenceClient method (verbatim data from the facts). */
export const HF_PYTHON_METHODS: Readonly<Record<string, string>> = {
	"audio-classification": "audio_classification",
	"audio-to-audio": "audio_to_audio",
	"automatic-speech-recognition": "automatic_speech_recognition",
	"document-question-answering": "document_question_answering",
	"feature-extraction": "feature_extraction",
	"fill-mask": "fill_mask",
	"image-classification": "image_classification",
	"image-segmentation": "image_segmentation",
	"image-to-image": "image_to_image",
	"image-to-text": "image_to_text",
	"image-to-video": "image_to_video",
	"object-detection": "object_detection",
	"question-answering": "question_answering",
	"sentence-similarity": "sentence_similarity",
	summarization: "summarization",
	"table-question-answering": "table_question_answering",
	"tabular-classification": "tabular_classification",
	"tabular-regression": "tabular_regression",
	"text-classification": "text_classification",
	"text-generation": "text_generation",
	"text-to-image": "text_to_image",
	"text-to-speech": "text_to_speech",
	"text-to-video": "text_to_video",
	"token-classification": "token_classification",
	translation: "translation",
	"visual-question-answering": "visual_question_answering",
	"zero-shot-classification": "zero_shot_classification",
	"zero-shot-image-classification": "zero_shot_image_classification",
};

export function hasOwn(record: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(record, key);
}

/**
 * Raw HTTP clients (requests, fetch, curl) show one request and its answer: they are offered when the
 * provider answers with the result itself, not with a job to poll.
 */
export function answeredAtOnce(ctx: { polls: boolean }): boolean {
	return !ctx.polls;
}

/**
 * How the raw HTTP answer of a pipeline's call is read: the provider's helper says whether it sends the
 * file itself (`answersFile`), the task registry says what that file is (the function's answer kind).
 * hf-inference speech of a model outside transformers answers JSON `[samples, sampling_rate]`.
 */
export function rawAnswerOf(
	helper: Pick<TaskHelper, "answersFile">,
	pipeline: string,
	model: { library_name?: string },
): RawAnswer {
	const name = functionForPipeline(pipeline);
	const media = name ? TASK_REGISTRY[name].answer : "json";
	if (media !== "image" && media !== "audio") return "json";
	if (helper.answersFile === "always") return `${media}-file`;
	if (helper.answersFile === "transformers") {
		if (model.library_name === "transformers") return `${media}-file`;
		return media === "audio" ? "audio-array" : "json";
	}
	return "json";
}
