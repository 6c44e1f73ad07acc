import {
	isPipelineType,
	LIBRARY_TASK_MAPPING,
	type PipelineType,
	type TransformersInfo,
} from "@modelhub/tasks";
import { diffusersTaskOf } from "./diffusers.js";
import { isRecord, stringOf } from "./json.js";
import type { RevisionSnapshot } from "./snapshot.js";

/**
 * peft `task_type` → the task of the base model's head (peft 0.21 `TaskType`: SEQ_CLS, SEQ_2_SEQ_LM,
 * CAUSAL_LM, TOKEN_CLS, QUESTION_ANS, FEATURE_EXTRACTION).
 */
export const PEFT_TASKS: Readonly<Record<string, PipelineType>> = {
	CAUSAL_LM: "text-generation",
	SEQ_2_SEQ_LM: "text2text-generation",
	SEQ_CLS: "text-classification",
	TOKEN_CLS: "token-classification",
	QUESTION_ANS: "question-answering",
	FEATURE_EXTRACTION: "feature-extraction",
};

/**
 * speechbrain pretrained interface → task (seed catalogue: EncoderClassifier → audio-classification,
 * EncoderASR / EncoderDecoderASR → automatic-speech-recognition, SepformerSeparation /
 * SpectralMaskEnhancement → audio-to-audio).
 */
export const SPEECHBRAIN_TASKS: Readonly<Record<string, PipelineType>> = {
	EncoderClassifier: "audio-classification",
	SpeakerRecognition: "audio-classification",
	EncoderASR: "automatic-speech-recognition",
	EncoderDecoderASR: "automatic-speech-recognition",
	WhisperASR: "automatic-speech-recognition",
	SepformerSeparation: "audio-to-audio",
	SpectralMaskEnhancement: "audio-to-audio",
	WaveformEnhancement: "audio-to-audio",
	Tacotron2: "text-to-speech",
	FastSpeech2: "text-to-speech",
	HIFIGAN: "text-to-speech",
};

/**
 * The task a repository's files say, when its card does not: the library's own notion first (a
 * sentence-transformers model is for sentence similarity even though its transformers config is a
 * bare encoder: public hub, all-MiniLM-L6-v2; a cross-encoder, a sequence classifier, is for text
 * ranking: ms-marco-MiniLM-L6-v2), then the transformers architecture, then the library's only task
 * in the catalogue's library→task mapping.
 */
export function derivePipelineTag(
	snapshot: RevisionSnapshot,
	library: string | undefined,
	transformersInfo: TransformersInfo | undefined,
): PipelineType | undefined {
	const config = snapshot.json["config.json"];
	switch (library) {
		case "sentence-transformers":
			return transformersInfo?.auto_model === "AutoModelForSequenceClassification"
				? "text-ranking"
				: "sentence-similarity";
		case "diffusers": {
			const className = stringOf(snapshot.json["model_index.json"]?._class_name);
			return className ? diffusersTaskOf(className) : undefined;
		}
		case "peft": {
			const taskType = stringOf(snapshot.json["adapter_config.json"]?.task_type);
			return taskType && Object.hasOwn(PEFT_TASKS, taskType) ? PEFT_TASKS[taskType] : undefined;
		}
		case "sklearn": {
			const task = isRecord(config?.sklearn) ? config.sklearn.task : undefined;
			return isPipelineType(task) ? task : undefined;
		}
		case "speechbrain": {
			const speechbrain = isRecord(config?.speechbrain) ? config.speechbrain : config;
			const name = stringOf(speechbrain?.speechbrain_interface);
			return name && Object.hasOwn(SPEECHBRAIN_TASKS, name) ? SPEECHBRAIN_TASKS[name] : undefined;
		}
		case "timm":
			// A headless timm model (num_classes 0) is a feature extractor (public hub:
			// timm/vit_large_patch14_dinov2.lvd142m, image-feature-extraction).
			return config?.num_classes === 0 ? "image-feature-extraction" : "image-classification";
		case "open_clip":
			return "zero-shot-image-classification";
		case "transformers":
			return transformersInfo?.pipeline_tag;
		case undefined:
			return undefined;
		default: {
			const tasks = (LIBRARY_TASK_MAPPING as Readonly<Record<string, readonly PipelineType[]>>)[library];
			return tasks?.length === 1 ? tasks[0] : undefined;
		}
	}
}
