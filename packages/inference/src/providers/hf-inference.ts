import { InferenceOutputError } from "../core/errors.js";
import { base64ToJpegBlob, blobToBase64 } from "../internal/base64.js";
import { downloadBlob } from "../internal/http.js";
import { joinUrl } from "../internal/url.js";
import type { BodyParams, ChatCompletionOutput, TextGenerationOutput, UrlParams } from "../types.js";
import type { AudioClassificationOutput } from "../tasks/audio/audioClassification.js";
import type { AudioToAudioOutput } from "../tasks/audio/audioToAudio.js";
import type { AutomaticSpeechRecognitionOutput } from "../tasks/audio/automaticSpeechRecognition.js";
import type { ImageClassificationOutput } from "../tasks/cv/imageClassification.js";
import type { ImageSegmentationOutput } from "../tasks/cv/imageSegmentation.js";
import type { ImageToTextOutput } from "../tasks/cv/imageToText.js";
import type { ObjectDetectionOutput } from "../tasks/cv/objectDetection.js";
import type { ZeroShotImageClassificationOutput } from "../tasks/cv/zeroShotImageClassification.js";
import type { DocumentQuestionAnsweringOutput } from "../tasks/multimodal/documentQuestionAnswering.js";
import type { VisualQuestionAnsweringOutput } from "../tasks/multimodal/visualQuestionAnswering.js";
import type { FeatureExtractionOutput } from "../tasks/nlp/featureExtraction.js";
import type { FillMaskOutput } from "../tasks/nlp/fillMask.js";
import type { QuestionAnsweringOutput } from "../tasks/nlp/questionAnswering.js";
import type { SentenceSimilarityOutput } from "../tasks/nlp/sentenceSimilarity.js";
import type { SummarizationOutput } from "../tasks/nlp/summarization.js";
import type { TableQuestionAnsweringOutput } from "../tasks/nlp/tableQuestionAnswering.js";
import type { TextClassificationOutput } from "../tasks/nlp/textClassification.js";
import type { TokenClassificationOutput } from "../tasks/nlp/tokenClassification.js";
import type { TranslationOutput } from "../tasks/nlp/translation.js";
import type { ZeroShotClassificationOutput } from "../tasks/nlp/zeroShotClassification.js";
import type { TabularClassificationOutput } from "../tasks/tabular/tabularClassification.js";
import { checkTranscription, isArrayOf, isLabelScore, isNumber, isRecord, isString } from "./checks.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

/** Served by the router only: provider keys also go to {router}/hf-inference. */
export const hfInference: ProviderDefinition = {
	id: "hf-inference",
	baseUrl: "https://router.huggingface.co/hf-inference",
	alwaysRouted: true,
};

const isHttpUrl = (value: string) => value.startsWith("http://") || value.startsWith("https://");

const modelRoute = ({ model }: UrlParams) => `models/${model}`;
const pipelineRoute = ({ model, task }: UrlParams) => `models/${model}/pipeline/${task}`;
/** An endpoint URL (the "model" of endpoint calls) is the request URL as given. */
const modelUrl = (params: UrlParams) =>
	isHttpUrl(params.model) ? params.model : joinUrl(params.baseUrl, modelRoute(params));
const pipelineUrl = (params: UrlParams) =>
	isHttpUrl(params.model) ? params.model : joinUrl(params.baseUrl, pipelineRoute(params));
const argsBody = ({ args }: BodyParams) => args;
// The shared fields are written out in each helper: object spreads would keep every helper in a bundle.

function fail(message: string): never {
	throw new InferenceOutputError(message);
}

/** request() without a task: models/{id}, body as given, response untouched. */
export const hfInferenceGeneric: TaskHelper = {
	provider: hfInference,
	task: undefined,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	getResponse: (raw) => raw,
};

