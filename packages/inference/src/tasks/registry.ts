/**
 * THE list of task functions, each declared once with what it is: its task id, whether it streams,
 * what its answer is and what its input is. Names and words only (no helper code), so that anything may
 * read it without pulling the providers into a bundle: the snippet generator (which client method
 * serves a pipeline, how a raw answer is read), the web app's playground (which form, which output),
 * and `prepareRequest` (a task id stands for its function).
 *
 * The rest is checked against it, at compile time and by test/task-registry.test.ts: the functions
 * object (`functions.ts`, the client's methods) has exactly these keys, each function's spec
 * (`specs.ts`) carries this task id and stream flag (typed `SpecOf<name>`), and the package exports
 * every one of them. Adding a task function: its module under tasks/, its line here, its spec, its key in
 * functions.ts and its `export *` in tasks/index.ts — a missing one fails to compile or fails that test.
 */
import type { InferenceTask } from "../types.js";

/**
 * What a call answers:
 * - `json`: a JSON value (labels, text, numbers…);
 * - `image` / `audio` / `video`: a Blob holding the file (textToImage: or its URL with `outputType: "url"`);
 * - `audio-clips`: JSON clips, each with its audio as base64 (audioToAudio);
 * - `stream`: an async iterator of JSON chunks (server-sent events);
 * - `raw`: whatever the server sends (`request` / `streamingRequest`).
 */
export type TaskAnswer = "json" | "image" | "audio" | "video" | "audio-clips" | "stream" | "raw";

/**
 * What a call takes besides the model and provider:
 * - `text`: `inputs` is a text; `messages`: a chat conversation;
 * - `question-context`, `text-labels` (candidate labels), `sentence-pair` (a source and sentences);
 * - `image` / `audio`: a file; `image-labels`: an image and candidate labels; `image-question`: an image
 *   and a question; `image-prompt`: an image and a text prompt (edits, videos from an image);
 * - `table`: rows of values; `table-question`: a table and a question; `any`: the request's own body.
 */
export type TaskInput =
	| "text"
	| "messages"
	| "question-context"
	| "text-labels"
	| "sentence-pair"
	| "image"
	| "audio"
	| "image-labels"
	| "image-question"
	| "image-prompt"
	| "table"
	| "table-question"
	| "any";

export interface TaskDeclaration {
	/** The task id the function routes (the providers' tables, the mapping's `task`); none for `request`. */
	readonly task: InferenceTask | undefined;
	readonly answer: TaskAnswer;
	readonly input: TaskInput;
	/** The streaming form of its task (`chatCompletionStream`, `textGenerationStream`). */
	readonly stream?: true;
	/** Pipelines besides its task id whose models this function serves (`text2text-generation`). */
	readonly alsoServes?: readonly string[];
}

export const TASK_REGISTRY = {
	audioClassification: { task: "audio-classification", answer: "json", input: "audio" },
	audioToAudio: { task: "audio-to-audio", answer: "audio-clips", input: "audio" },
	automaticSpeechRecognition: { task: "automatic-speech-recognition", answer: "json", input: "audio" },
	textToAudio: { task: "text-to-audio", answer: "audio", input: "text" },
	textToSpeech: { task: "text-to-speech", answer: "audio", input: "text" },
	request: { task: undefined, answer: "raw", input: "any" },
	streamingRequest: { task: undefined, answer: "raw", input: "any", stream: true },
	imageClassification: { task: "image-classification", answer: "json", input: "image" },
	imageSegmentation: { task: "image-segmentation", answer: "json", input: "image" },
	imageToImage: { task: "image-to-image", answer: "image", input: "image-prompt" },
	imageTextToImage: { task: "image-text-to-image", answer: "image", input: "image-prompt" },
	imageTextToVideo: { task: "image-text-to-video", answer: "video", input: "image-prompt" },
	imageToText: { task: "image-to-text", answer: "json", input: "image" },
	imageToVideo: { task: "image-to-video", answer: "video", input: "image-prompt" },
	objectDetection: { task: "object-detection", answer: "json", input: "image" },
	textToImage: { task: "text-to-image", answer: "image", input: "text" },
	textToVideo: { task: "text-to-video", answer: "video", input: "text" },
	zeroShotImageClassification: {
		task: "zero-shot-image-classification",
		answer: "json",
		input: "image-labels",
	},
	documentQuestionAnswering: { task: "document-question-answering", answer: "json", input: "image-question" },
	visualQuestionAnswering: { task: "visual-question-answering", answer: "json", input: "image-question" },
	chatCompletion: { task: "conversational", answer: "json", input: "messages" },
	chatCompletionStream: { task: "conversational", answer: "stream", input: "messages", stream: true },
	featureExtraction: { task: "feature-extraction", answer: "json", input: "text" },
	fillMask: { task: "fill-mask", answer: "json", input: "text" },
	questionAnswering: { task: "question-answering", answer: "json", input: "question-context" },
	sentenceSimilarity: { task: "sentence-similarity", answer: "json", input: "sentence-pair" },
	summarization: { task: "summarization", answer: "json", input: "text" },
	tableQuestionAnswering: { task: "table-question-answering", answer: "json", input: "table-question" },
	textClassification: { task: "text-classification", answer: "json", input: "text" },
	textGeneration: {
		task: "text-generation",
		answer: "json",
		input: "text",
		alsoServes: ["text2text-generation"],
	},
	textGenerationStream: { task: "text-generation", answer: "stream", input: "text", stream: true },
	tokenClassification: { task: "token-classification", answer: "json", input: "text" },
	translation: { task: "translation", answer: "json", input: "text" },
	zeroShotClassification: { task: "zero-shot-classification", answer: "json", input: "text-labels" },
	tabularClassification: { task: "tabular-classification", answer: "json", input: "table" },
	tabularRegression: { task: "tabular-regression", answer: "json", input: "table" },
} as const satisfies Readonly<Record<string, TaskDeclaration>>;

export type TaskRegistry = typeof TASK_REGISTRY;
/** The name of a task function (and of the client's method). */
export type TaskFunctionName = keyof TaskRegistry;

/** The declaration of `name`, or undefined when it is no task function. */
export function taskDeclaration(name: string): TaskDeclaration | undefined {
	return Object.hasOwn(TASK_REGISTRY, name) ? TASK_REGISTRY[name as TaskFunctionName] : undefined;
}

/** Pipeline → its task function, built from the registry on first use (the snippet generator asks per call). */
let functionsByPipeline: ReadonlyMap<string, TaskFunctionName> | undefined;

/**
 * The task function a model of `pipeline` is called with: the one-shot (not streaming, not raw)
 * function of that task, or of a pipeline it also serves (the first in registry order). Chat goes
 * through `chatCompletion` by the model's `conversational` tag, not by a pipeline, so "conversational"
 * has none here.
 */
export function functionForPipeline(pipeline: string): TaskFunctionName | undefined {
	if (!functionsByPipeline) {
		const byPipeline = new Map<string, TaskFunctionName>();
		for (const [name, declaration] of Object.entries(TASK_REGISTRY) as Array<
			[TaskFunctionName, TaskDeclaration]
		>) {
			if (declaration.stream || declaration.answer === "raw" || declaration.task === "conversational")
				continue;
			for (const served of [declaration.task, ...(declaration.alsoServes ?? [])]) {
				if (served !== undefined && !byPipeline.has(served)) byPipeline.set(served, name);
			}
		}
		functionsByPipeline = byPipeline;
	}
	return functionsByPipeline.get(pipeline);
}
