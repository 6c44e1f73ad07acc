import { audioClassification } from "./tasks/audio/audioClassification.js";
import { audioToAudio } from "./tasks/audio/audioToAudio.js";
import { automaticSpeechRecognition } from "./tasks/audio/automaticSpeechRecognition.js";
import { textToAudio } from "./tasks/audio/textToAudio.js";
import { textToSpeech } from "./tasks/audio/textToSpeech.js";
import {
	prepareRequest,
	prepareRequestSync,
	type PrepareRequestOptions,
	type PreparedInferenceRequest,
} from "./tasks/custom/prepareRequest.js";
import { request } from "./tasks/custom/request.js";
import { streamingRequest } from "./tasks/custom/streamingRequest.js";
import { imageClassification } from "./tasks/cv/imageClassification.js";
import { imageSegmentation } from "./tasks/cv/imageSegmentation.js";
import { imageToImage } from "./tasks/cv/imageToImage.js";
import { imageTextToImage } from "./tasks/cv/imageTextToImage.js";
import { imageTextToVideo } from "./tasks/cv/imageTextToVideo.js";
import { imageToText } from "./tasks/cv/imageToText.js";
import { imageToVideo } from "./tasks/cv/imageToVideo.js";
import { objectDetection } from "./tasks/cv/objectDetection.js";
import { textToImage } from "./tasks/cv/textToImage.js";
import { textToVideo } from "./tasks/cv/textToVideo.js";
import { zeroShotImageClassification } from "./tasks/cv/zeroShotImageClassification.js";
import { documentQuestionAnswering } from "./tasks/multimodal/documentQuestionAnswering.js";
import { visualQuestionAnswering } from "./tasks/multimodal/visualQuestionAnswering.js";
import { chatCompletion } from "./tasks/nlp/chatCompletion.js";
import { chatCompletionStream } from "./tasks/nlp/chatCompletionStream.js";
import { featureExtraction } from "./tasks/nlp/featureExtraction.js";
import { fillMask } from "./tasks/nlp/fillMask.js";
import { questionAnswering } from "./tasks/nlp/questionAnswering.js";
import { sentenceSimilarity } from "./tasks/nlp/sentenceSimilarity.js";
import { summarization } from "./tasks/nlp/summarization.js";
import { tableQuestionAnswering } from "./tasks/nlp/tableQuestionAnswering.js";
import { textClassification } from "./tasks/nlp/textClassification.js";
import { textGeneration } from "./tasks/nlp/textGeneration.js";
import { textGenerationStream } from "./tasks/nlp/textGenerationStream.js";
import { tokenClassification } from "./tasks/nlp/tokenClassification.js";
import { translation } from "./tasks/nlp/translation.js";
import { zeroShotClassification } from "./tasks/nlp/zeroShotClassification.js";
import { tabularClassification } from "./tasks/tabular/tabularClassification.js";
import { tabularRegression } from "./tasks/tabular/tabularRegression.js";
import { fallbackRunner, type FallbackOptions, type WithFallback } from "./lib/fallback.js";
import { FALLBACK_KEY } from "./lib/request.js";
import type { InferenceTask, Options } from "./types.js";

/** The 36 task functions, each of which becomes a method (a plain literal, so bundlers can drop it). */
const TASK_FUNCTIONS = {
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
};

type TaskFunctions = typeof TASK_FUNCTIONS;

/**
 * The methods: the task functions, which on the client also take a provider list and `fallback`
 * (provider fallback); `request` and `streamingRequest` keep their generic signatures.
 */
type ClientMethods = {
	[K in keyof TaskFunctions]: K extends "request" | "streamingRequest"
		? TaskFunctions[K]
		: WithFallback<TaskFunctions[K]>;
};

export type InferenceClientOptions = Options & FallbackOptions & { endpointUrl?: string };

/**
 * One method per task function. Per-call arguments and options win over the client's; the methods
 * are non-enumerable own properties, as in 3.12.1. Methods accept provider fallback (a provider list,
 * or `fallback: true` with "auto"; see lib/fallback.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- methods are attached in the constructor
export class InferenceClient {
	accessToken: string;
	defaultOptions: InferenceClientOptions;

	constructor(accessToken = "", defaultOptions: InferenceClientOptions = {}) {
		this.accessToken = accessToken;
		this.defaultOptions = defaultOptions;
		const { endpointUrl, ...options } = defaultOptions;
		for (const name of Object.keys(TASK_FUNCTIONS) as Array<keyof TaskFunctions>) {
			const fn = TASK_FUNCTIONS[name] as (args: Record<string, unknown>, options?: object) => unknown;
			Object.defineProperty(this, name, {
				enumerable: false,
				value: (params: Record<string, unknown>, callOptions?: Options) =>
					fn(
						{ endpointUrl, accessToken, ...params },
						{ ...options, ...callOptions, [FALLBACK_KEY]: fallbackRunner },
					),
			});
		}
	}

	/** A client for an inference endpoint URL, with the same token and options. */
	endpoint(endpointUrl: string): InferenceClient {
		return new InferenceClient(this.accessToken, { ...this.defaultOptions, endpointUrl });
	}

	/** `prepareRequest` with this client's token, endpoint and options: the request a call would send. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any task function, whatever its argument types
	prepareRequest<F extends (args: any, options?: any) => unknown>(
		target: F | InferenceTask,
		args: Parameters<F>[0],
		options?: PrepareRequestOptions,
	): Promise<PreparedInferenceRequest> {
		const { endpointUrl, ...defaults } = this.defaultOptions;
		return prepareRequest(
			target,
			{ endpointUrl, accessToken: this.accessToken, ...args },
			{ ...defaults, ...options },
		);
	}

	/** `prepareRequestSync` with this client's token, endpoint and options: pure, no I/O. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any task function, whatever its argument types
	prepareRequestSync<F extends (args: any, options?: any) => unknown>(
		target: F | InferenceTask,
		args: Parameters<F>[0],
		options?: PrepareRequestOptions,
	): PreparedInferenceRequest {
		const { endpointUrl, ...defaults } = this.defaultOptions;
		return prepareRequestSync(
			target,
			{ endpointUrl, accessToken: this.accessToken, ...args },
			{ ...defaults, ...options },
		);
	}
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- typed methods of the class above
export interface InferenceClient extends ClientMethods {}

/** @deprecated Use InferenceClient. */
export class HfInference extends InferenceClient {}

/** @deprecated Use InferenceClient with `endpointUrl`, or `client.endpoint(url)`. */
export class InferenceClientEndpoint extends InferenceClient {}
