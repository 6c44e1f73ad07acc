/**
 * How each task function runs, as data: its task id (typed from the registry), its providers' helpers
 * (the generated per-task tables), its input shaping. One object literal per function, so a bundle keeps only the ones it
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
import type { TaskFunctionName, TaskRegistry } from "./registry.js";

/**
 * The spec of task function `N`: its task id and stream flag are the registry's (registry.ts), so a
 * spec that routes another task than its declaration fails to compile.
 */
type SpecOf<N extends TaskFunctionName> = TaskSpec & {
	task: TaskRegistry[N]["task"];
} & (TaskRegistry[N] extends {
		stream: true;
	}
		? { stream: true }
		: { stream?: false });

export const audioClassificationSpec: SpecOf<"audioClassification"> = {
	task: "audio-classification",
	helpers: audioClassificationHelpers,
	shape: binaryInput,
};
/** As in 3.12.1, the provider is resolved without the endpoint URL (an endpoint alone goes through "auto"). */
export const audioToAudioSpec: SpecOf<"audioToAudio"> = {
	task: "audio-to-audio",
	helpers: audioToAudioHelpers,
	shape: binaryInput,
	resolveWithoutEndpointUrl: true,
};
export const automaticSpeechRecognitionSpec: SpecOf<"automaticSpeechRecognition"> = {
	task: "automatic-speech-recognition",
	helpers: automaticSpeechRecognitionHelpers,
	shape: binaryInput,
};
export const textToAudioSpec: SpecOf<"textToAudio"> = { task: "text-to-audio", helpers: textToAudioHelpers };
export const textToSpeechSpec: SpecOf<"textToSpeech"> = {
	task: "text-to-speech",
	helpers: textToSpeechHelpers,
};
export const imageClassificationSpec: SpecOf<"imageClassification"> = {
	task: "image-classification",
	helpers: imageClassificationHelpers,
	shape: binaryInput,
};
export const imageSegmentationSpec: SpecOf<"imageSegmentation"> = {
	task: "image-segmentation",
	helpers: imageSegmentationHelpers,
	shape: binaryInput,
};
export const imageTextToImageSpec: SpecOf<"imageTextToImage"> = {
	task: "image-text-to-image",
	helpers: imageTextToImageHelpers,
};
export const imageTextToVideoSpec: SpecOf<"imageTextToVideo"> = {
	task: "image-text-to-video",
	helpers: imageTextToVideoHelpers,
};
export const imageToImageSpec: SpecOf<"imageToImage"> = {
	task: "image-to-image",
	helpers: imageToImageHelpers,
	shape: imageToImageInput,
};
export const imageToTextSpec: SpecOf<"imageToText"> = {
	task: "image-to-text",
	helpers: imageToTextHelpers,
	shape: binaryInput,
};
export const imageToVideoSpec: SpecOf<"imageToVideo"> = {
	task: "image-to-video",
	helpers: imageToVideoHelpers,
};
export const objectDetectionSpec: SpecOf<"objectDetection"> = {
	task: "object-detection",
	helpers: objectDetectionHelpers,
	shape: binaryInput,
};
export const textToImageSpec: SpecOf<"textToImage"> = { task: "text-to-image", helpers: textToImageHelpers };
export const textToVideoSpec: SpecOf<"textToVideo"> = { task: "text-to-video", helpers: textToVideoHelpers };
export const zeroShotImageClassificationSpec: SpecOf<"zeroShotImageClassification"> = {
	task: "zero-shot-image-classification",
	helpers: zeroShotImageClassificationHelpers,
	shape: zeroShotImageInput,
};
export const documentQuestionAnsweringSpec: SpecOf<"documentQuestionAnswering"> = {
	task: "document-question-answering",
	helpers: documentQuestionAnsweringHelpers,
	shape: questionImageInput,
};
export const visualQuestionAnsweringSpec: SpecOf<"visualQuestionAnswering"> = {
	task: "visual-question-answering",
	helpers: visualQuestionAnsweringHelpers,
	shape: questionImageInput,
};
export const chatCompletionSpec: SpecOf<"chatCompletion"> = {
	task: "conversational",
	helpers: conversationalHelpers,
	autoRouter: autoRouterConversational,
};
export const chatCompletionStreamSpec: SpecOf<"chatCompletionStream"> = {
	task: "conversational",
	helpers: conversationalHelpers,
	autoRouter: autoRouterConversational,
	stream: true,
};
export const featureExtractionSpec: SpecOf<"featureExtraction"> = {
	task: "feature-extraction",
	helpers: featureExtractionHelpers,
};
export const fillMaskSpec: SpecOf<"fillMask"> = { task: "fill-mask", helpers: fillMaskHelpers };
export const questionAnsweringSpec: SpecOf<"questionAnswering"> = {
	task: "question-answering",
	helpers: questionAnsweringHelpers,
};
export const sentenceSimilaritySpec: SpecOf<"sentenceSimilarity"> = {
	task: "sentence-similarity",
	helpers: sentenceSimilarityHelpers,
};
export const summarizationSpec: SpecOf<"summarization"> = {
	task: "summarization",
	helpers: summarizationHelpers,
};
export const tableQuestionAnsweringSpec: SpecOf<"tableQuestionAnswering"> = {
	task: "table-question-answering",
	helpers: tableQuestionAnsweringHelpers,
};
export const textClassificationSpec: SpecOf<"textClassification"> = {
	task: "text-classification",
	helpers: textClassificationHelpers,
};
export const textGenerationSpec: SpecOf<"textGeneration"> = {
	task: "text-generation",
	helpers: textGenerationHelpers,
};
export const textGenerationStreamSpec: SpecOf<"textGenerationStream"> = {
	task: "text-generation",
	helpers: textGenerationHelpers,
	stream: true,
};
export const tokenClassificationSpec: SpecOf<"tokenClassification"> = {
	task: "token-classification",
	helpers: tokenClassificationHelpers,
};
export const translationSpec: SpecOf<"translation"> = { task: "translation", helpers: translationHelpers };
export const zeroShotClassificationSpec: SpecOf<"zeroShotClassification"> = {
	task: "zero-shot-classification",
	helpers: zeroShotClassificationHelpers,
};
export const tabularClassificationSpec: SpecOf<"tabularClassification"> = {
	task: "tabular-classification",
	helpers: tabularClassificationHelpers,
};
export const tabularRegressionSpec: SpecOf<"tabularRegression"> = {
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
