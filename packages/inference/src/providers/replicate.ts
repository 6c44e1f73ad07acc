/**
 * Replicate predictions: `POST /v1/models/{id}/predictions` (or `/v1/predictions` with a version for
 * "owner/name:version" ids) with `Prefer: wait`, which holds the answer until the prediction is done.
 */
import { InferenceOutputError } from "../core/errors.js";
import { download, downloadBlob } from "../internal/http.js";
import { onBase, poll } from "../internal/poll.js";
import { looksLikeUrl } from "../internal/url.js";
import type { AutomaticSpeechRecognitionOutput } from "../task-io.js";
import type { BodyParams, InferenceTask, UrlParams } from "../types.js";
import { isRecord, isString } from "./checks.js";
import { fileArgument, fileDataUrl } from "./media.js";
import type { CallArgs, ProviderDefinition, ResponseContext, TaskHelper } from "./types.js";

/** `Prefer: wait` asks Replicate to hold the response until the prediction is done (up to its limit). */
const replicate: ProviderDefinition = {
	id: "replicate",
	baseUrl: "https://api.replicate.com",
	extraHeaders: { Prefer: "wait" },
};

/** Delay between prediction polls when `Prefer: wait` returned before the prediction settled. */
const PREDICTION_POLL_MS = 1000;

/** "owner/name:version" ids use the versioned endpoint; others the model's own predictions endpoint. */
function predictionsRoute({ model }: UrlParams): string {
	return model.includes(":") ? "v1/predictions" : `v1/models/${model}/predictions`;
}

function predictionBody(params: BodyParams, input: Record<string, unknown>): Record<string, unknown> {
	const body: Record<string, unknown> = { input };
	if (params.model.includes(":")) body.version = params.model.split(":")[1];
	return body;
}

/** The prediction input: other arguments, parameters flat, `key` = inputs. */
function inputLayers(params: BodyParams, key = "prompt"): Record<string, unknown> {
	const { inputs, parameters, ...rest } = params.args;
	return { ...rest, ...(isRecord(parameters) ? parameters : {}), [key]: inputs };
}

function loraWeights(params: BodyParams): Record<string, unknown> {
	const { mapping } = params;
	return mapping?.adapter === "lora" && mapping.adapterWeightsPath
		? { lora_weights: `https://huggingface.co/${mapping.hfModelId}` }
		: {};
}

const PENDING = new Set(["starting", "processing"]);

/**
 * When `Prefer: wait` gave up before the prediction finished, the answer is still `starting` or
 * `processing` with a `urls.get` to poll. 3.12.1 fails there; we poll it until it settles — on the
 * submit's own base (Replicate, or the router's replicate route), so the credentials stay there.
 */
async function settle(raw: unknown, { ctx, request }: ResponseContext): Promise<unknown> {
	const pending = (prediction: unknown) =>
		isRecord(prediction) &&
		PENDING.has(String(prediction.status)) &&
		prediction.output == null &&
		isRecord(prediction.urls) &&
		isString(prediction.urls.get);
	if (!pending(raw)) return raw;
	const routedBase = `${ctx.routerUrl}/replicate`;
	const base = request.url.startsWith(`${routedBase}/`) ? routedBase : new URL(request.url).origin;
	const { "Content-Type": _json, ...headers } = request.init.headers;
	let last = raw;
	return await poll({
		ctx,
		url: onBase(base, ((raw as { urls: { get: string } }).urls as { get: string }).get),
		headers,
		submitUrl: request.url,
		intervalMs: PREDICTION_POLL_MS,
		read: async (response) => {
			if (!response.ok) {
				await response.body?.cancel().catch(() => undefined);
				return last;
			}
			last = await response.json();
			return pending(last) ? undefined : last;
		},
	});
}

/** The first output URL: a string output, or the first of a list. */
function firstOutput(prediction: unknown): string | undefined {
	const output = isRecord(prediction) ? prediction.output : undefined;
	if (isString(output)) return output;
	return Array.isArray(output) && isString(output[0]) ? output[0] : undefined;
}

