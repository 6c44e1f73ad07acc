import { PIPELINE_DATA, type PipelineType } from "../pipelines.js";
import { TASKS_MODEL_LIBRARIES } from "../library-to-tasks.js";
import type { TaskData, TaskDataCustom } from "./types.js";

import anyToAny from "./any-to-any.js";
import audioClassification from "./audio-classification.js";
import audioToAudio from "./audio-to-audio.js";
import automaticSpeechRecognition from "./automatic-speech-recognition.js";
import depthEstimation from "./depth-estimation.js";
import documentQuestionAnswering from "./document-question-answering.js";
import visualDocumentRetrieval from "./visual-document-retrieval.js";
import featureExtraction from "./feature-extraction.js";
import fillMask from "./fill-mask.js";
import imageClassification from "./image-classification.js";
import imageFeatureExtraction from "./image-feature-extraction.js";
import imageSegmentation from "./image-segmentation.js";
import imageToImage from "./image-to-image.js";
import imageTextToText from "./image-text-to-text.js";
import imageToText from "./image-to-text.js";
import keypointDetection from "./keypoint-detection.js";
import maskGeneration from "./mask-generation.js";
import objectDetection from "./object-detection.js";
import videoClassification from "./video-classification.js";
import questionAnswering from "./question-answering.js";
import reinforcementLearning from "./reinforcement-learning.js";
import sentenceSimilarity from "./sentence-similarity.js";
import summarization from "./summarization.js";
import tableQuestionAnswering from "./table-question-answering.js";
import tabularClassification from "./tabular-classification.js";
import tabularRegression from "./tabular-regression.js";
import textClassification from "./text-classification.js";
import textGeneration from "./text-generation.js";
import textRanking from "./text-ranking.js";
import textToImage from "./text-to-image.js";
import textToSpeech from "./text-to-speech.js";
import textToVideo from "./text-to-video.js";
import tokenClassification from "./token-classification.js";
import translation from "./translation.js";
import unconditionalImageGeneration from "./unconditional-image-generation.js";
import videoTextToText from "./video-text-to-text.js";
import visualQuestionAnswering from "./visual-question-answering.js";
import zeroShotClassification from "./zero-shot-classification.js";
import zeroShotImageClassification from "./zero-shot-image-classification.js";
import zeroShotObjectDetection from "./zero-shot-object-detection.js";
import textTo3d from "./text-to-3d.js";
import imageTo3d from "./image-to-3d.js";

/** A task with a pipeline type but no page of its own yet: empty lists, flagged as a placeholder. */
const placeholder: TaskDataCustom = {
	datasets: [],
	demo: { inputs: [], outputs: [] },
	isPlaceholder: true,
	metrics: [],
	models: [],
	spaces: [],
	summary: "",
	widgetModels: [],
	youtubeId: undefined,
	canonicalId: undefined,
};

function getData(type: PipelineType, partialTaskData: TaskDataCustom = placeholder): TaskData {
	return {
		...partialTaskData,
		id: type,
		label: PIPELINE_DATA[type].name,
		libraries: TASKS_MODEL_LIBRARIES[type],
	};
}

/**
 * Task pages keyed by pipeline type. `undefined` marks a pipeline type that has no page (yet), so that
 * every pipeline type is a key and callers can tell "no page" from "unknown type".
 */
export const TASKS_DATA: Record<PipelineType, TaskData | undefined> = {
	"any-to-any": getData("any-to-any", anyToAny),
	"audio-classification": getData("audio-classification", audioClassification),
	"audio-to-audio": getData("audio-to-audio", audioToAudio),
	"audio-text-to-text": getData("audio-text-to-text", placeholder),
	"automatic-speech-recognition": getData("automatic-speech-recognition", automaticSpeechRecognition),
	"depth-estimation": getData("depth-estimation", depthEstimation),
	"document-question-answering": getData("document-question-answering", documentQuestionAnswering),
	"visual-document-retrieval": getData("visual-document-retrieval", visualDocumentRetrieval),
	"feature-extraction": getData("feature-extraction", featureExtraction),
	"fill-mask": getData("fill-mask", fillMask),
	"graph-ml": undefined,
	"image-classification": getData("image-classification", imageClassification),
	"image-feature-extraction": getData("image-feature-extraction", imageFeatureExtraction),
	"image-segmentation": getData("image-segmentation", imageSegmentation),
	"image-to-image": getData("image-to-image", imageToImage),
	"image-text-to-text": getData("image-text-to-text", imageTextToText),
	"image-to-text": getData("image-to-text", imageToText),
	"image-to-video": undefined,
	"keypoint-detection": getData("keypoint-detection", keypointDetection),
	"mask-generation": getData("mask-generation", maskGeneration),
	"multiple-choice": undefined,
	"object-detection": getData("object-detection", objectDetection),
	"video-classification": getData("video-classification", videoClassification),
	other: undefined,
	"question-answering": getData("question-answering", questionAnswering),
	"reinforcement-learning": getData("reinforcement-learning", reinforcementLearning),
	robotics: undefined,
	"sentence-similarity": getData("sentence-similarity", sentenceSimilarity),
	summarization: getData("summarization", summarization),
	"table-question-answering": getData("table-question-answering", tableQuestionAnswering),
	"table-to-text": undefined,
	"tabular-classification": getData("tabular-classification", tabularClassification),
	"tabular-regression": getData("tabular-regression", tabularRegression),
	"tabular-to-text": undefined,
	"text-classification": getData("text-classification", textClassification),
	"text-generation": getData("text-generation", textGeneration),
	"text-ranking": getData("text-ranking", textRanking),
	"text-retrieval": undefined,
	"text-to-image": getData("text-to-image", textToImage),
	"text-to-speech": getData("text-to-speech", textToSpeech),
	"text-to-audio": undefined,
	"text-to-video": getData("text-to-video", textToVideo),
	"text2text-generation": undefined,
	"time-series-forecasting": undefined,
	"token-classification": getData("token-classification", tokenClassification),
	translation: getData("translation", translation),
	"unconditional-image-generation": getData("unconditional-image-generation", unconditionalImageGeneration),
	"video-text-to-text": getData("video-text-to-text", videoTextToText),
	"visual-question-answering": getData("visual-question-answering", visualQuestionAnswering),
	"voice-activity-detection": undefined,
	"zero-shot-classification": getData("zero-shot-classification", zeroShotClassification),
	"zero-shot-image-classification": getData("zero-shot-image-classification", zeroShotImageClassification),
	"zero-shot-object-detection": getData("zero-shot-object-detection", zeroShotObjectDetection),
	"text-to-3d": getData("text-to-3d", textTo3d),
	"image-to-3d": getData("image-to-3d", imageTo3d),
} as const;
