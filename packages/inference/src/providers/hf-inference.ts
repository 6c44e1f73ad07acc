/**
 * hf-inference: the hub's own serverless inference (and any inference endpoint URL). Every task is the
 * same request — the call arguments as JSON (or the file as the body) to `models/{id}` — so the helpers
 * are one factory call each: the task, the route, and what the answer must look like with 3.12.1's
 * error text when it does not (answer checks as data, see `fits`).
 */
import { InferenceOutputError } from "../core/errors.js";
import { base64ToJpegBlob, blobToBase64 } from "../internal/base64.js";
import { downloadBlob } from "../internal/http.js";
import { joinUrl } from "../internal/url.js";
import type { BodyParams, InferenceTask, UrlParams } from "../types.js";
import { checkTranscription, fits, isNumber, isRecord, type Shape } from "./checks.js";
import type { ProviderDefinition, ResponseContext, TaskHelper } from "./types.js";

/** Served by the router only: provider keys also go to {router}/hf-inference. */
const hfInference: ProviderDefinition = {
	id: "hf-inference",
	baseUrl: "https://router.huggingface.co/hf-inference",
	alwaysRouted: true,
};

type Route = (params: UrlParams) => string;
type Parse = (raw: unknown, context: ResponseContext) => unknown;

/**
 * What an answer must look like, as data: an array of items of `shape` whose `all` / `first` item is
 * returned, `oneOrFirst` (one item or an array of them), `nested` (an array whose first item is the
 * array of items). `message` is 3.12.1's error text when it does not fit.
 */
type AnswerForm = { form: "all" | "first" | "oneOrFirst" | "nested"; shape: Shape; message: string };

const isHttpUrl = (value: string) => value.startsWith("http://") || value.startsWith("https://");
const modelRoute: Route = ({ model }) => `models/${model}`;
const pipelineRoute: Route = ({ model, task }) => `models/${model}/pipeline/${task}`;
const argsBody = ({ args }: BodyParams) => args;

function fail(message: string): never {
	throw new InferenceOutputError(message);
}

function readAnswer(raw: unknown, { form, shape, message }: AnswerForm): unknown {
	if (form === "nested") return Array.isArray(raw) && fits(raw[0], [shape]) ? raw[0] : fail(message);
	if (form === "oneOrFirst" && !Array.isArray(raw)) return fits(raw, shape) ? raw : fail(message);
	if (!fits(raw, [shape])) fail(message);
	return form === "all" ? raw : (raw as unknown[])[0];
}

/** One hf-inference task: an endpoint URL (the "model" of endpoint calls) is the request URL as given. */
function hfTask(
	task: InferenceTask | undefined,
	answer: AnswerForm | Parse,
	route: Route = modelRoute,
	answersFile?: TaskHelper["answersFile"],
): TaskHelper {
	return {
		provider: hfInference,
		task,
		...(answersFile ? { answersFile } : {}),
		makeRoute: route,
		makeUrl: (params) => (isHttpUrl(params.model) ? params.model : joinUrl(params.baseUrl, route(params))),
		makeBody: argsBody,
		getResponse: typeof answer === "function" ? answer : (raw) => readAnswer(raw, answer),
	};
}

const passThrough: Parse = (raw) => raw;

const LABEL_SCORE = { label: "string", score: "number" } as const;
const LABEL_SCORES = "Expected Array<{label: string, score: number}>";
const SPAN_ANSWERS = "Expected Array<{answer: string, end: number, score: number, start: number}>";
const NUMBERS = "Expected Array<number>";

/** Nested number arrays, at most three levels below the top; all elements of one level alike. */
function isNumberTensor(value: unknown[], depth: number): boolean {
	if (depth > 3) return false;
	if (value.every(Array.isArray)) return value.every((item) => isNumberTensor(item as unknown[], depth + 1));
	return value.every(isNumber);
}

/** request() without a task: models/{id}, body as given, response untouched. */
export const hfInferenceGeneric = /* @__PURE__ */ hfTask(undefined, passThrough);