export const hfInferenceTextToImage: TaskHelper<Blob | string> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "text-to-image",
	getResponse: async (raw, { ctx, outputType }) => {
		if (!raw) fail("response is undefined");
		if (isRecord(raw) && !(raw instanceof Blob)) {
			const first = Array.isArray(raw.data) ? (raw.data[0] as unknown) : undefined;
			if (isRecord(first) && first.b64_json) {
				const b64 = String(first.b64_json);
				return outputType === "url" ? `data:image/jpeg;base64,${b64}` : base64ToJpegBlob(b64);
			}
			if (Array.isArray(raw.output)) {
				const url = String(raw.output[0]);
				return outputType === "url" ? url : await downloadBlob(url, ctx);
			}
		}
		if (raw instanceof Blob) {
			return outputType === "url" ? `data:image/jpeg;base64,${await blobToBase64(raw)}` : raw;
		}
		// The trailing space is part of 3.12.1's message.
		fail("Expected a Blob ");
	},
};

/** Chat URL: trailing slashes trimmed, then `/chat/completions` after `/v1`, else `/v1/chat/completions`. */
function chatUrl(params: UrlParams): string {
	const base = (
		isHttpUrl(params.model) ? params.model.trim() : joinUrl(params.baseUrl, modelRoute(params))
	).replace(/\/+$/, "");
	if (base.endsWith("/v1")) return `${base}/chat/completions`;
	if (base.endsWith("/chat/completions")) return base;
	return `${base}/v1/chat/completions`;
}

export const hfInferenceConversational: TaskHelper<ChatCompletionOutput> = {
	provider: hfInference,
	task: "conversational",
	makeRoute: (params) => `${modelRoute(params)}/v1/chat/completions`,
	makeUrl: chatUrl,
	makeBody: ({ args, model }) => ({ ...args, model }),
	getResponse: (raw) => raw as ChatCompletionOutput,
};

export const hfInferenceTextGeneration: TaskHelper<TextGenerationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "text-generation",
	getResponse: (raw) => {
		const list = Array.isArray(raw) ? raw : [raw];
		if (list.every((item) => isRecord(item) && isString(item.generated_text)))
			return list[0] as TextGenerationOutput;
		fail("Expected Array<{generated_text: string}>");
	},
};

export const hfInferenceTextClassification: TaskHelper<TextClassificationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "text-classification",
	getResponse: (raw) => {
		const inner = Array.isArray(raw) ? (raw[0] as unknown) : undefined;
		if (isArrayOf(inner, isLabelScore)) return inner as TextClassificationOutput;
		fail("Expected Array<{label: string, score: number}>");
	},
};

const isSpanAnswer = (item: unknown) =>
	isRecord(item) &&
	isString(item.answer) &&
	isNumber(item.end) &&
	isNumber(item.score) &&
	isNumber(item.start);

export const hfInferenceQuestionAnswering: TaskHelper<QuestionAnsweringOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "question-answering",
	getResponse: (raw) => {
		if (Array.isArray(raw) ? raw.every(isSpanAnswer) : isSpanAnswer(raw)) {
			return (Array.isArray(raw) ? raw[0] : raw) as QuestionAnsweringOutput;
		}
		fail("Expected Array<{answer: string, end: number, score: number, start: number}>");
	},
};

export const hfInferenceAudioClassification: TaskHelper<AudioClassificationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "audio-classification",
	getResponse: (raw) => {
		if (isArrayOf(raw, isLabelScore)) return raw as AudioClassificationOutput;
		fail("Expected Array<{label: string, score: number}> but received different format");
	},
};

export const hfInferenceAutomaticSpeechRecognition: TaskHelper<AutomaticSpeechRecognitionOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "automatic-speech-recognition",
	getResponse: (raw) => {
		checkTranscription(raw);
		return raw as AutomaticSpeechRecognitionOutput;
	},
};

export const hfInferenceFillMask: TaskHelper<FillMaskOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "fill-mask",
	getResponse: (raw) => {
		const valid = (item: unknown) =>
			isRecord(item) &&
			isNumber(item.score) &&
			isString(item.sequence) &&
			isNumber(item.token) &&
			isString(item.token_str);
		if (isArrayOf(raw, valid)) return raw as FillMaskOutput;
		fail("Expected Array<{score: number, sequence: string, token: number, token_str: string}>");
	},
};

/** Nested number arrays, at most three levels below the top; all elements of one level alike. */
function isNumberTensor(value: unknown[], depth: number): boolean {
	if (depth > 3) return false;
	if (value.every(Array.isArray)) return value.every((item) => isNumberTensor(item as unknown[], depth + 1));
	return value.every(isNumber);
}

