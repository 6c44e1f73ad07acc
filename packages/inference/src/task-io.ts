/**
 * The output types of the task functions, in one place so that provider helpers can name them
 * without importing the task modules (which import the helpers).
 */

export type AudioClassificationOutput = Array<{ label: string; score: number }>;

export interface AudioToAudioOutputElem {
	label: string;
	"content-type": string;
	/** Base64 of the audio. */
	blob: string;
}

export type AudioToAudioOutput = AudioToAudioOutputElem[];

export interface AutomaticSpeechRecognitionOutput {
	text: string;
	chunks?: Array<{ text: string; timestamp: number[] }>;
}

export type ImageClassificationOutput = Array<{ label: string; score: number }>;

export type ImageSegmentationOutput = Array<{ label: string; mask: string; score: number }>;

export type ImageToTextOutput = { generated_text: string };

export type ObjectDetectionOutput = Array<{
	label: string;
	score: number;
	box: { xmin: number; ymin: number; xmax: number; ymax: number };
}>;

export type TextToVideoOutput = Blob;

export type ZeroShotImageClassificationOutput = Array<{ label: string; score: number }>;

export interface DocumentQuestionAnsweringOutput {
	answer: string;
	score?: number;
	start?: number;
	end?: number;
}

export interface VisualQuestionAnsweringOutput {
	answer: string;
	score: number;
}

export type FeatureExtractionOutput = (number | number[] | number[][])[];

export type FillMaskOutput = Array<{ score: number; sequence: string; token: number; token_str: string }>;

export type QuestionAnsweringOutput = { answer: string; score: number; start: number; end: number };

export type SentenceSimilarityOutput = number[];

export type SummarizationOutput = { summary_text: string };

export type TableQuestionAnsweringOutput = {
	answer: string;
	coordinates: number[][];
	cells: string[];
	aggregator: string;
};

export type TextClassificationOutput = Array<{ label: string; score: number }>;

export type TokenClassificationOutput = Array<{
	entity_group: string;
	score: number;
	word: string;
	start: number;
	end: number;
}>;

export type TranslationOutput = { translation_text: string } | Array<{ translation_text: string }>;

export type ZeroShotClassificationOutput = Array<{ sequence: string; labels: string[]; scores: number[] }>;

export type TabularClassificationOutput = number[];

export type TabularRegressionOutput = number[];
