// Generated from PROVIDER_TASKS (./catalog.ts) by packages/inference/scripts/by-task.ts: do not edit.
// Regenerate: UPDATE_GENERATED=1 npx vitest run packages/inference/test/providers/by-task.test.ts
import type { ProvidersOf } from "./catalog.js";
import type { TaskHelper } from "./types.js";
import { basetenConversational } from "./baseten.js";
import { blackForestLabsTextToImage } from "./black-forest-labs.js";
import { cerebrasConversational } from "./cerebras.js";
import { cohereConversational } from "./cohere.js";
import {
	deepinfraAutomaticSpeechRecognition,
	deepinfraConversational,
	deepinfraFeatureExtraction,
	deepinfraTextGeneration,
	deepinfraTextToSpeech,
} from "./deepinfra.js";
import {
	falAiAudioToAudio,
	falAiAutomaticSpeechRecognition,
	falAiImageSegmentation,
	falAiImageTextToImage,
	falAiImageTextToVideo,
	falAiImageToImage,
	falAiImageToVideo,
	falAiTextToAudio,
	falAiTextToImage,
	falAiTextToSpeech,
	falAiTextToVideo,
} from "./fal-ai.js";
import { featherlessAiConversational, featherlessAiTextGeneration } from "./featherless-ai.js";
import { fireworksAiConversational } from "./fireworks-ai.js";
import { groqConversational, groqTextGeneration } from "./groq.js";
import {
	hfInferenceAudioClassification,
	hfInferenceAudioToAudio,
	hfInferenceAutomaticSpeechRecognition,
	hfInferenceConversational,
	hfInferenceDocumentQuestionAnswering,
	hfInferenceFeatureExtraction,
	hfInferenceFillMask,
	hfInferenceImageClassification,
	hfInferenceImageSegmentation,
	hfInferenceImageToImage,
	hfInferenceImageToText,
	hfInferenceObjectDetection,
	hfInferenceQuestionAnswering,
	hfInferenceSentenceSimilarity,
	hfInferenceSummarization,
	hfInferenceTableQuestionAnswering,
	hfInferenceTabularClassification,
	hfInferenceTabularRegression,
	hfInferenceTextClassification,
	hfInferenceTextGeneration,
	hfInferenceTextToAudio,
	hfInferenceTextToImage,
	hfInferenceTextToSpeech,
	hfInferenceTokenClassification,
	hfInferenceTranslation,
	hfInferenceVisualQuestionAnswering,
	hfInferenceZeroShotClassification,
	hfInferenceZeroShotImageClassification,
} from "./hf-inference.js";
import { hyperbolicConversational, hyperbolicTextGeneration, hyperbolicTextToImage } from "./hyperbolic.js";
import { nebiusConversational, nebiusTextGeneration, nebiusTextToImage } from "./nebius.js";
import { novitaConversational, novitaTextGeneration, novitaTextToVideo } from "./novita.js";
import { nscaleConversational, nscaleTextToImage } from "./nscale.js";
import { openaiConversational } from "./openai.js";
import { ovhcloudConversational, ovhcloudTextGeneration } from "./ovhcloud.js";
import { publicaiConversational } from "./publicai.js";
import {
	replicateAutomaticSpeechRecognition,
	replicateImageToImage,
	replicateTextToImage,
	replicateTextToSpeech,
	replicateTextToVideo,
} from "./replicate.js";
import { sambanovaConversational, sambanovaFeatureExtraction } from "./sambanova.js";
import { scalewayConversational, scalewayFeatureExtraction, scalewayTextGeneration } from "./scaleway.js";
import {
	togetherAutomaticSpeechRecognition,
	togetherConversational,
	togetherFeatureExtraction,
	togetherImageToImage,
	togetherImageToVideo,
	togetherTextGeneration,
	togetherTextToImage,
	togetherTextToSpeech,
	togetherTextToVideo,
} from "./together.js";
import {
	wavespeedImageTextToImage,
	wavespeedImageTextToVideo,
	wavespeedImageToImage,
	wavespeedImageToVideo,
	wavespeedTextToImage,
	wavespeedTextToVideo,
} from "./wavespeed.js";
import { zaiOrgConversational, zaiOrgImageToText, zaiOrgTextToImage } from "./zai-org.js";