export const hfInferenceFeatureExtraction: TaskHelper<FeatureExtractionOutput> = {
	provider: hfInference,
	makeRoute: pipelineRoute,
	makeUrl: pipelineUrl,
	makeBody: argsBody,
	task: "feature-extraction",
	getResponse: (raw) => {
		if (Array.isArray(raw) && isNumberTensor(raw, 0)) return raw as FeatureExtractionOutput;
		fail("Expected Array<number[][][] | number[][] | number[] | number>");
	},
};

export const hfInferenceImageClassification: TaskHelper<ImageClassificationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "image-classification",
	getResponse: (raw) => {
		if (isArrayOf(raw, isLabelScore)) return raw as ImageClassificationOutput;
		fail("Expected Array<{label: string, score: number}>");
	},
};

export const hfInferenceImageSegmentation: TaskHelper<ImageSegmentationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "image-segmentation",
	getResponse: (raw) => {
		const valid = (item: unknown) =>
			isRecord(item) && isString(item.label) && isString(item.mask) && isNumber(item.score);
		if (isArrayOf(raw, valid)) return raw as ImageSegmentationOutput;
		fail("Expected Array<{label: string, mask: string, score: number}>");
	},
};

const isOptionalNumber = (value: unknown) => value === undefined || isNumber(value);

export const hfInferenceDocumentQuestionAnswering: TaskHelper<DocumentQuestionAnsweringOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "document-question-answering",
	getResponse: (raw) => {
		const valid = (item: unknown) =>
			isRecord(item) &&
			isString(item.answer) &&
			isOptionalNumber(item.end) &&
			isOptionalNumber(item.score) &&
			isOptionalNumber(item.start);
		if (isArrayOf(raw, valid)) return raw[0] as DocumentQuestionAnsweringOutput;
		fail("Expected Array<{answer: string, end: number, score: number, start: number}>");
	},
};

export const hfInferenceImageToText: TaskHelper<ImageToTextOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "image-to-text",
	getResponse: (raw) => {
		const first = Array.isArray(raw) ? (raw[0] as unknown) : undefined;
		if (isRecord(first) && isString(first.generated_text)) return first as ImageToTextOutput;
		fail("Expected {generated_text: string}");
	},
};

export const hfInferenceObjectDetection: TaskHelper<ObjectDetectionOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "object-detection",
	getResponse: (raw) => {
		const isBox = (box: unknown) =>
			isRecord(box) && isNumber(box.xmin) && isNumber(box.ymin) && isNumber(box.xmax) && isNumber(box.ymax);
		const valid = (item: unknown) => isLabelScore(item) && isBox((item as { box?: unknown }).box);
		if (isArrayOf(raw, valid)) return raw as ObjectDetectionOutput;
		fail(
			"Expected Array<{label: string, score: number, box: {xmin: number, ymin: number, xmax: number, ymax: number}}>",
		);
	},
};

export const hfInferenceAudioToAudio: TaskHelper<AudioToAudioOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "audio-to-audio",
	getResponse: (raw) => {
		if (!Array.isArray(raw)) fail("Expected Array");
		const valid = (item: unknown) =>
			isRecord(item) && isString(item.label) && isString(item["content-type"]) && isString(item.blob);
		if (raw.every(valid)) return raw as AudioToAudioOutput;
		fail("Expected Array<{label: string, audio: Blob}>");
	},
};

export const hfInferenceZeroShotImageClassification: TaskHelper<ZeroShotImageClassificationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "zero-shot-image-classification",
	getResponse: (raw) => {
		if (isArrayOf(raw, isLabelScore)) return raw as ZeroShotImageClassificationOutput;
		fail("Expected Array<{label: string, score: number}>");
	},
};

export const hfInferenceZeroShotClassification: TaskHelper<ZeroShotClassificationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "zero-shot-classification",
	getResponse: (raw) => {
		const valid = (item: unknown) =>
			isRecord(item) &&
			isArrayOf(item.labels, isString) &&
			isArrayOf(item.scores, isNumber) &&
			isString(item.sequence);
		if (isArrayOf(raw, valid)) return raw as ZeroShotClassificationOutput;
		fail("Expected Array<{labels: string[], scores: number[], sequence: string}>");
	},
};

