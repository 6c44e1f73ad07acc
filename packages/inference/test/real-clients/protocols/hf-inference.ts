/**
 * HF Inference, served only by the hub's router (`router.huggingface.co/hf-inference`). A model is
 * called at `/models/{id}` and runs its own task: JSON bodies carry `inputs` in the task's shape;
 * audio and image tasks take the file itself as the body (with its media type) or, with parameters,
 * JSON whose `inputs` is the base64 file. Embeddings and sentence similarity are reached at
 * `/models/{id}/pipeline/{task}`, chat at `/models/{id}/v1/chat/completions`.
 */
import {
	type JsonObject,
	field,
	isJsonRequest,
	jsonBody,
	knownModel,
	mediaBytes,
	optionalField,
	rawMediaBody,
	stringField,
} from "./checks.js";
import { hubError } from "./common.js";
import { FLAC, PNG, decodeBase64, type MediaKind } from "./media.js";
import { postJson } from "./endpoints.js";
import { checkMessages } from "./openai-style.js";
import { CHAT_ANSWER, COMPLETION_ANSWER, chatCompletion, json, mediaReply } from "./replies.js";
import {
	Refusal,
	type ProtocolState,
	type ProviderProtocol,
	type ProviderRequest,
	type Reply,
} from "./types.js";

const AUDIO: readonly MediaKind[] = ["flac", "wav", "mp3", "ogg", "webm", "mp4"];
const IMAGE: readonly MediaKind[] = ["png", "jpeg"];

function inputsOf(request: ProviderRequest): { body: JsonObject; inputs: unknown } {
	const body = jsonBody(request);
	if (!("inputs" in body)) throw new Refusal(400, "'inputs' is a required property");
	return { body, inputs: body.inputs };
}

function textInputs(request: ProviderRequest): string {
	const { inputs } = inputsOf(request);
	if (typeof inputs !== "string" || inputs.length === 0)
		throw new Refusal(400, "'inputs' must be a non-empty string");
	return inputs;
}

function objectInputs(request: ProviderRequest): { body: JsonObject; inputs: JsonObject } {
	const { body, inputs } = inputsOf(request);
	if (!inputs || typeof inputs !== "object" || Array.isArray(inputs)) {
		throw new Refusal(400, "'inputs' must be an object");
	}
	return { body, inputs: inputs as JsonObject };
}

/** The file itself as the body, or JSON with the base64 file as `inputs` (how parameters travel with it). */
function fileInputs(request: ProviderRequest, accepted: readonly MediaKind[]): void {
	if (!isJsonRequest(request)) {
		rawMediaBody(request, accepted);
		return;
	}
	const { inputs } = inputsOf(request);
	const bytes = decodeBase64(inputs);
	if (!bytes) throw new Refusal(400, "'inputs' must be the base64-encoded file");
	mediaBytes(bytes, "inputs", accepted);
}

function base64Image(value: unknown, what: string): void {
	const bytes = decodeBase64(value);
	if (!bytes) throw new Refusal(400, `'${what}' must be a base64-encoded image`);
	mediaBytes(bytes, what, IMAGE);
}

function candidateLabels(body: JsonObject): void {
	const parameters = body.parameters as JsonObject | undefined;
	const labels = parameters?.candidate_labels;
	if (!Array.isArray(labels) || labels.length === 0) {
		throw new Refusal(400, "'parameters.candidate_labels' must be a non-empty list");
	}
}

function stringMap(value: unknown, what: string): void {
	if (!value || typeof value !== "object" || Array.isArray(value))
		throw new Refusal(400, `'${what}' must be an object`);
	for (const [key, column] of Object.entries(value)) {
		if (!Array.isArray(column)) throw new Refusal(400, `'${what}.${key}' must be a list`);
	}
}

const LABELS = [
	{ label: "POSITIVE", score: 0.9981 },
	{ label: "NEGATIVE", score: 0.0019 },
];

/** For transformers models the answer is the audio file; other speech models answer `[samples, rate]`. */
/**
 * Speech and audio models of the transformers library answer the audio file; others answer JSON
 * `[samples, sampling_rate]` (the two answers 3.12.1's snippets read).
 */
export function answersAudioFile(libraryName: string | undefined): boolean {
	return libraryName === "transformers";
}

function speech(model: string, state: ProtocolState): Reply {
	if (answersAudioFile(state.hubModel(model)?.library_name)) return mediaReply("audio.flac");
	return json([[0, 0.25, 0.5, 0.25, 0, -0.25, -0.5, -0.25], 16000]);
}