/** Images come back as a file, as b64_json data, or as URLs in `output`. */
export const hfInferenceTextToImage = /* @__PURE__ */ hfTask(
	"text-to-image",
	async (raw, { ctx, outputType }) => {
		if (!raw) fail("response is undefined");
		if (raw instanceof Blob) {
			return outputType === "url" ? `data:image/jpeg;base64,${await blobToBase64(raw)}` : raw;
		}
		if (isRecord(raw)) {
			const item = Array.isArray(raw.data) ? (raw.data[0] as unknown) : undefined;
			if (isRecord(item) && item.b64_json) {
				const b64 = String(item.b64_json);
				return outputType === "url" ? `data:image/jpeg;base64,${b64}` : base64ToJpegBlob(b64);
			}
			if (Array.isArray(raw.output)) {
				const url = String(raw.output[0]);
				return outputType === "url" ? url : await downloadBlob(url, ctx);
			}
		}
		// The trailing space is part of 3.12.1's message.
		fail("Expected a Blob ");
	},
	modelRoute,
	"always",
);

/** Chat URL: trailing slashes trimmed, then `/chat/completions` after `/v1`, else `/v1/chat/completions`. */
function chatUrl(params: UrlParams): string {
	const base = (
		isHttpUrl(params.model) ? params.model.trim() : joinUrl(params.baseUrl, modelRoute(params))
	).replace(/\/+$/, "");
	if (base.endsWith("/v1")) return `${base}/chat/completions`;
	if (base.endsWith("/chat/completions")) return base;
	return `${base}/v1/chat/completions`;
}

/** No answer check for chat here, as in 3.12.1 (endpoints answer in many OpenAI dialects). */
export const hfInferenceConversational: TaskHelper = {
	provider: hfInference,
	task: "conversational",
	makeRoute: (params) => `${modelRoute(params)}/v1/chat/completions`,
	makeUrl: chatUrl,
	makeBody: ({ args, model }) => ({ model, ...args }),
	getResponse: passThrough,
};