export const hfInferenceImageToImage: TaskHelper<Blob> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "image-to-image",
	getResponse: (raw) => {
		if (raw instanceof Blob) return raw;
		fail("Expected Blob");
	},
};

const isNumberArray = (raw: unknown): raw is number[] => isArrayOf(raw, isNumber);

export const hfInferenceSentenceSimilarity: TaskHelper<SentenceSimilarityOutput> = {
	provider: hfInference,
	makeRoute: pipelineRoute,
	makeUrl: pipelineUrl,
	makeBody: argsBody,
	task: "sentence-similarity",
	getResponse: (raw) => (isNumberArray(raw) ? raw : fail("Expected Array<number>")),
};

export const hfInferenceTableQuestionAnswering: TaskHelper<TableQuestionAnsweringOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "table-question-answering",
	getResponse: (raw) => {
		const valid = (item: unknown) =>
			isRecord(item) &&
			isString(item.aggregator) &&
			isString(item.answer) &&
			isArrayOf(item.cells, isString) &&
			isArrayOf(item.coordinates, isNumberArray);
		if (Array.isArray(raw) ? raw.every(valid) : valid(raw)) {
			return (Array.isArray(raw) ? raw[0] : raw) as TableQuestionAnsweringOutput;
		}
		fail("Expected {aggregator: string, answer: string, cells: string[], coordinates: number[][]}");
	},
};

export const hfInferenceTabularClassification: TaskHelper<TabularClassificationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "tabular-classification",
	getResponse: (raw) => (isNumberArray(raw) ? raw : fail("Expected Array<number>")),
};

export const hfInferenceTextToSpeech: TaskHelper<Blob> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "text-to-speech",
	getResponse: (raw) => raw as Blob,
};

export const hfInferenceTokenClassification: TaskHelper<TokenClassificationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "token-classification",
	getResponse: (raw) => {
		const valid = (item: unknown) =>
			isRecord(item) &&
			isNumber(item.end) &&
			isString(item.entity_group) &&
			isNumber(item.score) &&
			isNumber(item.start) &&
			isString(item.word);
		if (isArrayOf(raw, valid)) return raw as TokenClassificationOutput;
		fail("Expected Array<{end: number, entity_group: string, score: number, start: number, word: string}>");
	},
};

export const hfInferenceTranslation: TaskHelper<TranslationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "translation",
	getResponse: (raw) => {
		if (isArrayOf(raw, (item) => isRecord(item) && isString(item.translation_text))) {
			return (raw.length === 1 ? raw[0] : raw) as TranslationOutput;
		}
		fail("Expected Array<{translation_text: string}>");
	},
};

export const hfInferenceSummarization: TaskHelper<SummarizationOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "summarization",
	getResponse: (raw) => {
		if (isArrayOf(raw, (item) => isRecord(item) && isString(item.summary_text)))
			return raw[0] as SummarizationOutput;
		fail("Expected Array<{summary_text: string}>");
	},
};

export const hfInferenceVisualQuestionAnswering: TaskHelper<VisualQuestionAnsweringOutput> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "visual-question-answering",
	getResponse: (raw) => {
		if (isArrayOf(raw, (item) => isRecord(item) && isString(item.answer) && isNumber(item.score))) {
			return raw[0] as VisualQuestionAnsweringOutput;
		}
		fail("Expected Array<{answer: string, score: number}>");
	},
};

export const hfInferenceTabularRegression: TaskHelper<number[]> = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "tabular-regression",
	getResponse: (raw) => (isNumberArray(raw) ? raw : fail("Expected Array<number>")),
};

/** Reachable through request(args, { task: "text-to-audio" }) only; the raw answer is returned. */
export const hfInferenceTextToAudio: TaskHelper = {
	provider: hfInference,
	makeRoute: modelRoute,
	makeUrl: modelUrl,
	makeBody: argsBody,
	task: "text-to-audio",
	getResponse: (raw) => raw,
};