/** Per task: the input check and the answer. */
const TASKS: Record<string, (request: ProviderRequest, model: string, state: ProtocolState) => Reply> = {
	"text-classification": (request) => (textInputs(request), json([LABELS])),
	"token-classification": (request) => (
		textInputs(request),
		json([
			{ entity_group: "PER", score: 0.9991, word: "Clara Oswald", start: 11, end: 23 },
			{ entity_group: "LOC", score: 0.9987, word: "Lisbon", start: 57, end: 63 },
		])
	),
	"fill-mask": (request, model, state) => {
		const inputs = textInputs(request);
		const mask = state.hubModel(model)?.mask_token ?? "[MASK]";
		if (!inputs.includes(mask)) throw new Refusal(400, `No mask_token (${mask}) found on the input`);
		return json([
			{ score: 0.9, token: 3007, token_str: "capital", sequence: inputs.replace(mask, "capital") },
			{ score: 0.05, token: 2803, token_str: "heart", sequence: inputs.replace(mask, "heart") },
		]);
	},
	summarization: (request) => (
		textInputs(request),
		json([{ summary_text: "The council approved twelve kilometres of bike lanes." }])
	),
	translation: (request) => (
		textInputs(request),
		json([{ translation_text: "The first tulips bloomed in the park today." }])
	),
	"text-generation": (request) => (textInputs(request), json([{ generated_text: COMPLETION_ANSWER }])),
	"text2text-generation": (request) => (textInputs(request), json([{ generated_text: CHAT_ANSWER }])),
	"zero-shot-classification": (request) => {
		const { body, inputs } = inputsOf(request);
		if (typeof inputs !== "string") throw new Refusal(400, "'inputs' must be a string");
		candidateLabels(body);
		const labels = (body.parameters as { candidate_labels: string[] }).candidate_labels;
		return json([
			{
				sequence: inputs,
				labels,
				scores: labels.map((_, i) => (i === 0 ? 0.9 : 0.1 / (labels.length - 1 || 1))),
			},
		]);
	},
	"feature-extraction": (request) => {
		const { inputs } = inputsOf(request);
		const ok =
			typeof inputs === "string" ||
			(Array.isArray(inputs) && inputs.every((item) => typeof item === "string"));
		if (!ok) throw new Refusal(400, "'inputs' must be a string or a list of strings");
		const vector = [0.0123, -0.0456, 0.0789, 0.0012];
		return json(Array.isArray(inputs) ? inputs.map(() => vector) : vector);
	},
	"sentence-similarity": (request) => {
		const { inputs } = objectInputs(request);
		stringField(inputs, "source_sentence");
		const sentences = field(inputs, "sentences", "array") as unknown[];
		return json(sentences.map((_, i) => [0.82, 0.11, 0.07][i % 3]));
	},
	"question-answering": (request) => {
		const { inputs } = objectInputs(request);
		stringField(inputs, "question");
		stringField(inputs, "context");
		return json({ answer: "Pier 4", score: 0.97, start: 44, end: 50 });
	},
	"table-question-answering": (request) => {
		const { inputs } = objectInputs(request);
		if (typeof inputs.query !== "string" && typeof inputs.question !== "string") {
			throw new Refusal(400, "'inputs.query' is a required property");
		}
		stringMap(inputs.table, "inputs.table");
		return json({
			answer: "Transformers",
			coordinates: [[0, 0]],
			cells: ["Transformers"],
			aggregator: "NONE",
		});
	},
	"tabular-classification": (request) => {
		const { inputs } = objectInputs(request);
		stringMap(inputs.data, "inputs.data");
		return json([1, 1]);
	},
	"tabular-regression": (request) => {
		const { inputs } = objectInputs(request);
		stringMap(inputs.data, "inputs.data");
		return json([412.5, 438.1]);
	},
	"document-question-answering": (request) => {
		const { inputs } = objectInputs(request);
		stringField(inputs, "question");
		base64Image(inputs.image, "inputs.image");
		return json([{ answer: "a cat", score: 0.93, start: 0, end: 1 }]);
	},
	// The question travels inside `inputs` ({image, question}) or, as huggingface_hub 2.0.0 sends it,
	// next to an `inputs` that is the base64 image.
	"visual-question-answering": (request) => {
		const { body, inputs } = inputsOf(request);
		const question = typeof inputs === "string" ? body : (objectInputs(request).inputs as JsonObject);
		stringField(question, "question");
		base64Image(typeof inputs === "string" ? inputs : (inputs as JsonObject).image, "inputs.image");
		return json([{ answer: "a cat", score: 0.93 }]);
	},
	"zero-shot-image-classification": (request) => {
		const { body, inputs } = inputsOf(request);
		base64Image(typeof inputs === "string" ? inputs : (inputs as JsonObject | null)?.image, "inputs");
		candidateLabels(body);
		const labels = (body.parameters as { candidate_labels: string[] }).candidate_labels;
		return json(
			labels.map((label, i) => ({ label, score: i === 0 ? 0.95 : 0.05 / (labels.length - 1 || 1) })),
		);
	},
	"text-to-image": (request) => (textInputs(request), mediaReply("image.png")),
	"image-to-image": (request) => (fileInputs(request, IMAGE), mediaReply("image.png")),
	"text-to-speech": (request, model, state) => (textInputs(request), speech(model, state)),
	"text-to-audio": (request, model, state) => (textInputs(request), speech(model, state)),
	"audio-classification": (request) => (
		fileInputs(request, AUDIO),
		json([
			{ label: "speech", score: 0.92 },
			{ label: "music", score: 0.08 },
		])
	),
	"automatic-speech-recognition": (request) => (
		fileInputs(request, AUDIO),
		json({ text: "Hello from the harbour." })
	),
	"audio-to-audio": (request) => (
		fileInputs(request, AUDIO),
		json([{ label: "speech", "content-type": "audio/flac", blob: FLAC.toString("base64") }])
	),
	"image-classification": (request) => (
		fileInputs(request, IMAGE),
		json([
			{ label: "tabby cat", score: 0.88 },
			{ label: "tiger cat", score: 0.1 },
		])
	),
	"image-segmentation": (request) => (
		fileInputs(request, IMAGE),
		json([{ label: "cat", score: 0.99, mask: PNG.toString("base64") }])
	),
	"image-to-text": (request) => (
		fileInputs(request, IMAGE),
		json([{ generated_text: "two cats sleeping on a sofa" }])
	),
	"object-detection": (request) => (
		fileInputs(request, IMAGE),
		json([{ label: "cat", score: 0.98, box: { xmin: 10, ymin: 20, xmax: 200, ymax: 180 } }])
	),
};

