/**
 * The full provider × task table (61 pairs), in 3.12.1's order. Only `request()` and
 * `streamingRequest()` use it: task functions keep their own small tables so that a bundle only
 * holds the helpers of the tasks it calls.
 */
import type { InferenceProvider, InferenceTask } from "../types.js";
import { blackForestLabsTextToImage } from "./black-forest-labs.js";
import { cerebrasConversational } from "./cerebras.js";
import { cohereConversational } from "./cohere.js";
import {
	falAiAutomaticSpeechRecognition,
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
	hfInferenceGeneric,
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
import { novitaConversational, novitaTextGeneration } from "./novita.js";
import { nscaleConversational, nscaleTextToImage } from "./nscale.js";
import { openaiConversational } from "./openai.js";
import { ovhcloudConversational, ovhcloudTextGeneration } from "./ovhcloud.js";
import { replicateTextToImage, replicateTextToSpeech, replicateTextToVideo } from "./replicate.js";
import { sambanovaConversational, sambanovaFeatureExtraction } from "./sambanova.js";
import { togetherConversational, togetherTextGeneration, togetherTextToImage } from "./together.js";
import type { HelperTable, TaskHelper } from "./types.js";

export const PROVIDER_REGISTRY: Readonly<
	Record<InferenceProvider, Partial<Record<InferenceTask, TaskHelper>>>
> = {
	"black-forest-labs": { "text-to-image": blackForestLabsTextToImage },
	cerebras: { conversational: cerebrasConversational },
	cohere: { conversational: cohereConversational },
	"fal-ai": {
		"text-to-image": falAiTextToImage,
		"text-to-speech": falAiTextToSpeech,
		"text-to-video": falAiTextToVideo,
		"automatic-speech-recognition": falAiAutomaticSpeechRecognition,
	},
	"featherless-ai": {
		conversational: featherlessAiConversational,
		"text-generation": featherlessAiTextGeneration,
	},
	"hf-inference": {
		"text-to-image": hfInferenceTextToImage,
		conversational: hfInferenceConversational,
		"text-generation": hfInferenceTextGeneration,
		"text-classification": hfInferenceTextClassification,
		"question-answering": hfInferenceQuestionAnswering,
		"audio-classification": hfInferenceAudioClassification,
		"automatic-speech-recognition": hfInferenceAutomaticSpeechRecognition,
		"fill-mask": hfInferenceFillMask,
		"feature-extraction": hfInferenceFeatureExtraction,
		"image-classification": hfInferenceImageClassification,
		"image-segmentation": hfInferenceImageSegmentation,
		"document-question-answering": hfInferenceDocumentQuestionAnswering,
		"image-to-text": hfInferenceImageToText,
		"object-detection": hfInferenceObjectDetection,
		"audio-to-audio": hfInferenceAudioToAudio,
		"zero-shot-image-classification": hfInferenceZeroShotImageClassification,
		"zero-shot-classification": hfInferenceZeroShotClassification,
		"image-to-image": hfInferenceImageToImage,
		"sentence-similarity": hfInferenceSentenceSimilarity,
		"table-question-answering": hfInferenceTableQuestionAnswering,
		"tabular-classification": hfInferenceTabularClassification,
		"text-to-speech": hfInferenceTextToSpeech,
		"token-classification": hfInferenceTokenClassification,
		translation: hfInferenceTranslation,
		summarization: hfInferenceSummarization,
		"visual-question-answering": hfInferenceVisualQuestionAnswering,
		"tabular-regression": hfInferenceTabularRegression,
		"text-to-audio": hfInferenceTextToAudio,
	},
	"fireworks-ai": { conversational: fireworksAiConversational },
	groq: { conversational: groqConversational, "text-generation": groqTextGeneration },
	hyperbolic: {
		"text-to-image": hyperbolicTextToImage,
		conversational: hyperbolicConversational,
		"text-generation": hyperbolicTextGeneration,
	},
	nebius: {
		"text-to-image": nebiusTextToImage,
		conversational: nebiusConversational,
		"text-generation": nebiusTextGeneration,
	},
	novita: { conversational: novitaConversational, "text-generation": novitaTextGeneration },
	nscale: { "text-to-image": nscaleTextToImage, conversational: nscaleConversational },
	openai: { conversational: openaiConversational },
	ovhcloud: { conversational: ovhcloudConversational, "text-generation": ovhcloudTextGeneration },
	replicate: {
		"text-to-image": replicateTextToImage,
		"text-to-speech": replicateTextToSpeech,
		"text-to-video": replicateTextToVideo,
	},
	sambanova: { conversational: sambanovaConversational, "feature-extraction": sambanovaFeatureExtraction },
	together: {
		"text-to-image": togetherTextToImage,
		conversational: togetherConversational,
		"text-generation": togetherTextGeneration,
	},
};

/** The helpers of one task across providers (plus the generic hf-inference helper when there is no task). */
export function helpersForTask(task: InferenceTask | undefined): HelperTable {
	const table: HelperTable = {};
	for (const [provider, tasks] of Object.entries(PROVIDER_REGISTRY) as Array<
		[InferenceProvider, Partial<Record<InferenceTask, TaskHelper>>]
	>) {
		const helper = task ? tasks[task] : provider === "hf-inference" ? hfInferenceGeneric : undefined;
		if (helper) table[provider] = helper;
	}
	return table;
}
