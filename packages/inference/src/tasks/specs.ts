/**
 * How each task function runs, as data: its task id, its providers' helpers (the generated per-task
 * tables), its input shaping. One object literal per function, so a bundle keeps only the ones it
 * calls; the dry run (`prepareRequest`) asks a function for its spec (prepareRequest.ts).
 */
import { chatErrorWording } from "../lib/chat-errors.js";
import { binaryInput, imageToImageInput, questionImageInput, zeroShotImageInput } from "../lib/inputs.js";
import type { TaskSpec } from "../lib/resolve.js";
import { autoRouterConversational } from "../providers/auto-router.js";
import {
	HELPERS_BY_TASK,
	audioClassificationHelpers,
	audioToAudioHelpers,
	automaticSpeechRecognitionHelpers,
	conversationalHelpers,
	documentQuestionAnsweringHelpers,
	featureExtractionHelpers,
	fillMaskHelpers,
	imageClassificationHelpers,
	imageSegmentationHelpers,
	imageTextToImageHelpers,
	imageTextToVideoHelpers,
	imageToImageHelpers,
	imageToTextHelpers,
	imageToVideoHelpers,
	objectDetectionHelpers,
	questionAnsweringHelpers,
	sentenceSimilarityHelpers,
	summarizationHelpers,
	tableQuestionAnsweringHelpers,
	tabularClassificationHelpers,
	tabularRegressionHelpers,
	textClassificationHelpers,
	textGenerationHelpers,
	textToAudioHelpers,
	textToImageHelpers,
	textToSpeechHelpers,
	textToVideoHelpers,
	tokenClassificationHelpers,
	translationHelpers,
	visualQuestionAnsweringHelpers,
	zeroShotClassificationHelpers,
	zeroShotImageClassificationHelpers,
} from "../providers/by-task.js";
import { hfInferenceGeneric } from "../providers/hf-inference.js";
import type { HelperTable } from "../providers/types.js";
import type { InferenceTask } from "../types.js";

export const audioClassificationSpec: TaskSpec = {
	task: "audio-classification",
	helpers: audioClassificationHelpers,
	shape: binaryInput,
};
/** As in 3.12.1, the provider is resolved without the endpoint URL (an endpoint alone goes through "auto"). */
export const audioToAudioSpec: TaskSpec = {
	task: "audio-to-audio",
	helpers: audioToAudioHelpers,
	shape: binaryInput,
	resolveWithoutEndpointUrl: true,
};
export const automaticSpeechRecognitionSpec: TaskSpec = {
	task: "automatic-speech-recognition",
	helpers: automaticSpeechRecognitionHelpers,
	shape: binaryInput,
};
export const textToAudioSpec: TaskSpec = { task: "text-to-audio", helpers: textToAudioHelpers };
export const textToSpeechSpec: TaskSpec = { task: "text-to-speech", helpers: textToSpeechHelpers };
export const imageClassificationSpec: TaskSpec = {
	task: "image-classification",
	helpers: imageClassificationHelpers,
	shape: binaryInput,
};
export const imageSegmentationSpec: TaskSpec = {
	task: "image-segmentation",
	helpers: imageSegmentationHelpers,
	shape: binaryInput,
};
export const imageTextToImageSpec: TaskSpec = {
	task: "image-text-to-image",
	helpers: imageTextToImageHelpers,
};
export const imageTextToVideoSpec: TaskSpec = {
	task: "image-text-to-video",
	helpers: imageTextToVideoHelpers,
};
export const imageToImageSpec: TaskSpec = {
	task: "image-to-image",
	helpers: imageToImageHelpers,
	shape: imageToImageInput,
};
export const imageToTextSpec: TaskSpec = {
	task: "image-to-text",
	helpers: imageToTextHelpers,
	shape: binaryInput,
};
export const imageToVideoSpec: TaskSpec = { task: "image-to-video", helpers: imageToVideoHelpers };
export const objectDetectionSpec: TaskSpec = {
	task: "object-detection",
	helpers: objectDetectionHelpers,
	shape: binaryInput,
};
export const textToImageSpec: TaskSpec = { task: "text-to-image", helpers: textToImageHelpers };
export const textToVideoSpec: TaskSpec = { task: "text-to-video", helpers: textToVideoHelpers };
export const zeroShotImageClassificationSpec: TaskSpec = {
	task: "zero-shot-image-classification",
	helpers: zeroShotImageClassificationHelpers,
	shape: zeroShotImageInput,
};
export const documentQuestionAnsweringSpec: TaskSpec = {
	task: "document-question-answering",
	helpers: documentQuestionAnsweringHelpers,
	shape: questionImageInput,
};
export const visualQuestionAnsweringSpec: TaskSpec = {
	task: "visual-question-answering",
	helpers: visualQuestionAnsweringHelpers,
	shape: questionImageInput,
};
export const chatCompletionSpec: TaskSpec = {
	task: "conversational",
	helpers: conversationalHelpers,
	autoRouter: autoRouterConversational,
};
export const chatCompletionStreamSpec: TaskSpec = {
	task: "conversational",
	helpers: conversationalHelpers,
	autoRouter: autoRouterConversational,
	stream: true,
};
export const featureExtractionSpec: TaskSpec = {
	task: "feature-extraction",
	helpers: featureExtractionHelpers,
};
export const fillMaskSpec: TaskSpec = { task: "fill-mask", helpers: fillMaskHelpers };
export const questionAnsweringSpec: TaskSpec = {
	task: "question-answering",
	helpers: questionAnsweringHelpers,
};
export const sentenceSimilaritySpec: TaskSpec = {
	task: "sentence-similarity",
	helpers: sentenceSimilarityHelpers,
};
export const summarizationSpec: TaskSpec = { task: "summarization", helpers: summarizationHelpers };
export const tableQuestionAnsweringSpec: TaskSpec = {
	task: "table-question-answering",
	helpers: tableQuestionAnsweringHelpers,
};
export const textClassificationSpec: TaskSpec = {
	task: "text-classification",
	helpers: textClassificationHelpers,
};
export const textGenerationSpec: TaskSpec = { task: "text-generation", helpers: textGenerationHelpers };
export const textGenerationStreamSpec: TaskSpec = {
	task: "text-generation",
	helpers: textGenerationHelpers,
	stream: true,
};
export const tokenClassificationSpec: TaskSpec = {
	task: "token-classification",
	helpers: tokenClassificationHelpers,
};
export const translationSpec: TaskSpec = { task: "translation", helpers: translationHelpers };
export const zeroShotClassificationSpec: TaskSpec = {
	task: "zero-shot-classification",
	helpers: zeroShotClassificationHelpers,
};
export const tabularClassificationSpec: TaskSpec = {
	task: "tabular-classification",
	helpers: tabularClassificationHelpers,
};
export const tabularRegressionSpec: TaskSpec = {
	task: "tabular-regression",
	helpers: tabularRegressionHelpers,
};

/**
 * request() / streamingRequest(): arguments sent as given, the answer raw. Its helpers are the full
 * table of `task` (or the generic hf-inference helper without a task): this pulls in every helper.
 */
export function rawSpec(task: InferenceTask | undefined, stream = false): TaskSpec {
	const tables = HELPERS_BY_TASK as Readonly<Record<string, HelperTable>>;
	const helpers: HelperTable = task
		? ((Object.prototype.hasOwnProperty.call(tables, task) ? tables[task] : undefined) ?? {})
		: { "hf-inference": hfInferenceGeneric };
	return { task, helpers, raw: true, stream, chatWording: chatErrorWording };
}
