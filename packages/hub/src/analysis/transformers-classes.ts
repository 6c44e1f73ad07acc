import type { PipelineType } from "@modelhub/tasks";

/**
 * Which transformers auto class loads a model, and the task the public hub files it under
 * (`transformersInfo.auto_model` / `.pipeline_tag`).
 *
 * Facts: the auto-class families and their members are transformers 5.18's
 * `models/auto/modeling_auto.py` (`MODEL_FOR_*_MAPPING_NAMES`); the task of each family is what the
 * public hub shows in `transformersInfo` for models of that family (e.g. google-bert/bert-base-uncased:
 * AutoModelForMaskedLM / fill-mask, openai-community/gpt2: AutoModelForCausalLM / text-generation,
 * sentence-transformers/all-MiniLM-L6-v2 (BertModel): AutoModel / feature-extraction, as recorded
 * in the seed catalogue).
 */
export interface AutoClassFacts {
	autoModel: string;
	/** Absent for families the public hub files under no task (multiple choice, pre-training, …). */
	pipelineTag?: PipelineType;
}

/** Architecture class-name suffixes, longest first: a class name ending with one belongs to the family. */
export const ARCHITECTURE_SUFFIXES: readonly (readonly [suffix: string, facts: AutoClassFacts])[] = [
	[
		"ForSequenceClassification",
		{ autoModel: "AutoModelForSequenceClassification", pipelineTag: "text-classification" },
	],
	[
		"ForTokenClassification",
		{ autoModel: "AutoModelForTokenClassification", pipelineTag: "token-classification" },
	],
	["ForQuestionAnswering", { autoModel: "AutoModelForQuestionAnswering", pipelineTag: "question-answering" }],
	[
		"ForTableQuestionAnswering",
		{ autoModel: "AutoModelForTableQuestionAnswering", pipelineTag: "table-question-answering" },
	],
	[
		"ForDocumentQuestionAnswering",
		{ autoModel: "AutoModelForDocumentQuestionAnswering", pipelineTag: "document-question-answering" },
	],
	[
		"ForVisualQuestionAnswering",
		{ autoModel: "AutoModelForVisualQuestionAnswering", pipelineTag: "visual-question-answering" },
	],
	["ForCausalLM", { autoModel: "AutoModelForCausalLM", pipelineTag: "text-generation" }],
	["LMHeadModel", { autoModel: "AutoModelForCausalLM", pipelineTag: "text-generation" }],
	["ModelWithLMHead", { autoModel: "AutoModelForCausalLM", pipelineTag: "text-generation" }],
	["ForMaskedLM", { autoModel: "AutoModelForMaskedLM", pipelineTag: "fill-mask" }],
	[
		"ForSpeechSeq2Seq",
		{ autoModel: "AutoModelForSpeechSeq2Seq", pipelineTag: "automatic-speech-recognition" },
	],
	["ForCTC", { autoModel: "AutoModelForCTC", pipelineTag: "automatic-speech-recognition" }],
	[
		"ForAudioClassification",
		{ autoModel: "AutoModelForAudioClassification", pipelineTag: "audio-classification" },
	],
	["ForAudioFrameClassification", { autoModel: "AutoModelForAudioFrameClassification" }],
	["ForXVector", { autoModel: "AutoModelForAudioXVector" }],
	[
		"ForImageClassification",
		{ autoModel: "AutoModelForImageClassification", pipelineTag: "image-classification" },
	],
	[
		"ForImageClassificationWithTeacher",
		{ autoModel: "AutoModelForImageClassification", pipelineTag: "image-classification" },
	],
	[
		"ForVideoClassification",
		{ autoModel: "AutoModelForVideoClassification", pipelineTag: "video-classification" },
	],
	["ForObjectDetection", { autoModel: "AutoModelForObjectDetection", pipelineTag: "object-detection" }],
	[
		"ForSemanticSegmentation",
		{ autoModel: "AutoModelForSemanticSegmentation", pipelineTag: "image-segmentation" },
	],
	[
		"ForInstanceSegmentation",
		{ autoModel: "AutoModelForInstanceSegmentation", pipelineTag: "image-segmentation" },
	],
	[
		"ForUniversalSegmentation",
		{ autoModel: "AutoModelForUniversalSegmentation", pipelineTag: "image-segmentation" },
	],
	["ForImageSegmentation", { autoModel: "AutoModelForImageSegmentation", pipelineTag: "image-segmentation" }],
	["ForDepthEstimation", { autoModel: "AutoModelForDepthEstimation", pipelineTag: "depth-estimation" }],
	["ForImageTextToText", { autoModel: "AutoModelForImageTextToText", pipelineTag: "image-text-to-text" }],
	["ForMaskGeneration", { autoModel: "AutoModelForMaskGeneration", pipelineTag: "mask-generation" }],
	["ForKeypointDetection", { autoModel: "AutoModelForKeypointDetection", pipelineTag: "keypoint-detection" }],
	["ForImageToImage", { autoModel: "AutoModelForImageToImage", pipelineTag: "image-to-image" }],
	["ForTextToSpeech", { autoModel: "AutoModelForTextToSpectrogram", pipelineTag: "text-to-speech" }],
	["ForTextToWaveform", { autoModel: "AutoModelForTextToWaveform", pipelineTag: "text-to-audio" }],
	[
		"ForZeroShotImageClassification",
		{ autoModel: "AutoModelForZeroShotImageClassification", pipelineTag: "zero-shot-image-classification" },
	],
	[
		"ForZeroShotObjectDetection",
		{ autoModel: "AutoModelForZeroShotObjectDetection", pipelineTag: "zero-shot-object-detection" },
	],
	["ForMultipleChoice", { autoModel: "AutoModelForMultipleChoice" }],
	["ForNextSentencePrediction", { autoModel: "AutoModelForNextSentencePrediction" }],
	["ForPreTraining", { autoModel: "AutoModelForPreTraining" }],
	["ForMaskedImageModeling", { autoModel: "AutoModelForMaskedImageModeling" }],
	// A bare encoder (BertModel, MPNetModel, …): AutoModel, filed under feature extraction.
	["Model", { autoModel: "AutoModel", pipelineTag: "feature-extraction" }],
];