/** audio-classification: hf-inference */
export const audioClassificationHelpers: { readonly [P in ProvidersOf<"audio-classification">]: TaskHelper } =
	{
		"hf-inference": hfInferenceAudioClassification,
	};

/** audio-to-audio: fal-ai, hf-inference */
export const audioToAudioHelpers: { readonly [P in ProvidersOf<"audio-to-audio">]: TaskHelper } = {
	"fal-ai": falAiAudioToAudio,
	"hf-inference": hfInferenceAudioToAudio,
};

/** automatic-speech-recognition: deepinfra, fal-ai, hf-inference, replicate, together */
export const automaticSpeechRecognitionHelpers: {
	readonly [P in ProvidersOf<"automatic-speech-recognition">]: TaskHelper;
} = {
	deepinfra: deepinfraAutomaticSpeechRecognition,
	"fal-ai": falAiAutomaticSpeechRecognition,
	"hf-inference": hfInferenceAutomaticSpeechRecognition,
	replicate: replicateAutomaticSpeechRecognition,
	together: togetherAutomaticSpeechRecognition,
};

/** conversational: baseten, cerebras, cohere, deepinfra, featherless-ai, hf-inference, fireworks-ai, groq, hyperbolic, nebius, novita, nscale, openai, ovhcloud, publicai, sambanova, scaleway, together, zai-org */
export const conversationalHelpers: { readonly [P in ProvidersOf<"conversational">]: TaskHelper } = {
	baseten: basetenConversational,
	cerebras: cerebrasConversational,
	cohere: cohereConversational,
	deepinfra: deepinfraConversational,
	"featherless-ai": featherlessAiConversational,
	"hf-inference": hfInferenceConversational,
	"fireworks-ai": fireworksAiConversational,
	groq: groqConversational,
	hyperbolic: hyperbolicConversational,
	nebius: nebiusConversational,
	novita: novitaConversational,
	nscale: nscaleConversational,
	openai: openaiConversational,
	ovhcloud: ovhcloudConversational,
	publicai: publicaiConversational,
	sambanova: sambanovaConversational,
	scaleway: scalewayConversational,
	together: togetherConversational,
	"zai-org": zaiOrgConversational,
};

/** document-question-answering: hf-inference */
export const documentQuestionAnsweringHelpers: {
	readonly [P in ProvidersOf<"document-question-answering">]: TaskHelper;
} = {
	"hf-inference": hfInferenceDocumentQuestionAnswering,
};

/** feature-extraction: deepinfra, hf-inference, sambanova, scaleway, together */
export const featureExtractionHelpers: { readonly [P in ProvidersOf<"feature-extraction">]: TaskHelper } = {
	deepinfra: deepinfraFeatureExtraction,
	"hf-inference": hfInferenceFeatureExtraction,
	sambanova: sambanovaFeatureExtraction,
	scaleway: scalewayFeatureExtraction,
	together: togetherFeatureExtraction,
};

/** fill-mask: hf-inference */
export const fillMaskHelpers: { readonly [P in ProvidersOf<"fill-mask">]: TaskHelper } = {
	"hf-inference": hfInferenceFillMask,
};

/** image-classification: hf-inference */
export const imageClassificationHelpers: { readonly [P in ProvidersOf<"image-classification">]: TaskHelper } =
	{
		"hf-inference": hfInferenceImageClassification,
	};

/** image-segmentation: fal-ai, hf-inference */
export const imageSegmentationHelpers: { readonly [P in ProvidersOf<"image-segmentation">]: TaskHelper } = {
	"fal-ai": falAiImageSegmentation,
	"hf-inference": hfInferenceImageSegmentation,
};

/** image-text-to-image: fal-ai, wavespeed */
export const imageTextToImageHelpers: { readonly [P in ProvidersOf<"image-text-to-image">]: TaskHelper } = {
	"fal-ai": falAiImageTextToImage,
	wavespeed: wavespeedImageTextToImage,
};

/** image-text-to-video: fal-ai, wavespeed */
export const imageTextToVideoHelpers: { readonly [P in ProvidersOf<"image-text-to-video">]: TaskHelper } = {
	"fal-ai": falAiImageTextToVideo,
	wavespeed: wavespeedImageTextToVideo,
};