export const hfInferenceTextGeneration = /* @__PURE__ */ hfTask("text-generation", {
	form: "oneOrFirst",
	shape: { generated_text: "string" },
	message: "Expected Array<{generated_text: string}>",
});
export const hfInferenceTextClassification = /* @__PURE__ */ hfTask("text-classification", {
	form: "nested",
	shape: LABEL_SCORE,
	message: LABEL_SCORES,
});
export const hfInferenceQuestionAnswering = /* @__PURE__ */ hfTask("question-answering", {
	form: "oneOrFirst",
	shape: { answer: "string", end: "number", score: "number", start: "number" },
	message: SPAN_ANSWERS,
});
export const hfInferenceAudioClassification = /* @__PURE__ */ hfTask("audio-classification", {
	form: "all",
	shape: LABEL_SCORE,
	message: "Expected Array<{label: string, score: number}> but received different format",
});
export const hfInferenceAutomaticSpeechRecognition = /* @__PURE__ */ hfTask(
	"automatic-speech-recognition",
	(raw) => {
		checkTranscription(raw);
		return raw;
	},
);
export const hfInferenceFillMask = /* @__PURE__ */ hfTask("fill-mask", {
	form: "all",
	shape: { score: "number", sequence: "string", token: "number", token_str: "string" },
	message: "Expected Array<{score: number, sequence: string, token: number, token_str: string}>",
});
export const hfInferenceFeatureExtraction = /* @__PURE__ */ hfTask(
	"feature-extraction",
	(raw) =>
		Array.isArray(raw) && isNumberTensor(raw, 0)
			? raw
			: fail("Expected Array<number[][][] | number[][] | number[] | number>"),
	pipelineRoute,
);
export const hfInferenceImageClassification = /* @__PURE__ */ hfTask("image-classification", {
	form: "all",
	shape: LABEL_SCORE,
	message: LABEL_SCORES,
});
export const hfInferenceImageSegmentation = /* @__PURE__ */ hfTask("image-segmentation", {
	form: "all",
	shape: { label: "string", mask: "string", score: "number" },
	message: "Expected Array<{label: string, mask: string, score: number}>",
});
export const hfInferenceDocumentQuestionAnswering = /* @__PURE__ */ hfTask("document-question-answering", {
	form: "first",
	shape: { answer: "string", end: "number?", score: "number?", start: "number?" },
	message: SPAN_ANSWERS,
});
export const hfInferenceImageToText = /* @__PURE__ */ hfTask("image-to-text", (raw) =>
	Array.isArray(raw) && fits(raw[0], { generated_text: "string" })
		? raw[0]
		: fail("Expected {generated_text: string}"),
);
export const hfInferenceObjectDetection = /* @__PURE__ */ hfTask("object-detection", {
	form: "all",
	shape: {
		label: "string",
		score: "number",
		box: { xmin: "number", ymin: "number", xmax: "number", ymax: "number" },
	},
	message:
		"Expected Array<{label: string, score: number, box: {xmin: number, ymin: number, xmax: number, ymax: number}}>",
});
export const hfInferenceAudioToAudio = /* @__PURE__ */ hfTask("audio-to-audio", (raw) =>
	Array.isArray(raw)
		? readAnswer(raw, {
				form: "all",
				shape: { label: "string", "content-type": "string", blob: "string" },
				message: "Expected Array<{label: string, audio: Blob}>",
			})
		: fail("Expected Array"),
);
export const hfInferenceZeroShotImageClassification = /* @__PURE__ */ hfTask(
	"zero-shot-image-classification",
	{
		form: "all",
		shape: LABEL_SCORE,
		message: LABEL_SCORES,
	},
);
export const hfInferenceZeroShotClassification = /* @__PURE__ */ hfTask("zero-shot-classification", {
	form: "all",
	shape: { labels: ["string"], scores: ["number"], sequence: "string" },
	message: "Expected Array<{labels: string[], scores: number[], sequence: string}>",
});
export const hfInferenceImageToImage = /* @__PURE__ */ hfTask(
	"image-to-image",
	(raw) => (raw instanceof Blob ? raw : fail("Expected Blob")),
	modelRoute,
	"always",
);
export const hfInferenceSentenceSimilarity = /* @__PURE__ */ hfTask(
	"sentence-similarity",
	{ form: "all", shape: "number", message: NUMBERS },
	pipelineRoute,
);
export const hfInferenceTableQuestionAnswering = /* @__PURE__ */ hfTask("table-question-answering", {
	form: "oneOrFirst",
	shape: { aggregator: "string", answer: "string", cells: ["string"], coordinates: [["number"]] },
	message: "Expected {aggregator: string, answer: string, cells: string[], coordinates: number[][]}",
});
export const hfInferenceTabularClassification = /* @__PURE__ */ hfTask("tabular-classification", {
	form: "all",
	shape: "number",
	message: NUMBERS,
});
export const hfInferenceTextToSpeech = /* @__PURE__ */ hfTask(
	"text-to-speech",
	passThrough,
	modelRoute,
	"transformers",
);
export const hfInferenceTokenClassification = /* @__PURE__ */ hfTask("token-classification", {
	form: "all",
	shape: { end: "number", entity_group: "string", score: "number", start: "number", word: "string" },
	message: "Expected Array<{end: number, entity_group: string, score: number, start: number, word: string}>",
});
export const hfInferenceTranslation = /* @__PURE__ */ hfTask("translation", (raw) =>
	fits(raw, [{ translation_text: "string" }])
		? (raw as unknown[]).length === 1
			? (raw as unknown[])[0]
			: raw
		: fail("Expected Array<{translation_text: string}>"),
);
export const hfInferenceSummarization = /* @__PURE__ */ hfTask("summarization", {
	form: "first",
	shape: { summary_text: "string" },
	message: "Expected Array<{summary_text: string}>",
});
export const hfInferenceVisualQuestionAnswering = /* @__PURE__ */ hfTask("visual-question-answering", {
	form: "first",
	shape: { answer: "string", score: "number" },
	message: "Expected Array<{answer: string, score: number}>",
});
export const hfInferenceTabularRegression = /* @__PURE__ */ hfTask("tabular-regression", {
	form: "all",
	shape: "number",
	message: NUMBERS,
});
/** textToAudio() takes the audio file the model answers; request() hands back whatever came. */
export const hfInferenceTextToAudio = /* @__PURE__ */ hfTask(
	"text-to-audio",
	(raw) => (raw instanceof Blob ? raw : fail("Expected Blob")),
	modelRoute,
	"transformers",
);
