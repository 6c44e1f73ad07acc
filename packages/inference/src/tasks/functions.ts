import { audioClassification } from "./audio/audioClassification.js";
import { audioToAudio } from "./audio/audioToAudio.js";
import { automaticSpeechRecognition } from "./audio/automaticSpeechRecognition.js";
import { textToAudio } from "./audio/textToAudio.js";
import { textToSpeech } from "./audio/textToSpeech.js";
import { request } from "./custom/request.js";
import { streamingRequest } from "./custom/streamingRequest.js";
import { imageClassification } from "./cv/imageClassification.js";
import { imageSegmentation } from "./cv/imageSegmentation.js";
import { imageToImage } from "./cv/imageToImage.js";
import { imageTextToImage } from "./cv/imageTextToImage.js";
import { imageTextToVideo } from "./cv/imageTextToVideo.js";
import { imageToText } from "./cv/imageToText.js";
import { imageToVideo } from "./cv/imageToVideo.js";
import { objectDetection } from "./cv/objectDetection.js";
import { textToImage } from "./cv/textToImage.js";
import { textToVideo } from "./cv/textToVideo.js";
import { zeroShotImageClassification } from "./cv/zeroShotImageClassification.js";
import { documentQuestionAnswering } from "./multimodal/documentQuestionAnswering.js";
import { visualQuestionAnswering } from "./multimodal/visualQuestionAnswering.js";
import { chatCompletion } from "./nlp/chatCompletion.js";
import { chatCompletionStream } from "./nlp/chatCompletionStream.js";
import { featureExtraction } from "./nlp/featureExtraction.js";
import { fillMask } from "./nlp/fillMask.js";
import { questionAnswering } from "./nlp/questionAnswering.js";
import { sentenceSimilarity } from "./nlp/sentenceSimilarity.js";
import { summarization } from "./nlp/summarization.js";
import { tableQuestionAnswering } from "./nlp/tableQuestionAnswering.js";
import { textClassification } from "./nlp/textClassification.js";
import { textGeneration } from "./nlp/textGeneration.js";
import { textGenerationStream } from "./nlp/textGenerationStream.js";
import { tokenClassification } from "./nlp/tokenClassification.js";
import { translation } from "./nlp/translation.js";
import { zeroShotClassification } from "./nlp/zeroShotClassification.js";
import { tabularClassification } from "./tabular/tabularClassification.js";
import { tabularRegression } from "./tabular/tabularRegression.js";
import type { TaskFunctionName } from "./registry.js";

/**
 * The task functions, by their registry name (registry.ts: exactly its keys, checked by the
 * compiler): the client's methods are this object's keys (InferenceClient.ts) and the dry run
 * recognises a task function through it (prepareRequest.ts). A plain
 * object literal, not a module namespace: bundlers drop it, and every task it reaches, when unused.
 */
export const TASK_FUNCTIONS = {
	audioClassification,
	audioToAudio,
	automaticSpeechRecognition,
	textToAudio,
	textToSpeech,
	request,
	streamingRequest,
	imageClassification,
	imageSegmentation,
	imageToImage,
	imageTextToImage,
	imageTextToVideo,
	imageToText,
	imageToVideo,
	objectDetection,
	textToImage,
	textToVideo,
	zeroShotImageClassification,
	documentQuestionAnswering,
	visualQuestionAnswering,
	chatCompletion,
	chatCompletionStream,
	featureExtraction,
	fillMask,
	questionAnswering,
	sentenceSimilarity,
	summarization,
	tableQuestionAnswering,
	textClassification,
	textGeneration,
	textGenerationStream,
	tokenClassification,
	translation,
	zeroShotClassification,
	tabularClassification,
	tabularRegression,
} satisfies { readonly [Name in TaskFunctionName]: (args: never, options?: never) => unknown };

/** What the task function `name` resolves to (a Blob, a JSON answer, a stream…), as the client types it. */
export type TaskOutput<Name extends TaskFunctionName> = Awaited<ReturnType<(typeof TASK_FUNCTIONS)[Name]>>;