/** image-to-image: fal-ai, hf-inference, replicate, together, wavespeed */
export const imageToImageHelpers: { readonly [P in ProvidersOf<"image-to-image">]: TaskHelper } = {
	"fal-ai": falAiImageToImage,
	"hf-inference": hfInferenceImageToImage,
	replicate: replicateImageToImage,
	together: togetherImageToImage,
	wavespeed: wavespeedImageToImage,
};

/** image-to-text: hf-inference, zai-org */
export const imageToTextHelpers: { readonly [P in ProvidersOf<"image-to-text">]: TaskHelper } = {
	"hf-inference": hfInferenceImageToText,
	"zai-org": zaiOrgImageToText,
};

/** image-to-video: fal-ai, together, wavespeed */
export const imageToVideoHelpers: { readonly [P in ProvidersOf<"image-to-video">]: TaskHelper } = {
	"fal-ai": falAiImageToVideo,
	together: togetherImageToVideo,
	wavespeed: wavespeedImageToVideo,
};

/** object-detection: hf-inference */
export const objectDetectionHelpers: { readonly [P in ProvidersOf<"object-detection">]: TaskHelper } = {
	"hf-inference": hfInferenceObjectDetection,
};

/** question-answering: hf-inference */
export const questionAnsweringHelpers: { readonly [P in ProvidersOf<"question-answering">]: TaskHelper } = {
	"hf-inference": hfInferenceQuestionAnswering,
};

/** sentence-similarity: hf-inference */
export const sentenceSimilarityHelpers: { readonly [P in ProvidersOf<"sentence-similarity">]: TaskHelper } = {
	"hf-inference": hfInferenceSentenceSimilarity,
};

/** summarization: hf-inference */
export const summarizationHelpers: { readonly [P in ProvidersOf<"summarization">]: TaskHelper } = {
	"hf-inference": hfInferenceSummarization,
};

/** table-question-answering: hf-inference */
export const tableQuestionAnsweringHelpers: {
	readonly [P in ProvidersOf<"table-question-answering">]: TaskHelper;
} = {
	"hf-inference": hfInferenceTableQuestionAnswering,
};

/** tabular-classification: hf-inference */
export const tabularClassificationHelpers: {
	readonly [P in ProvidersOf<"tabular-classification">]: TaskHelper;
} = {
	"hf-inference": hfInferenceTabularClassification,
};

/** tabular-regression: hf-inference */
export const tabularRegressionHelpers: { readonly [P in ProvidersOf<"tabular-regression">]: TaskHelper } = {
	"hf-inference": hfInferenceTabularRegression,
};

/** text-classification: hf-inference */
export const textClassificationHelpers: { readonly [P in ProvidersOf<"text-classification">]: TaskHelper } = {
	"hf-inference": hfInferenceTextClassification,
};

/** text-generation: deepinfra, featherless-ai, hf-inference, groq, hyperbolic, nebius, novita, ovhcloud, scaleway, together */
export const textGenerationHelpers: { readonly [P in ProvidersOf<"text-generation">]: TaskHelper } = {
	deepinfra: deepinfraTextGeneration,
	"featherless-ai": featherlessAiTextGeneration,
	"hf-inference": hfInferenceTextGeneration,
	groq: groqTextGeneration,
	hyperbolic: hyperbolicTextGeneration,
	nebius: nebiusTextGeneration,
	novita: novitaTextGeneration,
	ovhcloud: ovhcloudTextGeneration,
	scaleway: scalewayTextGeneration,
	together: togetherTextGeneration,
};

/** text-to-audio: fal-ai, hf-inference */
export const textToAudioHelpers: { readonly [P in ProvidersOf<"text-to-audio">]: TaskHelper } = {
	"fal-ai": falAiTextToAudio,
	"hf-inference": hfInferenceTextToAudio,
};

/** text-to-image: black-forest-labs, fal-ai, hf-inference, hyperbolic, nebius, nscale, replicate, together, wavespeed, zai-org */
export const textToImageHelpers: { readonly [P in ProvidersOf<"text-to-image">]: TaskHelper } = {
	"black-forest-labs": blackForestLabsTextToImage,
	"fal-ai": falAiTextToImage,
	"hf-inference": hfInferenceTextToImage,
	hyperbolic: hyperbolicTextToImage,
	nebius: nebiusTextToImage,
	nscale: nscaleTextToImage,
	replicate: replicateTextToImage,
	together: togetherTextToImage,
	wavespeed: wavespeedTextToImage,
	"zai-org": zaiOrgTextToImage,
};