/** Embeddings and similarity are two faces of one model kind: the pipeline route picks one. */
const PIPELINE_ROUTE_TASKS = ["feature-extraction", "sentence-similarity"];

function modelTask(state: ProtocolState, model: string): string {
	knownModel(state, "hf-inference", model);
	const task = state.taskOf("hf-inference", model) ?? "";
	// Chat models also complete text at their model URL.
	return task === "conversational" ? "text-generation" : task;
}

export const hfInference: ProviderProtocol = {
	provider: "hf-inference",
	hosts: [
		{
			host: "api-inference.huggingface.co",
			endpoints: [
				// The model is chosen by the URL; the body's `model` is informational.
				postJson(
					"chat completions",
					/^\/models\/(?<model>.+?)\/v1\/chat\/completions$/,
					({ body, params, state }) => {
						const model = knownModel(state, "hf-inference", params.model, "conversational");
						field(body, "messages", "array");
						checkMessages(body.messages);
						return chatCompletion(model, optionalField(body, "stream", "boolean") === true);
					},
				),
				{
					name: "pipeline",
					method: "POST",
					path: /^\/models\/(?<model>.+?)\/pipeline\/(?<task>[a-z0-9-]+)$/,
					role: "inference",
					handle(request, params, state) {
						const task = params.task ?? "";
						const own = modelTask(state, params.model ?? "");
						if (!PIPELINE_ROUTE_TASKS.includes(task) || !PIPELINE_ROUTE_TASKS.includes(own)) {
							throw new Refusal(400, `Model ${params.model} cannot run pipeline ${task}`);
						}
						return TASKS[task]!(request, params.model ?? "", state);
					},
				},
				{
					name: "model",
					method: "POST",
					path: "/models/{model}",
					role: "inference",
					handle(request, params, state) {
						const model = params.model ?? "";
						const task = modelTask(state, model);
						const run = TASKS[task];
						if (!run) throw new Refusal(400, `Task ${task} is not served for ${model}`);
						return run(request, model, state);
					},
				},
			],
		},
	],
	routed: true,
	direct: false,
	keyScheme: { describe: "a hub token through the router", read: () => undefined },
	providerModelId: (hubModelId) => hubModelId,
	errorBody: hubError,
};