/** The task of each auto class that `*ForConditionalGeneration` architectures belong to. */
export const CONDITIONAL_GENERATION_FAMILIES: Readonly<Record<string, AutoClassFacts>> = {
	AutoModelForSpeechSeq2Seq: {
		autoModel: "AutoModelForSpeechSeq2Seq",
		pipelineTag: "automatic-speech-recognition",
	},
	AutoModelForTextToWaveform: { autoModel: "AutoModelForTextToWaveform", pipelineTag: "text-to-audio" },
	AutoModelForImageTextToText: {
		autoModel: "AutoModelForImageTextToText",
		pipelineTag: "image-text-to-text",
	},
	AutoModelForSeq2SeqLM: { autoModel: "AutoModelForSeq2SeqLM", pipelineTag: "text2text-generation" },
};

/**
 * `*ForConditionalGeneration` is no family of its own: transformers 5.18 files each such class under
 * one or more auto classes. The prefix (class name without `ForConditionalGeneration`) of each, under
 * the first family it belongs to in this order: speech seq2seq, text-to-waveform, image-text-to-text,
 * seq2seq LM (so Gemma3, both causal LM and image-text-to-text, is image-text-to-text, as on the public hub).
 * Unknown prefixes fall back to AutoModelForSeq2SeqLM, the family of the classic encoder-decoders.
 */
export const CONDITIONAL_GENERATION_PREFIXES: Readonly<Record<string, readonly string[]>> = {
	AutoModelForSpeechSeq2Seq: [
		"Canary",
		"CohereAsr",
		"Dia",
		"FunAsrNano",
		"GraniteSpeech",
		"GraniteSpeechPlus",
		"KyutaiSpeechToText",
		"Moonshine",
		"MoonshineStreaming",
		"Pop2Piano",
		"Qwen3ASR",
		"Speech2Text",
		"VibeVoiceAsr",
		"VibeVoice",
		"Voxtral",
		"VoxtralRealtime",
		"Whisper",
	],
	AutoModelForTextToWaveform: [
		"Csm",
		"HiggsAudioV2",
		"Musicgen",
		"MusicgenMelody",
		"Qwen2_5Omni",
		"Qwen3OmniMoe",
	],
	AutoModelForImageTextToText: [
		"Aria",
		"AyaVision",
		"Blip2",
		"Blip",
		"Chameleon",
		"Cohere2Vision",
		"CohereCompass",
		"Cosmos3Edge",
		"Cosmos3Omni",
		"DeepseekOcr2",
		"DeepseekVL",
		"DeepseekVLHybrid",
		"Emu3",
		"Ernie4_5_VLMoe",
		"Exaone4_5_",
		"FastVlm",
		"Florence2",
		"Gemma3",
		"Gemma3n",
		"Gemma4",
		"Gemma4Unified",
		"Glm46V",
		"Glm4v",
		"Glm4vMoe",
		"Glm5Next",
		"GlmOcr",
		"GotOcr2",
		"Granite4Vision",
		"HunYuanVL",
		"HyperCLOVAXVisionV2",
		"Idefics2",
		"Idefics3",
		"Inkling",
		"InstructBlip",
		"InstructBlipVideo",
		"InternVL",
		"Janus",
		"Kimi_K25",
		"Kosmos2",
		"Kosmos2_5",
		"Lfm2Vl",
		"LightOnOcr",
		"Llama4",
		"Llava",
		"LlavaNext",
		"LlavaNextVideo",
		"LlavaOnevision",
		"MiniCPMV4_6",
		"MiniCPMV4_7",
		"MiniMaxM3Sparse",
		"Mistral3",
		"Mllama",
		"MuseGlimmer",
		"Ovis2",
		"PI0",
		"PPFormulaNet",
		"PaddleOCRVL",
		"PaliGemma",
		"PerceptionLM",
		"Pix2Struct",
		"QianfanOCR",
		"Qwen2VL",
		"Qwen2_5OmniThinker",
		"Qwen2_5_VL",
		"Qwen3OmniMoeThinker",
		"Qwen3VL",
		"Qwen3VLMoe",
		"Qwen3_5",
		"Qwen3_5Moe",
		"Qwen4Exp",
		"SmolVLM",
		"Step3p7",
		"T5Gemma2",
		"Udop",
		"VideoLlama3",
		"VideoLlava",
		"VipLlava",
	],
	AutoModelForSeq2SeqLM: [
		"AudioFlamingo3",
		"Bart",
		"BigBirdPegasus",
		"Blenderbot",
		"BlenderbotSmall",
		"FSMT",
		"GlmAsr",
		"LED",
		"LongT5",
		"M2M100",
		"MBart",
		"MT5",
		"MusicFlamingo",
		"Mvp",
		"NllbMoe",
		"PLBart",
		"Pegasus",
		"PegasusX",
		"ProphetNet",
		"Qwen2Audio",
		"SwitchTransformers",
		"T5",
		"T5Gemma",
		"UMT5",
	],
};