/** text-to-speech: deepinfra, fal-ai, hf-inference, replicate, together */
export const textToSpeechHelpers: { readonly [P in ProvidersOf<"text-to-speech">]: TaskHelper } = {
	deepinfra: deepinfraTextToSpeech,
	"fal-ai": falAiTextToSpeech,
	"hf-inference": hfInferenceTextToSpeech,
	replicate: replicateTextToSpeech,
	together: togetherTextToSpeech,
};

/** text-to-video: fal-ai, novita, replicate, together, wavespeed */
export const textToVideoHelpers: { readonly [P in ProvidersOf<"text-to-video">]: TaskHelper } = {
	"fal-ai": falAiTextToVideo,
	novita: novitaTextToVideo,
	replicate: replicateTextToVideo,
	together: togetherTextToVideo,
	wavespeed: wavespeedTextToVideo,
};

/** token-classification: hf-inference */
export const tokenClassificationHelpers: { readonly [P in ProvidersOf<"token-classification">]: TaskHelper } =
	{
		"hf-inference": hfInferenceTokenClassification,
	};

/** translation: hf-inference */
export const translationHelpers: { readonly [P in ProvidersOf<"translation">]: TaskHelper } = {
	"hf-inference": hfInferenceTranslation,
};

/** visual-question-answering: hf-inference */
export const visualQuestionAnsweringHelpers: {
	readonly [P in ProvidersOf<"visual-question-answering">]: TaskHelper;
} = {
	"hf-inference": hfInferenceVisualQuestionAnswering,
};

/** zero-shot-classification: hf-inference */
export const zeroShotClassificationHelpers: {
	readonly [P in ProvidersOf<"zero-shot-classification">]: TaskHelper;
} = {
	"hf-inference": hfInferenceZeroShotClassification,
};

/** zero-shot-image-classification: hf-inference */
export const zeroShotImageClassificationHelpers: {
	readonly [P in ProvidersOf<"zero-shot-image-classification">]: TaskHelper;
} = {
	"hf-inference": hfInferenceZeroShotImageClassification,
};

/** Every task's table (request() and the snippet generator: pulls in every helper). */
export const HELPERS_BY_TASK = {
	"audio-classification": audioClassificationHelpers,
	"audio-to-audio": audioToAudioHelpers,
	"automatic-speech-recognition": automaticSpeechRecognitionHelpers,
	conversational: conversationalHelpers,
	"document-question-answering": documentQuestionAnsweringHelpers,
	"feature-extraction": featureExtractionHelpers,
	"fill-mask": fillMaskHelpers,
	"image-classification": imageClassificationHelpers,
	"image-segmentation": imageSegmentationHelpers,
	"image-text-to-image": imageTextToImageHelpers,
	"image-text-to-video": imageTextToVideoHelpers,
	"image-to-image": imageToImageHelpers,
	"image-to-text": imageToTextHelpers,
	"image-to-video": imageToVideoHelpers,
	"object-detection": objectDetectionHelpers,
	"question-answering": questionAnsweringHelpers,
	"sentence-similarity": sentenceSimilarityHelpers,
	summarization: summarizationHelpers,
	"table-question-answering": tableQuestionAnsweringHelpers,
	"tabular-classification": tabularClassificationHelpers,
	"tabular-regression": tabularRegressionHelpers,
	"text-classification": textClassificationHelpers,
	"text-generation": textGenerationHelpers,
	"text-to-audio": textToAudioHelpers,
	"text-to-image": textToImageHelpers,
	"text-to-speech": textToSpeechHelpers,
	"text-to-video": textToVideoHelpers,
	"token-classification": tokenClassificationHelpers,
	translation: translationHelpers,
	"visual-question-answering": visualQuestionAnsweringHelpers,
	"zero-shot-classification": zeroShotClassificationHelpers,
	"zero-shot-image-classification": zeroShotImageClassificationHelpers,
} as const;