function replicateHelper<T>(
	task: InferenceTask,
	makeBody: (params: BodyParams) => unknown,
	getResponse: TaskHelper<T>["getResponse"],
	prepare?: TaskHelper["prepare"],
): TaskHelper<T> {
	return { provider: replicate, task, prepare, makeRoute: predictionsRoute, makeBody, getResponse };
}

/** outputType "url" returns the output URL; a string output is accepted too (huggingface.js 4.13.28). */
export const replicateTextToImage = /* @__PURE__ */ replicateHelper<Blob | string>(
	"text-to-image",
	(params) => predictionBody(params, { ...inputLayers(params), ...loraWeights(params) }),
	async (raw, context) => {
		const url = firstOutput(await settle(raw, context));
		if (url) return context.outputType === "url" ? url : await downloadBlob(url, context.ctx);
		throw new InferenceOutputError("Expected Replicate text-to-image response format");
	},
);

export const replicateTextToSpeech = /* @__PURE__ */ replicateHelper<Blob>(
	"text-to-speech",
	(params) => predictionBody(params, inputLayers(params, "text")),
	async (raw, context) => {
		if (raw instanceof Blob) return raw;
		const url = firstOutput(await settle(raw, context));
		if (url) return await downloadBlob(url, context.ctx);
		throw new InferenceOutputError("Expected Blob or object with output");
	},
);

export const replicateTextToVideo = /* @__PURE__ */ replicateHelper<Blob>(
	"text-to-video",
	(params) => predictionBody(params, inputLayers(params)),
	async (raw, context) => {
		const prediction = await settle(raw, context);
		const output = isRecord(prediction) ? prediction.output : undefined;
		if (isString(output) && looksLikeUrl(output)) return await downloadBlob(output, context.ctx);
		throw new InferenceOutputError("Expected { output: string }");
	},
);

/** The image as a data: URL under every key Replicate models read it from (huggingface.js 4.13.28). */
export const replicateImageToImage = /* @__PURE__ */ replicateHelper<Blob>(
	"image-to-image",
	(params) => {
		const { image, ...input } = inputLayers(params, "image");
		return predictionBody(params, {
			...input,
			image,
			images: [image],
			input_image: image,
			input_images: [image],
			...loraWeights(params),
		});
	},
	async (raw, context) => {
		const url = firstOutput(await settle(raw, context));
		if (url && looksLikeUrl(url)) return await downloadBlob(url, context.ctx);
		throw new InferenceOutputError("Expected Replicate image-to-image response format");
	},
	async (args) => {
		const { file, rest } = fileArgument(args, "image");
		return { ...rest, inputs: await fileDataUrl(file, "image/jpeg") } as CallArgs;
	},
);

/**
 * The audio as a data: URL in `input.audio`. Transcripts come as a string, a list of strings, or an
 * object with `transcription`, `translation` or a `txt_file` to download.
 */
export const replicateAutomaticSpeechRecognition =
	/* @__PURE__ */ replicateHelper<AutomaticSpeechRecognitionOutput>(
		"automatic-speech-recognition",
		(params) => predictionBody(params, inputLayers(params, "audio")),
		async (raw, context) => {
			const prediction = await settle(raw, context);
			const output = isRecord(prediction) ? prediction.output : undefined;
			const text = firstOutput(prediction);
			if (text !== undefined) return { text };
			if (isRecord(output)) {
				if (isString(output.transcription)) return { text: output.transcription };
				if (isString(output.translation)) return { text: output.translation };
				if (isString(output.txt_file)) {
					const response = await download(output.txt_file, context.ctx);
					return { text: await response.text() };
				}
			}
			throw new InferenceOutputError("Expected Replicate automatic-speech-recognition response format");
		},
		async (args) => {
			const { file, rest } = fileArgument(args, "audio");
			return { ...rest, inputs: await fileDataUrl(file, "audio/wav") } as CallArgs;
		},
	);
