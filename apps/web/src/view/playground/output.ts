/**
 * How the playground shows a task function's answer, chosen by the function that answered (one view per
 * task function, typed by the client's own output types), never by guessing from the answer's shape.
 */
import type { TaskOutput } from "@modelhub/inference/catalog";
import { chartBars, type Bar } from "../demo";
import type { PlaygroundFunction } from "./plan";

export interface DetectedBox {
	label: string;
	score: number;
	xmin: number;
	ymin: number;
	xmax: number;
	ymax: number;
}

interface Entity {
	label: string;
	word: string;
	score: number;
	start: number;
	end: number;
}

export type RenderedOutput =
	| { kind: "labels"; bars: Bar[]; caption: string }
	| { kind: "boxes"; boxes: DetectedBox[]; image: Blob | undefined }
	| { kind: "entities"; text: string; entities: Entity[] }
	| { kind: "text"; text: string }
	/** A Blob, or the image's URL (`textToImage` answers one with `outputType: "url"`). */
	| { kind: "image"; image: Blob | string }
	| { kind: "audio"; blob: Blob }
	| { kind: "json"; json: string };

/** What the call was asked: the form's text and sentences, and the file sent. */
export interface OutputContext {
	text: string;
	sentences: readonly string[];
	file: Blob | undefined;
}

type OutputViews = {
	readonly [Name in PlaygroundFunction]: (output: TaskOutput<Name>, context: OutputContext) => RenderedOutput;
};

const scores = (output: Array<{ label: string; score: number }>): RenderedOutput => ({
	kind: "labels",
	bars: chartBars(output),
	caption: "Scores",
});
const text = (value: string): RenderedOutput => ({ kind: "text", text: value });
const json = (output: unknown): RenderedOutput => ({
	kind: "json",
	json: JSON.stringify(output, null, 2) ?? String(output),
});
const audio = (blob: Blob): RenderedOutput => ({ kind: "audio", blob });

/** One view per task function the playground calls (a new one fails to compile until it has its line). */
export const OUTPUT_VIEWS: OutputViews = {
	audioClassification: scores,
	automaticSpeechRecognition: (output) => text(output.text),
	textToAudio: audio,
	textToSpeech: audio,
	imageClassification: scores,
	// The segments' labels and scores; their masks are not drawn.
	imageSegmentation: scores,
	imageToText: (output) => text(output.generated_text),
	objectDetection: (output, { file }) => ({
		kind: "boxes",
		boxes: output.map(({ label, score, box }) => ({ label, score, ...box })),
		image: file,
	}),
	textToImage: (output) => ({ kind: "image", image: output }),
	zeroShotImageClassification: scores,
	featureExtraction: json,
	fillMask: (output) => scores(output.map(({ token_str, score }) => ({ label: token_str, score }))),
	questionAnswering: (output) => text(output.answer),
	// The scores are in the order of the sentences sent.
	sentenceSimilarity: (output, { sentences }) => ({
		kind: "labels",
		bars: chartBars(
			sentences
				.slice(0, output.length)
				.map((sentence, index) => ({ label: sentence, score: output[index] ?? 0 })),
		),
		caption: "Similarity to the source sentence",
	}),
	summarization: (output) => text(output.summary_text),
	textClassification: scores,
	textGeneration: (output) => text(output.generated_text),
	tokenClassification: (output, context) => ({
		kind: "entities",
		text: context.text,
		entities: output.map(({ entity_group, word, score, start, end }) => ({
			label: entity_group,
			word,
			score,
			start,
			end,
		})),
	}),
	translation: (output) =>
		text(
			Array.isArray(output)
				? output.map((item) => item.translation_text).join("\n")
				: output.translation_text,
		),
	// One sequence is sent, so the first answer holds its labels and their scores.
	zeroShotClassification: (output) =>
		scores(
			(output[0]?.labels ?? []).map((label, index) => ({ label, score: output[0]?.scores[index] ?? 0 })),
		),
};

/** How to show the answer `output` of task function `fn`. */
export function renderOutput<Name extends PlaygroundFunction>(
	fn: Name,
	output: TaskOutput<Name>,
	context: OutputContext,
): RenderedOutput {
	const view: OutputViews[Name] = OUTPUT_VIEWS[fn];
	return view(output, context);
}
